// Idle seats in a room: the turn timer as a bar ("Player 2 has 42 s to play"), who a bot plays for
// and why, the vote to hand an idle seat to a bot, "I'm back", and "a bot played for you".
// Server frames it reads: view.turns / view.turn_s, presence.seats[*].idle / presence.votes, idle_report.
import { h, clear } from "./dom.js";
import { t, getLang } from "./i18n.js";

// env: { send(msg), gameTime(), state() -> room state {seat, status, presence, last, boardMod}, seatName(n) }
export function createIdle(env) {
  const el = h("section.idle", { "aria-label": t("idle.timer_label") });
  const bars = h("div.idle-bars");
  const lines = h("div.idle-lines");
  const reportBox = h("div.idle-report", { hidden: true, role: "status" });
  el.append(bars, lines, reportBox);
  let report = null;
  let barKey = null;
  let lineKey = null;

  function seatsInfo() {
    const st = env.state();
    return (st.presence && st.presence.seats) || {};
  }

  // the seats on the turn timer, without those a bot plays for
  function timers() {
    const st = env.state();
    const m = st.last;
    if (!m || st.status !== "playing" || !m.turns) return [];
    const seats = seatsInfo();
    return Object.entries(m.turns).map(([s, end]) => ({ seat: Number(s), end }))
      .filter((x) => !(seats[String(x.seat)] && seats[String(x.seat)].bot));
  }

  function render() {
    const st = env.state();
    const seats = seatsInfo();
    const votes = (st.presence && st.presence.votes) || {};
    const playing = st.status === "playing";
    // rebuilt only when what it says changes: a bot playing fast must not pull the buttons away
    const key = JSON.stringify([getLang(), st.seat, st.status, seats, votes, timers().map((x) => x.seat),
      (st.last && st.last.view && st.last.view.factions) || null]);
    if (key === lineKey) return;
    lineKey = key;
    barKey = null;  // the bars are rebuilt on the next frame (language, seats)
    clear(lines);
    for (const [key, s] of Object.entries(seats)) {
      const n = Number(key);
      if (s.kind !== "human" || !s.idle || !s.bot || !playing) continue;
      const why = t(`idle.reason.${s.idle}`);
      if (n === st.seat) {
        lines.append(h("p.idle-line.mine", {}, t("idle.bot_playing_you", { why }), " ",
          h("button.primary", { type: "button", id: "idle-back", onclick: () => env.send({ type: "back" }) }, t("idle.back"))));
      } else {
        lines.append(h("p.idle-line", { dataset: { seat: key } }, t("idle.bot_playing", { name: env.seatName(n), why })));
      }
    }
    // a seated person may vote to let a bot play for another person who is on the clock (or already voted on)
    if (playing && st.seat !== null && seats[String(st.seat)] && seats[String(st.seat)].kind === "human") {
      const onClock = new Set(timers().map((x) => x.seat));
      for (const [key, s] of Object.entries(seats)) {
        const n = Number(key);
        if (n === st.seat || s.kind !== "human" || s.bot) continue;
        const got = votes[key] || [];
        if (!onClock.has(n) && !got.length) continue;
        const need = Object.entries(seats).filter(([k, x]) => x.kind === "human" && Number(k) !== n && x.connected).length;
        const mine = got.includes(st.seat);
        const row = h("p.idle-vote", { dataset: { seat: key } });
        if (got.length) row.append(t("idle.votes", { n: got.length, m: need, name: env.seatName(n) }), " ");
        if (mine) row.append(`(${t("idle.voted")})`);
        else row.append(h("button", { type: "button", onclick: () => env.send({ type: "vote_bot", seat: n }) },
          t("idle.vote", { name: env.seatName(n) })));
        lines.append(row);
      }
    }
    renderReport();
  }

  function renderReport() {
    reportBox.hidden = !report;
    clear(reportBox);
    if (!report) return;
    const st = env.state();
    const n = report.count;
    const head = n === 0 ? t("idle.report_none") : n === 1 ? t("idle.report_one") : t("idle.report_n", { n });
    reportBox.append(h("strong", {}, head));
    const mod = st.boardMod;
    const view = st.last && st.last.view;
    if (mod && mod.describeAction && report.moves.length) {
      const said = report.moves.map((a) => mod.describeAction(a, view, report.seat)).filter(Boolean);
      if (said.length) reportBox.append(h("ol.idle-moves", {}, said.map((x) => h("li", {}, x))));
    }
    reportBox.append(h("button", { type: "button", onclick: () => { report = null; renderReport(); } }, t("idle.dismiss")));
  }

  // every animation frame: the bars count down with the client's game clock
  function tick() {
    const st = env.state();
    const list = timers();
    const key = list.map((x) => `${x.seat}:${x.end}`).join(",");
    if (key !== barKey) {
      barKey = key;
      clear(bars);
      for (const x of list) {
        bars.append(h("div.idle-bar", { dataset: { seat: String(x.seat) } },
          h("span.idle-text"), h("span.idle-track", { "aria-hidden": "true" }, h("span.idle-fill"))));
      }
    }
    const total = (st.last && st.last.turn_s) || 1;
    const now = env.gameTime();
    for (const x of list) {
      const bar = bars.querySelector(`[data-seat="${x.seat}"]`);
      if (!bar) continue;
      const left = Math.max(0, x.end - now);
      const s = Math.ceil(left);
      const text = x.seat === st.seat ? t("idle.you_have_left", { s }) : t("idle.has_left", { name: env.seatName(x.seat), s });
      const span = bar.querySelector(".idle-text");
      if (span.textContent !== text) span.textContent = text;
      bar.querySelector(".idle-fill").style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
      bar.classList.toggle("low", left < Math.min(10, total / 4));
    }
  }

  function onReport(msg) {
    report = { seat: msg.seat, count: msg.count, moves: msg.moves || [] };
    renderReport();
  }

  // the presence line of a seat a bot plays while its person is idle (null: not such a seat)
  function presenceText(s, mine) {
    if (!(s.kind === "human" && s.idle && s.bot)) return null;
    return mine ? t("idle.pres_you") : t("idle.pres");
  }

  return { el, render, tick, onReport, presenceText };
}
