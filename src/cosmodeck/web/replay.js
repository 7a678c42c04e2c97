// The replay viewer of a finished game: step through it from any seat's view (or a spectator's),
// with a slider, play/pause, and each step told in sentences.
import { h, clear, api } from "./dom.js";
import { t, getLang, onLang } from "./i18n.js";
import { seatName, gameName } from "./names.js";
import { loadBoard } from "./boards/index.js";
import * as generic from "./boards/generic.js";
import { describeEvent, eventLine } from "./events.js";
import { attachPeek } from "./peek.js";

const PLAY_MS = 800;
const TOUCH = !!window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

export async function mountReplay(root, roomId) {
  let info;
  try {
    info = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
  } catch (e) {
    clear(root).append(h("p.error", {}, e.message));
    return;
  }
  if (info.status !== "over") {
    clear(root).append(h("h1", {}, t("replay")), h("p", {}, t("replay_not_over")),
      h("a.button", { href: `/room/${roomId}` }, t("watch")));
    return;
  }
  const st = { seat: "", index: 0, data: null, simple: localStorage.getItem("cosmodeck.simple") === "1", timer: null };
  let mod = null;
  let board = null;
  const title = h("h1");
  const seatLabel = h("label", { for: "replay-seat" });
  const seatSel = h("select", { id: "replay-seat", onchange: (e) => { st.seat = e.target.value; load(); } });
  const slider = h("input", { id: "replay-step", type: "range", min: "0", value: "0",
    oninput: (e) => go(Number(e.target.value)) });
  const pos = h("span.pos", { "aria-live": "polite" });
  const keysHint = h("small.muted");
  const evHead = h("h2");
  const evList = h("ol.log.replay-events");
  attachPeek(evList);
  const boardRoot = h("div.board-root");
  const toggle = h("button.toggle", { type: "button", onclick: () => { st.simple = !st.simple; localStorage.setItem("cosmodeck.simple", st.simple ? "1" : "0"); mountBoard(); } });
  const btn = (id, glyph, onclick) => {
    const [name, ...cls] = id.split(".");
    return h(`button${cls.map((c) => "." + c).join("")}`, { type: "button", id: name, onclick }, glyph);
  };
  const first = btn("replay-first", "|◀", () => go(0));
  const prev = btn("replay-prev", "◀", () => go(st.index - 1));
  const play = btn("replay-play.primary", "", () => (st.timer ? pause() : start()));
  const next = btn("replay-next", "▶", () => go(st.index + 1));
  const last = btn("replay-last", "▶|", () => go(Infinity));

  clear(root).append(
    h("div.room-head", {}, title, toggle),
    h("div.replay-bar.card", {}, seatLabel, seatSel, first, prev, play, next, last, slider, pos, keysHint),
    h("div.room-body", {}, boardRoot, h("aside.side", {}, h("section.card", {}, evHead, evList))));

  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT")) return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (e.target === slider) return;
      go(st.index + (e.key === "ArrowRight" ? 1 : -1));
      e.preventDefault();
    } else if (e.key === "Home") { go(0); } else if (e.key === "End") { go(Infinity); } else if (e.key === " " && e.target === document.body) {
      if (st.timer) pause(); else start();
      e.preventDefault();
    }
  });

  function labels() {
    title.textContent = `${t("replay")}: ${gameName(info.game)}`;
    seatLabel.textContent = `${t("replay_as")} `;
    slider.setAttribute("aria-label", t("step"));
    for (const [el, key] of [[first, "first"], [prev, "previous"], [next, "next"], [last, "last"]]) {
      el.setAttribute("aria-label", t(key));
      el.title = t(key);
    }
    play.setAttribute("aria-label", st.timer ? t("pause") : t("play"));
    play.title = play.getAttribute("aria-label");
    play.textContent = st.timer ? t("pause") : t("play");
    keysHint.textContent = TOUCH ? "" : t("replay_keys");
    evHead.textContent = t("step_events");
    toggle.textContent = st.simple ? t("board_view") : t("simple_view");
    toggle.hidden = !(st.simple || localStorage.getItem("cosmodeck.dev") === "1");  // a developer's view
  }

  function start() {
    if (!st.data) return;
    if (st.index >= st.data.frames.length - 1) go(0);
    st.timer = setInterval(() => {
      if (st.index >= st.data.frames.length - 1) { pause(); return; }
      go(st.index + 1);
    }, PLAY_MS);
    labels();
  }

  function pause() {
    clearInterval(st.timer);
    st.timer = null;
    labels();
  }

  function renderSeats() {
    const view = st.data ? st.data.frames[0].view : null;
    clear(seatSel).append(h("option", { value: "", selected: st.seat === "" }, t("spectator")),
      ...Array.from({ length: info.players }, (_, i) => h("option", { value: String(i), selected: st.seat === String(i) },
        seatName(view, i))));
  }

  function frameView() { return st.data ? st.data.frames[st.index].view : null; }

  async function mountBoard() {
    if (board) board.destroy();
    mod = st.simple ? generic : await loadBoard(info.game);
    const seat = st.seat === "" ? null : Number(st.seat);
    board = mod.createBoard(boardRoot, {
      seat, readonly: true, noAnimation: true, act() {},
      gameTime: () => { const v = frameView(); return v && typeof v.now === "number" ? v.now : 0; },
      log() {},
      describe: (ev) => describeEvent(ev, frameView()),
    });
    labels();
    show();
  }

  async function load() {
    const q = st.seat === "" ? "" : `?seat=${st.seat}`;
    st.data = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}/replay${q}`);
    slider.max = String(st.data.frames.length - 1);
    st.index = Math.min(st.index, st.data.frames.length - 1);
    renderSeats();
    await mountBoard();
  }

  function go(i) {
    if (!st.data) return;
    st.index = Math.max(0, Math.min(st.data.frames.length - 1, i));
    show();
  }

  // one step in words: who did what (as the board's game tells it), or that time passed
  function stepText(f) {
    if (!f.step) return t("step_start");
    if (f.step[1] === "advance") return t("step_advance", { t: Number(f.step[0]).toLocaleString(getLang(), { maximumFractionDigits: 1 }) });
    const name = seatName(f.view, f.step[1]);
    const said = mod && mod.describeAction ? mod.describeAction(f.step[2], f.view, f.step[1]) : null;
    return said ? t("step_said", { name, action: said }) : t("step_moved", { name });
  }

  function show() {
    if (!st.data || !board) return;
    const f = st.data.frames[st.index];
    slider.value = String(st.index);
    pos.textContent = t("step_of", { i: st.index, n: st.data.frames.length - 1 });
    board.update({ type: "view", version: st.index, view: f.view, legal: [], deadline: f.view.deadline, status: "over" });
    // a board may say that a step is told by its first event (Blast Off!: "Player 2 draws a card.", then
    // "Player 2 draws 1 card."): the step line would say the same move twice. Shooting Star's step line
    // stays: it names the card placed, which the event to other seats shows face down.
    const first = f.events[0];
    const told = Boolean(f.step && first && mod && typeof mod.stepToldBy === "function" && mod.stepToldBy(first, f.step[1]));
    clear(evList).append(...(told ? [] : [h("li.step", {}, stepText(f))]),
      ...f.events.map((ev) => h("li", {}, eventLine(ev, f.view))));
  }

  onLang(() => { labels(); renderSeats(); if (board) mountBoard(); });
  labels();
  await load();
}
