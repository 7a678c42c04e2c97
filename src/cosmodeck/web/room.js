// A room: connection, presence, waiting room, the board, talk, timers and the event log.
import { h, clear, toast } from "./dom.js";
import { t, has, onLang } from "./i18n.js";
import { GameClient } from "./client.js";
import { seatName, gameName } from "./names.js";
import { loadBoard } from "./boards/index.js";
import { describeEvent, eventLine } from "./events.js";
import { attachPeek } from "./peek.js";
import * as generic from "./boards/generic.js";
import { rememberedRoom } from "./lobby.js";
import { againBody, againBox } from "./again.js";
import { createIdle } from "./idle.js";
import { createHost } from "./host.js";

const FREE_EMOTES = ["cheer", "groan", "gasp", "thumbs_up", "thumbs_down"];

export { describeEvent };

// a bot's level in words; a bot with settings of its own ("heuristic:p_catch=1") is named by its kind only
function botLevel(name) {
  if (has(`botlevel.${name}`)) return t(`botlevel.${name}`);
  const kind = String(name || "").split(":")[0];
  if (has(`botlevel.${kind}`)) return t("botlevel.tuned", { name: t(`botlevel.${kind}`) });
  return /^[a-z]+$/i.test(kind) ? kind : t("botlevel.other");
}

export function errorText(msg) {
  return has(`err.${msg.code}`) ? t(`err.${msg.code}`) : msg.message || msg.code;
}

