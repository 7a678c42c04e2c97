// The protocol client: one WebSocket to /ws/ROOM, reconnecting with back-off.
// Server messages: hello, presence, view, events, error, chat, signal, emote, pong, redirect.
export class GameClient {
  constructor(room, token, handlers) {
    this.room = room;
    this.token = token || null;
    this.handlers = handlers;  // {message(msg), status(state)}
    this.version = null;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.clockOffset = 0;  // game time = performance.now()/1000 + clockOffset
    this.server = null;  // ws(s)://host[/prefix] of the server process that runs the room (a redirect)
    this.redirects = 0;
  }

  // Several server processes (docs/SERVER.md): one that does not run the room answers with a
  // redirect to the one that does; the client goes there at once (the same auth message).
  followRedirect(ws, msg) {
    let url;
    try { url = new URL(msg.server); } catch { return false; }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || this.redirects >= 5) return false;
    this.redirects += 1;
    this.server = `${url.protocol === "https:" ? "wss" : "ws"}://${url.host}${url.pathname.replace(/\/+$/, "")}`;
    ws.redirected = true;
    ws.close();
    return true;
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The token never goes in the URL (URLs end up in logs): it is the first message on the socket.
    const base = this.server || `${proto}://${location.host}`;
    const ws = new WebSocket(`${base}/ws/${encodeURIComponent(this.room)}`);
    this.ws = ws;
    this.handlers.status("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.retry = 0;
      this.handlers.status("open");
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "redirect" && this.followRedirect(ws, msg)) return;
      if (msg.type === "hello") this.redirects = 0;
      if (msg.type === "view") {
        this.version = msg.version;
        this.legal = msg.legal || [];
        if (typeof msg.time === "number") this.clockOffset = msg.time - performance.now() / 1000;
      }
      if (msg.type === "error" && msg.code === "stale_version" && this.retryStale()) return;
      this.handlers.message(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ws.redirected && !this.closed) { this.connect(); return; }
      // the room's process went away: the page's own server sends us to whichever process resumed it
      this.server = null;
      if (this.closed || e.code === 4404 || e.code === 4401) {
        this.handlers.status(e.code === 4404 || e.code === 4401 ? "refused" : "closed");
        return;
      }
      this.handlers.status("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => { if (!this.closed) this.connect(); }, delay);
    };
  }

  gameTime() { return performance.now() / 1000 + this.clockOffset; }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  act(action) {
    this.pending = { action, version: this.version, tries: 0 };
    return this.send({ type: "act", action, version: this.version });
  }

  // In a busy real-time game the view often moves on while a player clicks. If the action the
  // player chose is still legal in the newest view, send it again for that version (a few times).
  retryStale() {
    const p = this.pending;
    if (!p || p.tries >= 3 || this.version === p.version || !(this.legal || []).includes(p.action)) return false;
    p.tries += 1;
    p.version = this.version;
    return this.send({ type: "act", action: p.action, version: this.version });
  }
  start() { return this.send({ type: "start" }); }
  chat(text) { return this.send({ type: "chat", text }); }
  signal(kind) { return this.send({ type: "signal", kind }); }
  emote(kind, target) { return this.send(target ? { type: "emote", kind, target } : { type: "emote", kind }); }

  close() { this.closed = true; if (this.ws) this.ws.close(); }
}
