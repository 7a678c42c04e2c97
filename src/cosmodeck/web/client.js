// The protocol client: one WebSocket to /ws/ROOM, reconnecting with back-off.
// Server messages: hello, presence, view, events, error, chat, signal, emote, pong, redirect.
const STALE_RETRIES = 12;
const STALE_RETRY_MS = 4000;

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
        this.lastView = msg;
        if (typeof msg.time === "number") this.clockOffset = msg.time - performance.now() / 1000;
      }
      // a stale action sent again, or one the player has since replaced by another click, is not an
      // error to show; only a refusal that stands (the choice is gone from the newest view) reaches the page
      if (msg.type === "error" && msg.code === "stale_version") {
        const r = this.onStale(msg);
        if (r === "moved_on") msg = { ...msg, code: "stale_moment" };
        else if (r !== "refused") return;
      }
      this.handlers.message(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ws.redirected && !this.closed) { this.connect(); return; }
      // the room's process went away: the page's own server sends us to whichever process resumed it
      this.server = null;
      // 4409: this seat was opened in another window, which took this page's place (no reconnecting: the
      // two pages would take turns closing each other)
      if (this.closed || e.code === 4404 || e.code === 4401 || e.code === 4409) {
        this.handlers.status(e.code === 4409 ? "replaced" : e.code === 4404 || e.code === 4401 ? "refused" : "closed");
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

  // opts.resend: false, or a function of a newer view message that says whether the action still means
  // what the player chose (a countdown's "pass" is for the number being called): when it does not, the
  // action is never sent again for that view, and a stale refusal of it is said to the player
  act(action, opts = {}) {
    const r = opts.resend;
    const still = typeof r === "function" ? r : () => r !== false;
    this.pending = { action, version: this.version, tries: 0, at: performance.now(), still, moment: typeof r === "function" };
    return this.send({ type: "act", action, version: this.version });
  }

  // In a busy real-time game the view often moves on while a player clicks (another player's move, a
  // timer, an emote). The server's stale_version names the refused action and the version it was sent
  // for. Returns "superseded" (the player clicked something else since: that click decides),
  // "retried" (the action is still legal in the newest view: sent again for it, a few times within a
  // few seconds of the click), "moved_on" (an action for one moment, a countdown's "Pass" or slap for the
  // number called then, reached the server after that moment: the page says it was too late) or "refused"
  // (the choice is gone: the page says so).
  onStale(msg) {
    const p = this.pending;
    if (!p) return "superseded";
    if ((typeof msg.action === "string" && msg.action !== p.action) ||
        (typeof msg.version === "number" && msg.version !== p.version)) return "superseded";
    const fresh = performance.now() - p.at < STALE_RETRY_MS;
    if (this.version !== p.version && !p.still(this.lastView)) {
      this.pending = null;
      return "moved_on";
    }
    if (p.tries >= STALE_RETRIES || !fresh || this.version === p.version ||
        !(this.legal || []).includes(p.action)) {
      this.pending = null;
      // an action for one moment refused for good (a slap or "Pass" for a number another player took) came
      // too late for its moment, like one overtaken by the next call
      return p.moment ? "moved_on" : "refused";
    }
    p.tries += 1;
    p.version = this.version;
    this.send({ type: "act", action: p.action, version: this.version });
    return "retried";
  }
  start() { return this.send({ type: "start" }); }
  chat(text) { return this.send({ type: "chat", text }); }
  signal(kind) { return this.send({ type: "signal", kind }); }
  emote(kind, target) { return this.send(target ? { type: "emote", kind, target } : { type: "emote", kind }); }

  close() { this.closed = true; if (this.ws) this.ws.close(); }
}
