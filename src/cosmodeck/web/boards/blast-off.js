// Blast Off!: your hand, the discard pile, the live countdown with slapping, missions,
// announce and catch buttons. Every control comes from the legal actions of the view.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { seatName } from "../names.js";

const COLOUR = { O: "#f08c2e", G: "#30a46c", P: "#a56de2", R: "#e5484d" };
const COLOUR_KEY = { O: "orange", G: "green", P: "purple", R: "red" };

// "R5" / "GBO" / "BO-G" / "W" / "W[R4]" / "CD" -> {colour, label}
export function cardFace(code) {
  if (code === null || code === undefined) return { colour: null, label: "?" };
  code = String(code);
  let m = code.match(/^W\[([OGPR])(\d+|BO)\]$/);
  if (m) return { colour: m[1], label: m[2], wild: true };
  if (code === "W") return { colour: null, label: "W", wild: true };
  if (code === "CD") return { colour: null, label: "CD", countdown: true };
  m = code.match(/^BO-([OGPR])$/);
  if (m) return { colour: m[1], label: "BO" };
  m = code.match(/^([OGPR])(\d+|BO)$/);
  if (m) return { colour: m[1], label: m[2] };
  return { colour: null, label: code };
}

function cardEl(code, attrs = {}, extra = null) {
  const f = cardFace(code);
  const cls = ["bo-card"];
  if (attrs.dim) { cls.push("dim"); attrs = { ...attrs, dim: undefined }; }
  if (f.wild) cls.push("wild");
  if (f.countdown) cls.push("countdown");
  const title = describeCard(code);
  return h(`${attrs.onclick ? "button" : "span"}.${cls.join(".")}`,
    { type: attrs.onclick ? "button" : undefined, style: { background: f.colour ? COLOUR[f.colour] : null }, title,
      "aria-label": attrs["aria-label"] || title, ...attrs },
    h("span.v", {}, f.label === "BO" ? "BO" : f.label), extra);
}

export function describeCard(code) {
  const f = cardFace(code);
  if (f.countdown) return t("bo.card.countdown");
  if (f.wild && !f.colour) return t("bo.card.wild");
  const colour = f.colour ? t(`bo.colour.${COLOUR_KEY[f.colour]}`) : "";
  const base = f.label === "BO" ? t("bo.card.blastoff", { colour }) : t("bo.card.number", { colour, n: f.label });
  return f.wild ? t("bo.card.wild_as", { face: base }) : base;
}

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
  const keys = new WeakMap();
  return (box, key, fn) => {
    if (keys.get(box) === key) return;
    keys.set(box, key);
    fn();
  };
}

