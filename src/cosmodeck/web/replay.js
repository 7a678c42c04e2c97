// The replay viewer of a finished game: step through it from any seat's view (or a spectator's).
import { h, clear, api } from "./dom.js";
import { t, onLang } from "./i18n.js";
import { seatName, gameName } from "./names.js";
import { loadBoard } from "./boards/index.js";
import * as generic from "./boards/generic.js";
import { describeEvent } from "./room.js";

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
  const st = { seat: "", index: 0, data: null, simple: localStorage.getItem("cosmodeck.simple") === "1" };
  const title = h("h1");
  const seatSel = h("select", { id: "replay-seat", onchange: (e) => { st.seat = e.target.value; load(); } });
  const slider = h("input", { id: "replay-step", type: "range", min: "0", value: "0", "aria-label": t("step"),
    oninput: (e) => go(Number(e.target.value)) });
  const pos = h("span.pos", { "aria-live": "polite" });
  const evList = h("ol.log");
  const boardRoot = h("div.board-root");
  const toggle = h("button.toggle", { type: "button", onclick: () => { st.simple = !st.simple; localStorage.setItem("cosmodeck.simple", st.simple ? "1" : "0"); mountBoard(); } });
  let board = null;

  clear(root).append(
    h("div.room-head", {}, title, toggle),
    h("div.replay-bar.card", {},
      h("label", { for: "replay-seat" }, t("replay_as"), " "), seatSel,
      h("button", { type: "button", id: "replay-first", onclick: () => go(0), "aria-label": t("first") }, "|◀"),
      h("button", { type: "button", id: "replay-prev", onclick: () => go(st.index - 1), "aria-label": t("previous") }, "◀"),
      slider,
      h("button", { type: "button", id: "replay-next", onclick: () => go(st.index + 1), "aria-label": t("next") }, "▶"),
      h("button", { type: "button", id: "replay-last", onclick: () => go(Infinity), "aria-label": t("last") }, "▶|"),
      pos, h("small", {}, t("replay_keys"))),
    h("div.room-body", {}, boardRoot, h("aside.side", {}, h("section.card", {}, h("h2", {}, t("step_events")), evList))));

  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT")) return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (e.target === slider) return;
      go(st.index + (e.key === "ArrowRight" ? 1 : -1));
      e.preventDefault();
    } else if (e.key === "Home") { go(0); } else if (e.key === "End") { go(Infinity); }
  });

  function renderSeats() {
    const view = st.data ? st.data.frames[0].view : null;
    clear(seatSel).append(h("option", { value: "", selected: st.seat === "" }, t("spectator")),
      ...Array.from({ length: info.players }, (_, i) => h("option", { value: String(i), selected: st.seat === String(i) },
        seatName(view, i))));
  }

  async function mountBoard() {
    if (board) board.destroy();
    const mod = st.simple ? generic : await loadBoard(info.game);
    const seat = st.seat === "" ? null : Number(st.seat);
    board = mod.createBoard(boardRoot, { seat, readonly: true, noAnimation: true, act() {}, describe: (ev) => describeEvent(ev, null) });
    toggle.textContent = st.simple ? t("board_view") : t("simple_view");
    show();
  }

  async function load() {
    const q = st.seat === "" ? "" : `?seat=${st.seat}`;
    st.data = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}/replay${q}`);
    slider.max = String(st.data.frames.length - 1);
    renderSeats();
    await mountBoard();
  }

  function go(i) {
    if (!st.data) return;
    st.index = Math.max(0, Math.min(st.data.frames.length - 1, i));
    show();
  }

  function show() {
    if (!st.data || !board) return;
    const f = st.data.frames[st.index];
    slider.value = String(st.index);
    pos.textContent = t("step_of", { i: st.index, n: st.data.frames.length - 1 });
    title.textContent = `${t("replay")}: ${gameName(info.game)} · ${roomId}`;
    board.update({ type: "view", version: st.index, view: f.view, legal: [], deadline: f.view.deadline, status: "over" });
    clear(evList);
    if (f.step) evList.append(h("li.step", {}, f.step[1] === "advance" ? t("step_advance", { t: f.step[0].toFixed(1) })
      : t("step_action", { name: seatName(f.view, f.step[1]), action: f.step[2] })));
    for (const ev of f.events) evList.append(h("li", {}, describeEvent(ev, f.view)));
  }

  onLang(() => { renderSeats(); if (board) mountBoard(); });
  await load();
}
