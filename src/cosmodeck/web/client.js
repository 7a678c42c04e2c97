// The protocol client: one WebSocket to /ws/ROOM, reconnecting with back-off.
// Server messages: hello, presence, view, events, error, chat, signal, emote, pong.
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
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The token never goes in the URL (URLs end up in logs): it is the first message on the socket.
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.room)}`);
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