export function mountRoom(root, roomId) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get("token") || sessionStorage.getItem(`cosmodeck.token.${roomId}`);
  if (token) sessionStorage.setItem(`cosmodeck.token.${roomId}`, token);

  const st = { seat: null, status: "waiting", game: null, presence: null, last: null, conn: "connecting",
    simple: localStorage.getItem("cosmodeck.simple") === "1", talk: [], log: [], logVersion: -1, refused: false };
  let board = null;
  let boardKind = null;

  const title = h("h1.room-title");
  const connBadge = h("span.badge", { role: "status" });
  const who = h("p.who");
  const setupBox = h("p.setup", { hidden: true });
  const presenceBox = h("ul.presence", { "aria-label": t("players") });
  const waitBox = h("section.card.waiting", { hidden: true });
  const resultBox = h("section.card.result", { hidden: true, tabindex: "-1" });
  const timerBox = h("p.timer", { "aria-live": "off" });
  const rulesA = h("a.button.rules-link", { target: "_blank", rel: "noopener" });
  const toggle = h("button.toggle", { type: "button", "aria-pressed": String(st.simple),
    onclick: () => { st.simple = !st.simple; localStorage.setItem("cosmodeck.simple", st.simple ? "1" : "0"); mountBoard(true); } });
  const boardRoot = h("div.board-root");
  const talkBox = h("section.card.talk", { "aria-labelledby": "talk-h" });
  const logList = h("ol.log", { "aria-live": "polite", "aria-relevant": "additions" });
  const logBox = h("section.card.logbox", { "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, t("log")), logList);
  attachPeek(logList);  // a card face in the log opens in full on hover or tap

  // idle seats (turn timer, votes, "a bot played for you") and the host's controls: their own modules
  const idleEnv = { send: (m) => client.send(m), gameTime: () => client.gameTime(), state: () => st,
    seatName: (n) => seatName(st.last && st.last.view, n) };
  const idle = createIdle(idleEnv);
  const host = createHost(idleEnv);

  clear(root).append(
    h("div.room-head", {}, title, connBadge, rulesA, toggle),
    who, setupBox, presenceBox, timerBox, idle.el, waitBox, host.el, resultBox,
    h("div.room-body", {}, boardRoot, h("aside.side", {}, talkBox, logBox)));

  const client = new GameClient(roomId, token, {
    status(s) { st.conn = s; renderHead(); },
    message: onMessage,
  });
  const ctx = {
    get seat() { return st.seat; },
    readonly: false,
    act(action, opts) {
      if (!client.act(action, opts)) toast(() => t("not_connected"), "error");
    },
    gameTime: () => client.gameTime(),
    log: (ev) => addLog(ev, st.last && st.last.view),
    describe: (ev) => describeEvent(ev, st.last && st.last.view),
  };

  async function mountBoard(force = false) {
    const want = st.simple ? "generic" : st.game;
    if (!force && boardKind === want) return;
    if (board) board.destroy();
    boardKind = want;
    const mod = st.simple ? generic : await loadBoard(st.game);
    st.boardMod = mod;  // its describeAction names the moves a bot made for this seat
    board = mod.createBoard(boardRoot, ctx);
    renderLog();  // the board's module names its game's events (cells, cards): the log can now use it
    if (st.last) Promise.resolve(board.update(st.last)).then(renderResult);
    renderHead();
    talkKey = "";
    renderTalk();
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "hello":
        st.seat = msg.seat; st.status = msg.status; st.game = msg.game; st.players = msg.players;
        renderSetup(msg);
        mountBoard();
        renderHead();
        break;
      case "presence":
        st.presence = msg; st.status = msg.status;
        renderPresence(); renderWaiting(); idle.render(); host.render();
        break;
      case "idle_report":
        idle.onReport(msg);
        break;
      case "rematch":
        host.onRematch(msg);
        break;
      case "events":
        // a (re)join resends recent steps as history: logged once, never animated
        if (msg.history) {
          if (msg.version > st.logVersion) for (const ev of msg.events) ctx.log(ev);
        } else if (board && board.animates) {
          // boards that animate log each event as it is shown, so the log never runs ahead of the board
          board.events(msg.events, msg.version);
        } else {
          for (const ev of msg.events) ctx.log(ev);
        }
        st.logVersion = Math.max(st.logVersion, msg.version);
        break;
      case "view":
        if (!st.last && st.log.length && board) { st.last = msg; renderLog(); }
        st.last = msg; st.status = msg.status || st.status;
        renderHead(); renderPresence(); renderWaiting(); renderTalk(); idle.render(); host.render();
        // the result appears once the board has finished showing how the game ended
        Promise.resolve(board ? board.update(msg) : null).then(() => { if (st.last === msg) renderResult(); });
        break;
      case "error":
        toast(() => errorText(msg), "error", 6000);
        if (msg.code === "bad_token" || msg.code === "unknown_room") {
          st.refused = true;
          clear(boardRoot).append(h("p.error", {}, errorText(msg)));
        }
        break;
      case "chat": case "signal": case "emote":
        st.talk.push(msg);
        renderTalkLines();
        break;
      default:
        break;
    }
  }

  // what every player is told about the room's setup: custom card data (by fingerprint) and a chosen seed
  function renderSetup(hello = st.hello) {
    st.hello = hello;
    if (!hello) return;
    const lines = [];
    if (hello.data && hello.data.custom) lines.push(t("setup.custom_data", { hash: String(hello.data.hash).slice(0, 8) }));
    if (hello.fixed_seed) lines.push(t("setup.fixed_seed"));
    setupBox.hidden = lines.length === 0;
    clear(setupBox).append(lines.join(" "));
  }

  // an event logged before the first view (history on join) is named with the latest view
  function logLine(entry) {
    return h("li", {}, eventLine(entry.ev, entry.view || (st.last && st.last.view) || { game: st.game }));
  }

  function addLog(ev, view) {
    const entry = { ev, view };
    st.log.push(entry);
    if (st.log.length > 200) st.log.shift();
    if (!board) return;  // until the board's module has loaded (it names its game's events): shown by mountBoard
    logList.append(logLine(entry));
    while (logList.children.length > 200) logList.firstChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }

  function renderLog() {
    clear(logList).append(...st.log.map(logLine));
    logList.scrollTop = logList.scrollHeight;
  }

  function renderHead() {
    document.title = `${gameName(st.game || "")} · ${roomId} · cosmodeck`;
    title.textContent = `${gameName(st.game || "")} · ${t("room")} ${roomId}`;
    connBadge.textContent = t(`conn.${st.conn}`);
    rulesA.hidden = !st.game;
    if (st.game) { rulesA.href = `/rules/${st.game}`; rulesA.textContent = t("rules"); }
    connBadge.className = `badge conn-${st.conn}`;
    who.textContent = st.seat === null ? t("you_spectate") : t("you_are", { name: seatName(st.last && st.last.view, st.seat) });
    toggle.textContent = st.simple ? t("board_view") : t("simple_view");
    toggle.setAttribute("aria-pressed", String(st.simple));
    // the simple view lists the raw view and actions: a developer's tool, not offered to players
    toggle.hidden = !(st.simple || localStorage.getItem("cosmodeck.dev") === "1");
  }

  function renderPresence() {
    const p = st.presence;
    if (!p) return;
    clear(presenceBox);
    for (const [seat, s] of Object.entries(p.seats)) {
      const n = Number(seat);
      let state;
      if (s.kind === "bot") state = t("pres.bot", { name: botLevel(s.bot) });
      else if (idle.presenceText(s, n === st.seat)) state = idle.presenceText(s, n === st.seat);
      else if (s.bot) state = t("pres.takeover", { name: botLevel(s.bot) });
      else if (s.connected) state = t("pres.online");
      else state = s.joined ? t("pres.gone") : t("pres.not_joined");
      const you = n === st.seat ? ` (${t("you")})` : "";
      const isHost = p.host === n ? ` · ${t("host.tag")}` : "";
      presenceBox.append(h(`li.pres.${s.kind}${s.connected ? ".on" : ""}`, { dataset: { seat } },
        h("strong", {}, seatName(st.last && st.last.view, n) + you), isHost, " · ", state));
    }
    if (p.spectators) presenceBox.append(h("li.pres", {}, t("spectators_n", { n: p.spectators })));
  }

  function renderWaiting() {
    if (st.status !== "waiting") { waitBox.hidden = true; return; }
    waitBox.hidden = false;
    const mine = rememberedRoom(roomId);
    clear(waitBox).append(h("h2", {}, t("waiting_title")), h("p", {}, t("waiting_help")));
    if (mine && mine.links) {
      waitBox.append(h("ul.links", {}, Object.entries(mine.links).map(([seat, url]) => h("li", {},
        h("span.who", {}, t("player_n", { n: Number(seat) + 1 })),
        h("input.link", { type: "text", readonly: true, value: url, onfocus: (e) => e.target.select(),
          "aria-label": t("invite_for", { n: Number(seat) + 1 }) }),
        h("button", { type: "button", onclick: () => navigator.clipboard.writeText(url).then(() => toast(() => t("copied")), () => toast(() => t("copy_failed"), "error")) }, t("copy"))))));
    }
    if (host.isHost()) {
      waitBox.append(h("button.primary", { type: "button", id: "start-now", onclick: () => client.start() }, t("start_now")));
    } else if (st.seat !== null) {
      waitBox.append(h("p.muted", {}, t("host.waits")));  // only the host may start early
    }
  }

  function renderResult() {
    const v = st.last && st.last.view;
    if (!v || !v.over) { resultBox.hidden = true; return; }
    const wasHidden = resultBox.hidden;
    resultBox.hidden = false;
    const r = v.result || {};
    const winners = (r.winners || []).map((s) => seatName(v, s));
    let headline;
    if (r.team_win === true) headline = t("team_won");
    else if (r.team_win === false) headline = t("team_lost");
    else if (st.seat !== null && (r.winners || []).includes(st.seat)) headline = winners.length > 1 ? t("you_shared") : t("you_won");
    else headline = winners.length ? t("winners", { names: winners.join(", ") }) : t("nobody_won");
    // a board may explain the result itself (a score breakdown); otherwise the scores as sentences
    const details = board && board.resultDetails ? board.resultDetails(v) : null;
    const scores = !details && r.scores ? Object.entries(r.scores).map(([s, x]) =>
      h("li", {}, t(Number(x) === 1 ? "score_of_one" : "score_of", { name: seatName(v, Number(s)), n: x }))) : [];
    clear(resultBox).append(h("h2", {}, t("game_over")), h("p.headline", {}, headline),
      ...(details ? [details] : []), ...(scores.length ? [h("ul", {}, scores)] : []),
      h("p", {}, h("a.button", { href: `/replay/${roomId}` }, t("watch_replay")), " ", h("a.button", { href: "/" }, t("new_game"))));
    // the host has the server's rematch (host.js: every connected seat gets its new link); the others
    // may still open a room of their own with the same seats, e.g. when the host has left
    const body = st.seat === null || host.isHost() ? null : againBody(st.hello, st.presence, st.players);
    // one box: once its room is created it stays as it is; before that it follows the language
    if (body && !(st.again && st.again.dataset.created)) st.again = againBox(body, st.seat);
    if (body) resultBox.append(st.again);
    if (wasHidden) resultBox.focus();
  }

  function talkRules() {
    const v = st.last && st.last.view;
    const rules = v ? v.talk : undefined;
    if (rules === undefined || rules === null) return { chat: true, signals: null, emotes: FREE_EMOTES };
    if (rules === true || rules === false) return { chat: rules, signals: null, emotes: FREE_EMOTES };
    return { chat: rules.chat === true, signals: rules.signals || [], emotes: rules.emotes || [] };
  }

  const talkLines = h("ol.talk-lines", { "aria-live": "polite" });
  function renderTalkLines() {
    clear(talkLines);
    for (const m of st.talk.slice(-50)) {
      const name = seatName(st.last && st.last.view, m.seat);
      let text;
      if (m.type === "chat") text = m.text;
      else if (m.type === "signal") text = `« ${has(`signal.${m.kind}`) ? t(`signal.${m.kind}`) : m.kind} »`;
      else text = `(${has(`emote.${m.kind}`) ? t(`emote.${m.kind}`) : m.kind})${m.target ? " → " + m.target : ""}`;
      talkLines.append(h(`li.${m.type}`, {}, h("strong", {}, name + ": "), text));
    }
    talkLines.scrollTop = talkLines.scrollHeight;
  }

  let talkKey = "";
  function renderTalk() {
    const rules = talkRules();
    const key = JSON.stringify([rules, st.seat, boardKind]);
    if (key === talkKey) return;
    talkKey = key;
    clear(talkBox).append(h("h2", { id: "talk-h" }, t("talk")), talkLines);
    if (st.seat === null) { talkBox.append(h("p.muted", {}, t("spectators_no_talk"))); return; }
    if (rules.chat) {
      const input = h("input", { id: "chat-input", type: "text", maxlength: "280", placeholder: t("chat_placeholder"), "aria-label": t("chat") });
      talkBox.append(h("form.chat", { onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) { client.chat(input.value); input.value = ""; } } },
        input, h("button", { type: "submit" }, t("send"))));
    } else {
      talkBox.append(h("p.muted", {}, t("chat_forbidden")));
    }
    if (board && board.talkActions) {
      // this game's signals and emotes are game actions: the board shows them
      talkBox.append(h("p.muted", {}, t("talk_on_board")));
      return;
    }
    if (rules.signals && rules.signals.length) {
      talkBox.append(h("div.signals", { role: "group", "aria-label": t("signals") }, rules.signals.map((k) =>
        h("button", { type: "button", onclick: () => client.signal(k) }, has(`signal.${k}`) ? t(`signal.${k}`) : k))));
    }
    if (rules.emotes && rules.emotes.length) {
      talkBox.append(h("div.emotes", { role: "group", "aria-label": t("emotes") }, rules.emotes.map((k) =>
        h("button", { type: "button", title: has(`emote.${k}`) ? t(`emote.${k}`) : k, "aria-label": has(`emote.${k}`) ? t(`emote.${k}`) : k,
          onclick: () => client.emote(k) }, has(`emote.${k}`) ? t(`emote.${k}`) : k))));
    }
  }

  function tickTimer() {
    const m = st.last;
    // a board that shows its own deadlines (ownsTimer) makes the room's line redundant
    if (!m || m.deadline === null || m.deadline === undefined || st.status !== "playing" || (board && board.ownsTimer)) {
      timerBox.textContent = "";
    } else {
      const left = Math.max(0, m.deadline - client.gameTime());
      timerBox.textContent = t("timer_left", { s: left.toFixed(left < 10 ? 1 : 0) });
    }
    idle.tick();
    requestAnimationFrame(tickTimer);
  }

  onLang(() => { renderLog(); logBox.querySelector("h2").textContent = t("log"); renderHead(); renderSetup(); renderPresence(); renderWaiting(); renderResult(); talkKey = ""; renderTalk(); renderTalkLines(); relabelBoard(); idle.render(); host.render(); });

  // a language change re-renders the board at once: a board with relabel() redraws itself (keeping
  // what the player had selected); any other board is mounted again from the latest view
  function relabelBoard() {
    if (!board) return;
    if (board.relabel) board.relabel();
    else mountBoard(true);
  }
  renderHead();
  renderTalk();
  client.connect();
  requestAnimationFrame(tickTimer);
  window.addEventListener("beforeunload", () => client.close());
}

