// Blast Off!: your hand, the discard pile, the live countdown with slapping, missions as cards,
// obligations with their deadline, announce and catch buttons, and a result that explains itself.
// Every control comes from the legal actions of the view. Card faces: blast-off-cards.js; missions
// and what one says: blast-off-missions.js; the log's sentences: blast-off-events.js.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { seatName } from "../names.js";
import { backEl, cardEl, describeCard, parseCard } from "./blast-off-cards.js";
import { missionCard, missionName, obligationText, sayButtonText } from "./blast-off-missions.js";
import { describeAction, leftWords, ordinal } from "./blast-off-events.js";

export { describeAction };

// the replay: a step whose first event is its actor's own move (played, drew, says, slaps, catches…) is
// told by it
export function stepToldBy(ev, seat) {
  const actor = typeof ev.seat === "number" ? ev.seat : ev.by;
  return typeof actor === "number" && actor === seat;
}

const TOUCH = !!window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

(function styles() {
  if (document.getElementById("bo-css")) return;
  document.head.append(h("link", { id: "bo-css", rel: "stylesheet", href: "/static/boards/blast-off.css" }));
})();

function hint(key) { return TOUCH ? "" : t(key); }

function group(legal) {
  const g = { play: new Map(), wild: [], slap: [], simple: [], declare: [], choose: [], say: [], catch: [], other: [] };
  for (const a of legal) {
    const [verb, ...rest] = a.split(" ");
    if (verb === "play") {
      const card = rest[0];
      if (card.startsWith("W[")) g.wild.push(a);
      else g.play.set(card, a);
    } else if (verb === "slap") g.slap.push(a);
    else if (["draw", "pass", "keep", "done"].includes(verb) && rest.length === 0) g.simple.push(a);
    else if (verb === "declare") g.declare.push(a);
    else if (verb === "choose") g.choose.push(a);
    else if (verb === "announce" || verb === "gesture") g.say.push(a);
    else if (verb === "catch") g.catch.push(a);
    else g.other.push(a);
  }
  return g;
}

// Re-render a panel only when what it shows has changed, so that buttons are not replaced under
// the pointer while other players act (a click needs the same element from press to release).
function memo() {
  let keys = new WeakMap();
  const fn = (box, key, draw) => {
    if (keys.get(box) === key) return;
    keys.set(box, key);
    draw();
  };
  fn.reset = () => { keys = new WeakMap(); };
  return fn;
}

// a Wild's declaration choices, grouped by colour: "play W[R4]" / "slap W[R4] BO" / "declare R4"
function wildGrid(actions, codeOf, act) {
  const rows = new Map();
  for (const a of actions) {
    const f = parseCard(codeOf(a).replace(/^W\[(.*)\]$/, "$1"));
    const key = f && f.colour ? f.colour : "-";
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(a);
  }
  return h("div.bo-wildgrid", {}, [...rows.values()].map((acts) => h("div.row", {},
    acts.map((a) => cardEl(codeOf(a), { small: true, onclick: () => act(a), attrs: { "data-action": a } })))));
}