export function createBoard(root, ctx) {
  const renderIf = memo();
  let msg = null;
  let wildOpen = false;
  const status = h("p.bo-status", { role: "status", "aria-live": "polite" });
  const countdownBox = h("section.card.bo-countdown", { hidden: true, "aria-live": "assertive" });
  const tableBox = h("section.card.bo-table");
  const handBox = h("section.card.bo-hand");
  const actBox = h("section.card.bo-acts");
  const missionBox = h("section.card.bo-missions");
  const playersBox = h("section.card.bo-players");
  const helpBox = h("details.card.bo-help", {}, h("summary", {}, t("bo.how_to_play")),
    ...t("bo.rules_short").split("\n").map((p) => h("p", {}, p)), h("p", {}, t("bo.keys")));
  clear(root).append(h("div.bo", {},
    h("div.bo-main", {}, status, countdownBox, tableBox, handBox, actBox),
    h("div.bo-side", {}, playersBox, missionBox), helpBox));

  function act(a) { wildOpen = false; ctx.act(a); }

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
    if (!msg) return;
    const v = msg.view;
    const cd = v.countdown;
    const bar = countdownBox.querySelector(".bar > span");
    if (cd && bar && typeof cd.next_call === "number") {
      const left = Math.max(0, cd.next_call - ctx.gameTime());
      const bl = countdownBox.querySelector(".left");
      if (bl) bl.textContent = t("bo.next_call", { s: left.toFixed(1) });
      bar.style.width = `${Math.min(100, (left / 1.5) * 100)}%`;
    }
    raf = requestAnimationFrame(tick);
  }

  function render() {
    const v = msg.view;
    const me = ctx.seat;
    const g = group(ctx.readonly ? [] : msg.legal);
    // status line
    let s;
    if (v.over) s = t("bo.status_over");
    else if (v.phase === "COUNTDOWN") s = g.slap.length ? t("bo.status_slap") : t("bo.status_countdown");
    else if (me !== null && me !== undefined && v.turn === me && (g.play.size || g.wild.length || g.simple.length)) s = t("bo.status_your_turn");
    else s = t("bo.status_waiting", { name: seatName(v, v.turn) });
    status.textContent = s;
    status.classList.toggle("yours", g.play.size + g.wild.length + g.slap.length > 0);
    // countdown
    const cd = v.countdown;
    countdownBox.hidden = !cd;
    if (cd) renderIf(countdownBox, JSON.stringify([cd.called, cd.slots, cd.skipped, cd.rocket, g.slap]), () => {
      clear(countdownBox).append(
        h("h2", {}, t("bo.countdown_title", { name: seatName(v, cd.rocket) })),
        h("div.bo-seq", {}, cd.sequence.map((x) => h(`span.step${cd.called === x ? ".called" : ""}${(cd.skipped || []).includes(x) ? ".skipped" : ""}`, {},
          x, cd.slots && x in cd.slots ? h("small.by", {}, ` ${seatName(v, Number(cd.slots[x]))}`) : null))),
        h("p.left", {}, ""), h("div.bar", {}, h("span")));
      if (g.slap.length) {
        countdownBox.append(h("div.bo-slaps", {}, g.slap.map((a, i) => {
          const [, card, value] = a.split(" ");
          return h("button.bo-slap", { type: "button", "data-action": a, onclick: () => act(a) },
            cardEl(card), " ", t("bo.slap_for", { v: value }), i === 0 ? h("small", {}, " (Space)") : null);
        })));
      }
    });
    // the table: discard pile and draw pile
    const top = v.top || {};
    clear(tableBox).append(h("h2", {}, t("bo.table")),
      h("div.bo-pile", {},
        h("div", {}, h("div.label", {}, t("bo.top")), cardEl(top.face && top.face !== "--" ? top.face : top.card)),
        h("div", {}, h("div.label", {}, t("bo.draw_pile")), h("span.bo-card.back", {}, String(v.draw_pile))),
        h("div.bo-discard", {}, h("div.label", {}, t("bo.discard")),
          (v.discard || []).slice(-6, -1).reverse().map((d) => cardEl(d.face && d.face !== "--" ? d.face : d.card)))),
      h("p.muted", {}, t("bo.direction", { dir: v.dir === 1 ? "→" : "←" })));
    // hand
    renderIf(handBox, JSON.stringify([v.hand, [...g.play], g.wild, wildOpen]), () => {
    clear(handBox);
    if (me === null || me === undefined) {
      handBox.append(h("h2", {}, t("bo.spectating")));
    } else {
      handBox.append(h("h2", {}, t("bo.your_hand", { n: (v.hand || []).length })));
      const hand = h("div.bo-cards", { role: "group", "aria-label": t("bo.your_hand", { n: (v.hand || []).length }) });
      for (const code of v.hand || []) {
        const a = g.play.get(code);
        if (code === "W" && g.wild.length) {
          hand.append(cardEl(code, { onclick: () => { wildOpen = !wildOpen; render(); }, "data-card": code, "aria-expanded": String(wildOpen) }));
        } else if (a) {
          hand.append(cardEl(code, { onclick: () => act(a), "data-card": code, "data-action": a }));
        } else {
          hand.append(cardEl(code, { "data-card": code, dim: true }));
        }
      }
      handBox.append(hand);
      if (wildOpen && g.wild.length) {
        handBox.append(h("div.bo-wild", { role: "group", "aria-label": t("bo.declare_wild") }, h("p", {}, t("bo.declare_wild")),
          g.wild.map((a) => cardEl(a.split(" ")[1], { onclick: () => act(a), "data-action": a }))));
      }
    }
    });
    // other controls
    renderIf(actBox, JSON.stringify([g.simple, g.declare, g.choose, g.say, g.catch, g.other]), () => {
    clear(actBox);
    const rows = [];
    if (g.simple.length) rows.push(h("div.row", {}, g.simple.map((a) => h("button.primary", { type: "button", "data-action": a, onclick: () => act(a) }, t(`bo.verb.${a}`)))));
    if (g.declare.length) rows.push(h("div.row", {}, h("span", {}, t("bo.declare")), g.declare.map((a) => cardEl(a.split(" ")[1], { onclick: () => act(a), "data-action": a }))));
    if (g.choose.length) rows.push(h("div.row", {}, h("span", {}, t("bo.choose")), g.choose.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, seatName(v, Number(a.split(" ")[1]))))));
    if (g.say.length) rows.push(h("div.row", {}, h("span", {}, t("bo.say")), g.say.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, sayText(a)))));
    if (g.catch.length) rows.push(h("div.row", {}, h("span", {}, t("bo.catch_help")), g.catch.map((a) => {
      const [, seat, mission] = a.split(" ");
      return h("button.bo-catch", { type: "button", "data-action": a, onclick: () => act(a) },
        mission ? t("bo.catch_for", { name: seatName(v, Number(seat)), m: missionName(v, mission) }) : t("bo.catch", { name: seatName(v, Number(seat)) }));
    })));
    if (g.other.length) rows.push(h("details", {}, h("summary", {}, t("bo.other_actions")), h("div.actions", {}, g.other.map((a) => h("button.action", { type: "button", "data-action": a, onclick: () => act(a) }, a)))));
    if (rows.length) actBox.append(h("h2", {}, t("your_actions")), ...rows);
    actBox.hidden = rows.length === 0;
    });
    // players
    clear(playersBox).append(h("h2", {}, t("bo.players")));
    for (let s2 = 0; s2 < v.players; s2++) {
      const place = (v.placings || []).indexOf(s2);
      playersBox.append(h(`div.bo-player${v.turn === s2 && v.phase !== "COUNTDOWN" ? ".active" : ""}`, {},
        h("strong", {}, seatName(v, s2), s2 === me ? ` (${t("you")})` : ""),
        " · ", t("bo.cards_n", { n: v.hand_sizes ? v.hand_sizes[s2] : "?" }),
        place >= 0 ? ` · ${t("bo.placed", { n: place + 1 })}` : "",
        v.turn === s2 && v.phase !== "COUNTDOWN" ? ` · ${t("bo.their_turn")}` : ""));
    }
    // missions
    clear(missionBox).append(h("h2", {}, t("bo.missions")));
    const ms = v.missions_in_force || [];
    if (!ms.length) missionBox.append(h("p.muted", {}, t("bo.no_missions")));
    for (const m of ms) missionBox.append(h("div.bo-mission", {}, h("strong", {}, `${m.id} · ${m.name}`), h("p", {}, m.text)));
    if ((v.obligations || []).length) missionBox.append(h("p.warn", {}, t("bo.obligations")), h("ul", {}, v.obligations.map((o) => h("li", {}, typeof o === "string" ? o : JSON.stringify(o)))));
    if (!raf) raf = requestAnimationFrame(tick);
  }

  function missionName(v, id) {
    const m = (v.missions_in_force || []).find((x) => x.id === id);
    return m ? m.name : id;
  }

  function sayText(a) {
    const [verb, token, arg] = a.split(" ");
    const word = token.charAt(0) + token.slice(1).toLowerCase();
    return verb === "gesture" ? t("bo.gesture", { what: word }) : `“${word}${arg ? " " + arg.toLowerCase() : ""}!”`;
  }

  return {
    update(m) { msg = m; render(); },
    events() {},
    destroy() { document.removeEventListener("keydown", onKey); cancelAnimationFrame(raf); clear(root); },
  };
}