export function createBoard(root, ctx) {
  const renderIf = memo();
  let msg = null;
  let wildOpen = false;
  const oblFull = new Map();  // a deadline (obligation, next countdown call) -> how long it had when first seen
  const statusText = h("span");
  const statusSecs = h("span.secs", { "aria-hidden": "true" });
  const status = h("p.bo-status", { role: "status", "aria-live": "polite" }, statusText, statusSecs);
  const oblBox = h("section.card.bo-obl", { hidden: true, "aria-live": "assertive" });
  const countdownBox = h("section.card.bo-countdown", { hidden: true, "aria-live": "assertive" });
  const tableBox = h("section.card.bo-table");
  const handBox = h("section.card.bo-hand");
  const actBox = h("section.card.bo-acts");
  const missionBox = h("section.card.bo-missions");
  const playersBox = h("section.card.bo-players");
  const zoomBox = h("section.card.bo-zoom", { hidden: true, "aria-live": "polite" });
  const helpBox = h("details.card.bo-help");
  clear(root).append(h("div.bo", {},
    h("div.bo-main", {}, status, oblBox, countdownBox, tableBox, handBox, actBox),
    h("div.bo-side", {}, playersBox, missionBox, zoomBox), helpBox));

  // hover, focus or a tap on any card shows it large with its full text
  function zoom(el) {
    const card = el && el.closest && el.closest(".bo-card, .bo-mission");
    if (!card || card.closest(".bo-zoom")) return;
    const big = card.cloneNode(true);
    big.removeAttribute("tabindex");
    big.classList.remove("dim", "small");
    big.classList.add("big");
    if (big.tagName === "BUTTON") big.disabled = true;
    clear(zoomBox).append(h("h2", {}, t("bo.zoom")), big, h("p", {}, card.getAttribute("title") || ""));
    zoomBox.hidden = false;
  }
  root.addEventListener("mouseover", (e) => zoom(e.target));
  root.addEventListener("focusin", (e) => zoom(e.target));
  root.addEventListener("click", (e) => { if (!e.target.closest("button")) zoom(e.target); });

  // a countdown's "pass" says "nothing for the number called now", a slap is for that number: resent for
  // a newer view of the same call (another player's move), never for a later number or after the count
  function act(a) {
    wildOpen = false;
    const called = msg && msg.view.phase === "COUNTDOWN" ? (msg.view.countdown || {}).called : undefined;
    const same = (m) => Boolean(m && m.view && m.view.phase === "COUNTDOWN"
      && (m.view.countdown || {}).called === called);
    const forTheCall = called !== undefined && (a === "pass" || a.startsWith("slap "));
    ctx.act(a, { resend: forTheCall ? same : true });
  }

  function onKey(e) {
    if (!msg || ctx.readonly) return;
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    const g = group(msg.legal);
    if (e.key === " " && g.slap.length) { act(g.slap[0]); e.preventDefault(); }
    else if ((e.key === "d" || e.key === "D") && g.simple.includes("draw")) { act("draw"); e.preventDefault(); }
  }
  document.addEventListener("keydown", onKey);

  let raf = 0;
  function tick() {
    raf = 0;
    if (!msg) return;
    const v = msg.view;
    const now = ctx.gameTime();
    const cd = v.countdown;
    const bar = countdownBox.querySelector(".bar > span");
    if (cd && bar && typeof cd.next_call === "number") {
      const left = Math.max(0, cd.next_call - now);
      const bl = countdownBox.querySelector(".left");
      if (bl) bl.textContent = t("bo.next_call", { s: left.toFixed(1) });
      if (!oblFull.has(cd.next_call)) oblFull.set(cd.next_call, Math.max(left, 0.2));
      bar.style.width = `${Math.min(100, (left / oblFull.get(cd.next_call)) * 100)}%`;
    }
    const dec = v.over ? null : v.decision;
    statusSecs.textContent = dec && typeof dec.deadline === "number" ? ` ${t("bo.seconds", { s: Math.max(0, dec.deadline - now).toFixed(1) })}` : "";
    for (const li of oblBox.querySelectorAll("[data-deadline]")) {
      const d = Number(li.dataset.deadline);
      const left = Math.max(0, d - now);
      if (!oblFull.has(d)) oblFull.set(d, Math.max(left, 0.5));
      li.querySelector(".secs").textContent = t("bo.seconds", { s: left.toFixed(1) });
      li.querySelector(".bar > span").style.width = `${Math.min(100, (left / oblFull.get(d)) * 100)}%`;
    }
    if (!ctx.readonly) raf = requestAnimationFrame(tick);
  }

  function renderStatus(v, g, me) {
    let s;
    if (v.over) s = t("bo.status_over");
    else if (v.phase === "COUNTDOWN") s = g.slap.length ? t("bo.status_slap") + hint("bo.key_space") : t("bo.status_countdown");
    else if (g.declare.length) s = t("bo.status_declare");
    else if (g.choose.length) s = t("bo.status_choose");
    else if (me !== null && me !== undefined && v.turn === me && (g.play.size || g.wild.length || g.simple.length)) s = t("bo.status_your_turn");
    else if (v.decision && v.decision.kind) s = t(`bo.status_decision.${v.decision.kind}`, { name: seatName(v, v.decision.seat) });
    else s = t("bo.status_waiting", { name: seatName(v, v.turn) });
    statusText.textContent = s;
    status.classList.toggle("yours", g.play.size + g.wild.length + g.slap.length + g.declare.length + g.choose.length > 0);
  }

  function renderObligations(v, g) {
    const obls = v.over ? [] : v.obligations || [];
    oblBox.hidden = obls.length === 0;
    renderIf(oblBox, JSON.stringify([obls, g.say]), () => {
      clear(oblBox);
      if (!obls.length) return;
      oblBox.append(h("h2", {}, t("bo.obl_title")),
        h("ul.bo-obls", {}, obls.map((o) => h("li", o.deadline !== null && o.deadline !== undefined ? { dataset: { deadline: String(o.deadline) } } : {},
          h("strong", {}, obligationText(o)), " ", h("small.muted", {}, t("bo.obl_for", { name: missionName(v, o.mission) })),
          o.deadline !== null && o.deadline !== undefined ? [" ", h("span.secs", {}, ""), h("div.bar", {}, h("span"))] : h("span.muted", {}, ` ${t("bo.obl_step")}`)))),
        g.say.length ? h("div.row.bo-say", {}, g.say.map((a) => h("button.primary", { type: "button", "data-action": a, onclick: () => act(a) }, sayButtonText(a)))) : null);
    });
  }

  function renderCountdown(v, g) {
    const cd = v.over ? null : v.countdown;
    countdownBox.hidden = !cd;
    if (!cd) return;
    renderIf(countdownBox, JSON.stringify([cd.called, cd.slots, cd.skipped, cd.rocket, g.slap]), () => {
      const word = (x) => (x === "BO" ? t("bo.word") : x);
      clear(countdownBox).append(
        h("h2", {}, t("bo.countdown_title", { name: seatName(v, cd.rocket) })),
        h("div.bo-seq", {}, cd.sequence.map((x) => h(`span.step${cd.called === x ? ".called" : ""}${(cd.skipped || []).includes(x) ? ".skipped" : ""}`, {},
          word(x), cd.slots && x in cd.slots ? h("small.by", {}, ` ${seatName(v, Number(cd.slots[x]))}`) : null))),
        h("p.left", {}, ""), h("div.bar", {}, h("span")));
      const plain = g.slap.filter((a) => !a.split(" ")[1].startsWith("W["));
      const wild = g.slap.filter((a) => a.split(" ")[1].startsWith("W["));
      if (plain.length) {
        countdownBox.append(h("div.bo-slaps", {}, plain.map((a, i) => {
          const [, card, value] = a.split(" ");
          return h("button.bo-slap", { type: "button", "data-action": a, onclick: () => act(a) },
            cardEl(card, { small: true, zoom: false }), " ", t("bo.slap_for", { v: word(value) }), i === 0 ? h("small", {}, hint("bo.key_space")) : null);
        })));
      }
      if (wild.length) countdownBox.append(h("p", {}, t("bo.slap_wild")), wildGrid(wild, (a) => a.split(" ")[1], act));
    });
  }

  function renderTable(v) {
    const top = v.top || {};
    renderIf(tableBox, JSON.stringify([top, v.draw_pile, (v.discard || []).slice(-6), v.dir]), () => {
      clear(tableBox).append(h("h2", {}, t("bo.table")),
        h("div.bo-pile", {},
          h("div", {}, h("div.label", {}, t("bo.top")), cardEl(top.card, { face: top.face, attrs: { "data-top": "1" } }),
            h("div.small.muted", {}, t("bo.top_face", { face: topFaceWords(top) }))),
          h("div", {}, h("div.label", {}, t("bo.draw_pile")), backEl(v.draw_pile, t("bo.draw_pile_n", { count: cardsText(v.draw_pile) }))),
          h("div.bo-discard", {}, h("div.label", {}, t("bo.discard")),
            (v.discard || []).slice(-6, -1).reverse().map((d) => cardEl(d.card, { face: d.face, small: true })))),
        h("p.muted", {}, v.dir === 1 ? t("bo.direction_left") : t("bo.direction_right")));
    });
  }

  function topFaceWords(top) {
    const c = parseCard(top.card);
    if (c && c.kind === "countdown") return t("bo.face.free");
    return describeCard(top.face && top.face !== "--" ? top.face : top.card);
  }

  function renderHand(v, g, me) {
    renderIf(handBox, JSON.stringify([v.hand, [...g.play], g.wild, wildOpen, v.drawn]), () => {
      clear(handBox);
      if (me === null || me === undefined) { handBox.append(h("h2", {}, t("bo.spectating"))); return; }
      const n = (v.hand || []).length;
      handBox.append(h("h2", {}, t("bo.your_hand", { count: cardsText(n) })));
      const hand = h("div.bo-cards", { role: "group", "aria-label": t("bo.your_hand", { count: cardsText(n) }) });
      for (const code of v.hand || []) {
        const a = g.play.get(code);
        if (code === "W" && g.wild.length) {
          hand.append(cardEl(code, { onclick: () => { wildOpen = !wildOpen; render(); }, attrs: { "data-card": code, "aria-expanded": String(wildOpen) } }));
        } else if (a) {
          hand.append(cardEl(code, { onclick: () => act(a), attrs: { "data-card": code, "data-action": a }, label: t("bo.play_card", { card: describeCard(code) }) }));
        } else {
          hand.append(cardEl(code, { dim: g.play.size + g.wild.length > 0, attrs: { "data-card": code } }));
        }
      }
      handBox.append(hand);
      if (v.drawn) handBox.append(h("p", {}, t("bo.you_drew", { card: describeCard(v.drawn) })));
      if (wildOpen && g.wild.length) {
        handBox.append(h("div.bo-wild", { role: "group", "aria-label": t("bo.declare_wild") }, h("p", {}, t("bo.declare_wild")),
          wildGrid(g.wild, (a) => a.split(" ")[1], act)));
      }
    });
  }

  function renderActions(v, g) {
    renderIf(actBox, JSON.stringify([g.simple, g.declare, g.choose, g.catch, g.other, (v.missions_in_force || []).length]), () => {
      clear(actBox);
      const rows = [];
      if (g.simple.length) rows.push(h("div.row", {}, g.simple.map((a) => h("button.primary", { type: "button", "data-action": a, onclick: () => act(a) }, t(`bo.verb.${a}`), a === "draw" ? h("small", {}, hint("bo.key_d")) : null))));
      if (g.declare.length) rows.push(h("div", {}, h("p", {}, t("bo.declare")), wildGrid(g.declare, (a) => a.split(" ")[1], act)));
      if (g.choose.length) rows.push(h("div.row", {}, h("span", {}, t("bo.choose")), g.choose.map((a) => h("button.primary", { type: "button", "data-action": a, onclick: () => act(a) }, seatName(v, Number(a.split(" ")[1]))))));
      // what a mission asks one to say or do is offered with the open obligation (above): saying it
      // unowed has no effect, so the buttons are not shown otherwise
      const several = (v.missions_in_force || []).length > 1;
      const catches = g.catch.filter((a) => several || a.split(" ").length === 2);
      if (catches.length) rows.push(h("div.row", {}, h("span", {}, t("bo.catch_help")), catches.map((a) => {
        const [, seat, mission] = a.split(" ");
        return h("button.bo-catch", { type: "button", "data-action": a, onclick: () => act(a) },
          mission ? t("bo.catch_for", { name: seatName(v, Number(seat)), m: missionName(v, mission) }) : t("bo.catch", { name: seatName(v, Number(seat)) }));
      })));
      if (g.other.length) rows.push(h("div.row", {}, g.other.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, describeAction(a, v)))));
      if (rows.length) actBox.append(h("h2", {}, t("your_actions")), ...rows);
      actBox.hidden = rows.length === 0;
    });
  }

  function renderPlayers(v, me) {
    const rows = [];
    for (let s = 0; s < v.players; s++) {
      const place = (v.placings || []).indexOf(s);
      const turn = v.turn === s && v.phase !== "COUNTDOWN" && !v.over;
      rows.push(h(`div.bo-player${turn ? ".active" : ""}`, {},
        h("strong", {}, seatName(v, s), s === me ? ` (${t("you")})` : ""),
        " · ", v.hand_sizes ? cardsText(v.hand_sizes[s]) : "",
        place >= 0 ? ` · ${t("bo.placed", { place: ordinal(place + 1) })}` : "",
        !v.over && (v.skip_marks || [])[s] > 0 ? ` · ${t("bo.skips")}` : "",
        turn ? ` · ${t("bo.their_turn")}` : ""));
    }
    clear(playersBox).append(h("h2", {}, t("bo.players")), ...rows,
      h("p.muted.small", {}, t("bo.mission_deck", { count: cardsText(v.mission_deck ?? 0) })));
  }

  function renderMissions(v) {
    const ms = v.missions_in_force || [];
    renderIf(missionBox, JSON.stringify(ms), () => {
      clear(missionBox).append(h("h2", {}, t("bo.missions")));
      if (!ms.length) missionBox.append(h("p.muted", {}, t("bo.no_missions")));
      for (const m of ms) missionBox.append(missionCard(m));
    });
  }

  function renderHelp() {
    renderIf(helpBox, "help", () => {
      clear(helpBox).append(h("summary", {}, t("bo.how_to_play")),
        ...t("bo.rules_short").split("\n").map((p) => h("p", {}, p)), TOUCH ? null : h("p", {}, t("bo.keys")));
    });
  }

  function render() {
    if (!msg) return;
    const v = msg.view;
    const me = ctx.seat;
    const g = group(ctx.readonly ? [] : msg.legal || []);
    renderStatus(v, g, me);
    renderObligations(v, g);
    renderCountdown(v, g);
    renderTable(v);
    renderHand(v, g, me);
    renderActions(v, g);
    renderPlayers(v, me);
    renderMissions(v);
    renderHelp();
    if (!raf) raf = requestAnimationFrame(tick);
    if (ctx.readonly) tick();
  }

  // the result: each player's place and the cards they were left with
  function resultDetails(v) {
    const r = v.result || {};
    const sizes = (r.details && r.details.hand_sizes) || v.hand_sizes || [];
    const ranking = r.ranking || [];
    const rows = [];
    let place = 1;
    for (const tier of ranking) {
      for (const s of [...tier].sort((a, b) => (sizes[a] ?? 0) - (sizes[b] ?? 0))) {
        const n = sizes[s] ?? 0;
        rows.push(h("tr", {}, h("td", {}, ordinal(place)), h("th", { scope: "row" }, seatName(v, s)),
          h("td", {}, n === 0 ? t("bo.res_out") : leftWords(n))));
      }
      place += tier.length;
    }
    const shared = ranking.some((tier) => tier.length > 1);
    const why = r.reason === "stalemate" ? t("bo.res_stalemate") : t(shared ? "bo.res_out_shared" : "bo.res_out_reason");
    return h("div.bo-result", {}, h("p", {}, why),
      h("table.bo-places", {}, h("thead", {}, h("tr", {}, h("th", {}, t("bo.res_place")), h("th", {}, t("bo.res_player")), h("th", {}, t("bo.res_cards")))),
        h("tbody", {}, rows)));
  }

  return {
    update(m) { msg = m; render(); },
    events() {},
    ownsTimer: true,
    resultDetails,
    relabel() { renderIf.reset(); clear(zoomBox); zoomBox.hidden = true; render(); },
    destroy() { document.removeEventListener("keydown", onKey); cancelAnimationFrame(raf); clear(root); },
  };
}

function cardsText(n) { return Number(n) === 1 ? t("bo.n_cards_one") : t("bo.n_cards", { n }); }

