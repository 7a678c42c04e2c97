// Shooting Star: the sector grid, your hand with each card's hit pattern, the arrow, missions,
// and the resolution animated step by step from the events.
import { h, clear } from "../dom.js";
import { t, has } from "../i18n.js";
import { seatName } from "../names.js";
import { setEventParams } from "../events.js";

const ARROWS = ["N", "E", "S", "W"];
const ARROW_GLYPH = { N: "↑", E: "→", S: "↓", W: "←" };
const COLOURS = { red: "#e5484d", yellow: "#f5c518", green: "#30a46c", blue: "#3e8ef7", purple: "#a56de2", white: "#ddd" };
const STEP_MS = { place: 250, invader: 300, missions: 200, score: 250, game_end: 400 };
const DEFAULT_STEP = 650;

// SHS-5.3: a card-frame offset as a board offset for an arrow.
export function rotate([dx, dy], arrow) {
  if (arrow === "N") return [dx, dy];
  if (arrow === "E") return [-dy, dx];
  if (arrow === "S") return [-dx, -dy];
  return [dy, -dx];
}

function parseLegal(legal) {
  // "place P6 1,0 N" -> {P6: {"1,0": Set(N)}}; other actions are kept apart.
  const place = {};
  const other = [];
  for (const a of legal) {
    const m = a.match(/^place (\S+) (-?\d+),(-?\d+) ([NESW])$/);
    if (!m) { other.push(a); continue; }
    const [, card, x, y, arrow] = m;
    ((place[card] ||= {})[`${x},${y}`] ||= new Set()).add(arrow);
  }
  return { place, other };
}

function colourOf(view, seat) {
  const f = view.factions && view.factions[seat];
  return COLOURS[f && f.colour] || "#888";
}

function kindOf(cardId) { return String(cardId).split(":").pop(); }

// touch screens have no keys: their hints say what to tap instead
const TOUCH = typeof window !== "undefined" && !!window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
function hint(key, params) { return TOUCH && has(`${key}.touch`) ? t(`${key}.touch`, params) : t(key, params); }

// "column B, row 2": columns are letters, rows numbers, both shown around the grid
export function cellName(view, cell) {
  const [x0, y0] = view && view.grid ? view.grid.bounds : [0, 0];
  return t("ss.cell", { col: String.fromCharCode(65 + cell[0] - x0), row: cell[1] - y0 + 1 });
}

// a card with its article ("a"/"the"), which Spanish makes agree with the card's noun
function cardWith(view, kind, article) {
  const info = ((view && view.card_set) || []).find((c) => c.id === kind);
  if (info && info.shield) return t(`ss.card_${article}.shield`);
  return info ? t(`ss.card_${article}.prio`, { p: info.priority }) : t("ss.a_card");
}

function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function cardFace(view, kind) {
  const info = ((view && view.card_set) || []).find((c) => c.id === kind);
  if (!info || info.shield) return kind === "SH" || (info && info.shield) ? t("ss.shield") : t("ss.a_card");
  return t("ss.priority_card", { p: info.priority });
}

// a data file's text in the page language; without a translation, its English, saying so
function dataText(words) {
  const lang = document.documentElement.lang || "en";
  if (!words || !words.en) return null;
  if (words[lang]) return words[lang];
  return `${words.en} ${t("untranslated")}`;
}

export function missionTitle(m) {
  return dataText(m.name) || t(m.points === 1 ? "ss.mission_value_one" : "ss.mission_value", { n: m.points });
}

export function missionText(m) {
  const text = dataText(m.text);
  if (text) return text;
  if (m.named && m.named.length) return t("ss.mission_named", { a: m.named[0], b: m.named[1] || "" });
  const parts = Object.entries(m.need || {}).map(([k, n]) => t(`ss.need.${k}`, { n }));
  return t("ss.mission_need", { list: parts.join(", ") });
}

function missionsOf(view) {
  const all = new Map();
  for (const list of (view && view.missions) || []) for (const m of list || []) all.set(m.id, m);
  return all;
}

export function scoreSentence(view, b) {
  const ms = missionsOf(view);
  const missions = Object.entries(b.missions || {}).map(([id, p]) =>
    t("ss.mission_points", { name: ms.has(id) ? missionTitle(ms.get(id)) : t("ss.a_mission"), n: p }));
  return t(b.total === 1 ? "ss.score_sentence_one" : "ss.score_sentence", { total: b.total, cards: b.cards, moons: b.moons, bonus: b.debris_bonus,
    missions: missions.join(", ") || t("none") });
}

// a stored action in words (the replay's step list): "place P6 4,0 S"
export function describeAction(action, view) {
  const m = String(action).match(/^place (\S+) (-?\d+),(-?\d+) ([NESW])$/);
  if (!m) return null;
  return t("ss.action_place", { card: cardWith(view, m[1], "a"), cell: cellName(view, [Number(m[2]), Number(m[3])]),
    arrow: t(`ss.arrow.${m[4]}`) });
}

setEventParams("shooting-star", (ev, view) => {
  const out = {};
  if (Array.isArray(ev.cell)) out.cell = cellName(view, ev.cell);
  if (typeof ev.card === "string") {
    out.card = cardFace(view, kindOf(ev.card));
    out.card_a = cardWith(view, kindOf(ev.card), "a");
    out.card_the = cardWith(view, kindOf(ev.card), "the");
    out.Card_the = cap(out.card_the);
  }
  if (ev.orientation) out.orientation = t(`ss.arrow.${ev.orientation}`);
  if (Array.isArray(ev.ids)) {
    const ms = missionsOf(view);
    out.ids = ev.ids.map((id) => (ms.has(id) ? missionTitle(ms.get(id)) : t("ss.a_mission"))).join(", ");
  }
  if (ev.breakdown) out.breakdown = scoreSentence(view, ev.breakdown);
  if (ev.planet !== undefined) out.planet = "";
  return out;
});

export function createBoard(root, ctx) {
  let msg = null;        // the latest view message
  let shown = null;      // the view on screen (behind the latest during an animation)
  let grid = null;       // cells on screen: "x,y" -> cell
  let sel = { card: null, arrow: "N", hover: null };
  let animating = false;
  let resolving = false; // the animated batch resolves the turn (not only placements while others still place)
  let skip = false;
  let queue = Promise.resolve();
  const flashes = new Map();  // "x,y" -> css class during an animation step

  const status = h("p.ss-status", { role: "status", "aria-live": "polite" });
  const caption = h("p.ss-caption", { "aria-live": "polite" });
  const skipBtn = h("button.ss-skip", { type: "button", hidden: true, onclick: () => { skip = true; } }, "");
  const SPEEDS = { normal: 1, fast: 0.25, off: 0 };
  let speed = localStorage.getItem("cosmodeck.anim") || "normal";
  const speedSel = h("select", { id: "ss-speed", onchange: (e) => { speed = e.target.value; localStorage.setItem("cosmodeck.anim", speed); } });
  let speedLang = null;
  const speedLabel = h("span");
  function renderSpeed() {
    if (speedLang === t("ss.anim")) return;
    speedLang = t("ss.anim");
    speedLabel.textContent = speedLang;
    clear(speedSel).append(...Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === speed }, t(`ss.anim.${k}`))));
  }
  const gridBox = h("div.ss-grid", { role: "grid" });
  const handBox = h("section.card.ss-hand", { "aria-labelledby": "ss-hand-h" });
  const arrowBox = h("div.ss-arrows", { role: "radiogroup" });
  const sideBox = h("div.ss-side");
  const otherBox = h("div.ss-other");
  const helpBox = h("details.card.ss-help", {});
  const legend = h("p.ss-legend");
  clear(root).append(h("div.ss", {},
    h("div.ss-main", {}, status, h("div.ss-anim", {}, caption, skipBtn,
      ctx.noAnimation ? null : h("label.ss-speed", {}, speedLabel, " ", speedSel)), gridBox,
      legend, handBox, otherBox),
    sideBox, helpBox));

  document.addEventListener("keydown", onKey);

  function onKey(e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    if (e.key === "Escape") {
      if (animating) skip = true;
      else if (sel.card) { sel.card = null; render(); }
      return;
    }
    if ((e.key === "r" || e.key === "R") && !e.ctrlKey && !e.metaKey) {
      rotateArrow(e.key === "R" ? -1 : 1);
      e.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(e.key) && shown && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const cards = myCards();
      const c = cards[Number(e.key) - 1];
      if (c) { selectCard(c); e.preventDefault(); }
      return;
    }
    if (e.target && e.target.classList && e.target.classList.contains("ss-cell")) {
      const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
      if (d) {
        const x = Number(e.target.dataset.x) + d[0];
        const y = Number(e.target.dataset.y) + d[1];
        const next = gridBox.querySelector(`[data-x="${x}"][data-y="${y}"]`);
        if (next) { next.focus(); e.preventDefault(); }
      }
    }
  }

  function allowedArrows() { return (shown && shown.orientations) || ARROWS; }

  function rotateArrow(step) {
    const arr = allowedArrows();
    const i = arr.indexOf(sel.arrow);
    sel.arrow = arr[(i + step + arr.length) % arr.length];
    render();
  }

  function myCards() {
    if (!shown || ctx.seat === null || ctx.seat === undefined) return [];
    const hand = shown.hands && shown.hands[ctx.seat];
    return (hand && hand.cards) || [];
  }

  function selectCard(c) {
    sel.card = sel.card === c ? null : c;
    if (!allowedArrows().includes(sel.arrow)) sel.arrow = allowedArrows()[0];
    render();
    if (sel.card) {
      const first = gridBox.querySelector(".ss-cell.legal");
      if (first) first.focus();
    }
  }

  function cardInfo(kind) {
    return (shown.card_set || []).find((c) => c.id === kind) || { id: kind, priority: null, shield: false, hits: [] };
  }

  function targetsOf(kind, x, y, arrow) {
    const info = cardInfo(kind);
    const out = [[x, y, "origin"]];
    for (const off of info.hits) {
      const [dx, dy] = rotate(off, arrow);
      out.push([x + dx, y + dy, "hit"]);
    }
    return out;
  }

  // ---- rendering ---------------------------------------------------------------------
  let captionEv = null;  // the event being shown: re-described when the language changes
  function render() {
    renderSpeed();
    caption.textContent = captionEv && ctx.describe ? ctx.describe(captionEv) : "";
    if (!shown) return;
    const v = shown;
    const legal = parseLegal(animating || ctx.readonly ? [] : (msg ? msg.legal : []));
    renderStatus(v, legal);
    renderGrid(v, legal);
    renderHand(v, legal);
    renderSide(v);
    renderOther(legal);
    renderHelp();
  }

  function renderStatus(v, legal) {
    const me = ctx.seat;
    let text;
    if (v.over && !animating) text = t("ss.status_over");
    else if (animating && resolving) text = t("ss.status_resolving");
    else if (animating) text = waitingText(msg && msg.view, me);
    else if (msg && msg.status === "waiting") text = t("ss.status_not_started");
    else if (v.phase === "sector") text = t("ss.status_sector");
    else if (Object.keys(legal.place).length) text = sel.card ? hint("ss.status_pick_cell", { card: cardName(sel.card) }) : t("ss.status_your_turn");
    else text = waitingText(v, me);
    status.textContent = v.over && !animating ? text
      : [t("ss.turn", { n: v.turn, max: v.max_turns }), t(v.planets_left === 1 ? "ss.planets_left_one" : "ss.planets_left", { n: v.planets_left }), text].filter(Boolean).join(" · ");
    status.classList.toggle("yours", !!Object.keys(legal.place).length && me !== null);
  }

  // who still has to place (a placement is animated before the others have placed theirs)
  function waitingText(v, me) {
    if (!v || ctx.readonly || !v.to_act || !v.to_act.length) return "";
    if (v.to_act.includes(me)) return t("ss.status_your_turn");
    return t("ss.status_waiting", { name: seatName(v, v.to_act[0]) });
  }

  function cardName(kind) { return cardFace(shown, kind); }

  function renderGrid(v, legal) {
    const [x0, y0, x1, y1] = v.grid.bounds;
    const cols = x1 - x0 + 1;
    gridBox.style.gridTemplateColumns = `1.3rem repeat(${cols}, minmax(2.6rem, 6.5rem))`;
    gridBox.setAttribute("aria-label", t("ss.sector"));
    clear(gridBox);
    // axis labels: columns A, B, C… on top, rows 1, 2, 3… on the left (cells are named that way)
    gridBox.append(h("span.ss-axis", { "aria-hidden": "true" }, ""));
    for (let x = x0; x <= x1; x++) gridBox.append(h("span.ss-axis.col", { "aria-hidden": "true" }, String.fromCharCode(65 + x - x0)));
    const cells = grid;
    const legalCells = sel.card && legal.place[sel.card] ? legal.place[sel.card] : {};
    currentLegalCells = legalCells;
    const preview = previewMap(legalCells);
    for (let y = y0; y <= y1; y++) {
      gridBox.append(h("span.ss-axis.row", { "aria-hidden": "true" }, String(y - y0 + 1)));
      for (let x = x0; x <= x1; x++) {
        const key = `${x},${y}`;
        const c = cells.get(key);
        gridBox.append(cellEl(v, c, x, y, key, legalCells, preview));
      }
    }
  }

  let currentLegalCells = {};
  function previewMap(legalCells) {
    const preview = new Map();
    if (sel.card && sel.hover && legalCells[sel.hover] && legalCells[sel.hover].has(sel.arrow)) {
      const [hx, hy] = sel.hover.split(",").map(Number);
      for (const [x, y, kind] of targetsOf(sel.card, hx, hy, sel.arrow)) {
        const k = `${x},${y}`;
        const prev = preview.get(k);
        preview.set(k, prev === "hit" || (prev === "origin" && kind === "hit") ? "hit2" : kind);
      }
    }
    return preview;
  }

  function applyPreview() {
    // only classes change: the cells stay the same elements (a click in progress keeps its target)
    const preview = previewMap(currentLegalCells);
    for (const el of gridBox.children) {
      el.classList.remove("pv-origin", "pv-hit", "pv-hit2");
      const kind = preview.get(el.dataset.cell);
      if (kind) el.classList.add(`pv-${kind}`);
    }
  }

  function planetLabel(c) {
    if (!c || !c.planet) return t("ss.empty_cell");
    if (c.kind === "dark") return t("ss.dark_planet");
    const name = c.name ? `${c.name} ` : "";
    return `${name}${t("ss.level", { n: c.level })}${c.moons ? " · " + t("ss.moon") : ""}`;
  }

  function cellEl(v, c, x, y, key, legalCells, preview) {
    const arrows = legalCells[key];
    const canPlace = !!(arrows && arrows.has(sel.arrow));
    const classes = ["ss-cell"];
    if (!c) classes.push("nocell");
    else if (!c.planet) classes.push("empty");
    else classes.push(`k${c.kind}`);
    if (canPlace) classes.push("legal");
    if (preview.has(key)) classes.push(`pv-${preview.get(key)}`);
    if (flashes.has(key)) classes.push(flashes.get(key));
    const parts = [];
    if (c && c.planet) {
      parts.push(h("span.lvl", {}, c.kind === "dark" ? "D" : String(c.level)));
      if (c.name) parts.push(h("span.pname", {}, c.name));
      else if (c.kind === "12") parts.push(h("span.pname.k12", {}, t("ss.planet12")));
      else if (c.kind === "dark") parts.push(h("span.pname.kdark", {}, t("ss.dark_short")));
      if (c.moons) parts.push(h("span.moon", { title: t("ss.moon") }, "☾"));
    }
    let cardLabel = "";
    if (c && c.card) {
      const col = colourOf(v, c.card.seat);
      const face = c.card.card ? kindOf(c.card.card) : "?";
      parts.push(h("span.ss-placed", { style: { background: col } },
        h("span.arrow", {}, ARROW_GLYPH[c.card.orientation] || ""), h("span.face", {}, faceShort(face)),
        h("span.order", {}, `#${c.card.order}`)));
      cardLabel = ` · ${t("ss.card_of", { name: seatName(v, c.card.seat), card: c.card.card ? cardName(face) : t("ss.face_down"), arrow: t(`ss.arrow.${c.card.orientation}`) })}`;
    }
    const label = `${cellName(v, [x, y])}: ${planetLabel(c)}${cardLabel}${canPlace ? " · " + t("ss.place_here") : ""}`;
    const el = h(`button.${classes.join(".")}`, {
      type: "button", role: "gridcell", "aria-label": label, title: label,
      dataset: { x: String(x), y: String(y), cell: key },
      "aria-disabled": canPlace ? "false" : "true",
      onclick: () => { if (canPlace) place(x, y); },
      onmouseenter: () => { if (sel.card) { sel.hover = key; applyPreview(); } },
      onfocus: () => { if (sel.card && sel.hover !== key) { sel.hover = key; applyPreview(); } },
    }, parts);
    return el;
  }

  function faceShort(kind) {
    if (kind === "?") return "?";
    const info = cardInfo(kind);
    return info.shield ? t("ss.shield_short") : String(info.priority);
  }

  function place(x, y) {
    const a = `place ${sel.card} ${x},${y} ${sel.arrow}`;
    sel = { card: null, arrow: sel.arrow, hover: null };
    ctx.act(a);
  }

  function patternEl(kind, arrow) {
    const info = cardInfo(kind);
    const counts = new Map();
    for (const off of info.hits) {
      const [dx, dy] = rotate(off, arrow);
      const k = `${dx},${dy}`;
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    const box = h("span.pattern", { "aria-hidden": "true" });
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const k = `${dx},${dy}`;
        const n = counts.get(k) || 0;
        const cls = dx === 0 && dy === 0 ? (n ? "o hit" : "o") : (n ? "hit" : "");
        box.append(h(`span.pc${cls ? "." + cls.split(" ").join(".") : ""}`, {}, n > 1 ? "×" + n : ""));
      }
    }
    return box;
  }

  function describeCard(kind) {
    const info = cardInfo(kind);
    if (info.shield) return t("ss.shield_help");
    if (info.hits.length === 2 && info.hits.every((o) => o[0] === 0 && o[1] === 0)) return t("ss.p7_help");
    return t(info.hits.length === 1 ? "ss.hits_one" : "ss.hits_n", { n: info.hits.length });
  }

  function renderHand(v, legal) {
    clear(handBox);
    const me = ctx.seat;
    if (me === null || me === undefined) {
      handBox.append(h("h2", { id: "ss-hand-h" }, t("ss.spectating")));
      return;
    }
    const cards = myCards();
    const canAct = Object.keys(legal.place).length > 0;
    handBox.append(h("h2", { id: "ss-hand-h" }, t("ss.your_hand"), " ",
      h("small", {}, canAct ? hint("ss.hand_help") : t(v.over ? "ss.hand_over" : "ss.hand_wait"))));
    const list = h("div.ss-cards", { role: "group", "aria-label": t("ss.your_hand") });
    cards.forEach((kind, i) => {
      const info = cardInfo(kind);
      const playable = canAct && !!legal.place[kind];
      list.append(h(`button.ss-card${sel.card === kind ? ".selected" : ""}`, {
        type: "button", "aria-pressed": String(sel.card === kind), disabled: !playable,
        dataset: { card: kind }, style: { borderColor: colourOf(v, me) },
        title: describeCard(kind),
        "aria-label": `${i + 1}: ${cardName(kind)}. ${describeCard(kind)}`,
        onclick: () => selectCard(kind),
      }, h(info.shield ? "span.prio.shield" : "span.prio", {}, info.shield ? t("ss.shield_short") : String(info.priority)), patternEl(kind, sel.arrow),
      h("span.key", {}, String(i + 1))));
    });
    handBox.append(list);
    if (ctx.readonly || v.over) return;
    clear(arrowBox);
    arrowBox.setAttribute("aria-label", t("ss.arrow_label"));
    for (const a of allowedArrows()) {
      arrowBox.append(h(`button.ss-arrow${sel.arrow === a ? ".selected" : ""}`, {
        type: "button", role: "radio", "aria-checked": String(sel.arrow === a), dataset: { arrow: a },
        title: t(`ss.arrow.${a}`), "aria-label": t(`ss.arrow.${a}`),
        onclick: () => { sel.arrow = a; render(); },
      }, ARROW_GLYPH[a]));
    }
    handBox.append(h("div.ss-arrow-row", {}, h("span", {}, t("ss.arrow_label") + ": "), arrowBox,
      h("small", {}, hint("ss.arrow_help"))));
    if (sel.card) handBox.append(h("p.ss-selected", {}, describeCard(sel.card), " ", t("ss.preview_help")));
  }

  function renderSide(v) {
    clear(sideBox);
    const players = h("section.card.ss-players", { "aria-labelledby": "ss-players-h" },
      h("h2", { id: "ss-players-h" }, t("ss.players")));
    for (let s = 0; s < v.players; s++) {
      const hand = v.hands[s] || {};
      const conq = v.conquest[s] || [];
      const deb = v.debris[s] || [];
      const score = v.scores && v.scores[s] ? v.scores[s] : (v.scores && v.scores[String(s)]);
      players.append(h(`div.ss-player${v.to_act && v.to_act.includes(s) ? ".active" : ""}`, { dataset: { seat: String(s) } },
        h("span.chip", { style: { background: colourOf(v, s) }, "aria-hidden": "true" }),
        h("strong", {}, seatName(v, s), s === ctx.seat ? ` (${t("you")})` : ""),
        v.invader === s ? h("span.invader", { title: t("ss.invader_help") }, ` ★ ${t("ss.invader")}`) : null,
        h("div.stats", {},
          `${t("ss.in_hand", { n: hand.count ?? 0 })} · ${t("ss.conquest", { n: conq.length })} · ${t("ss.debris", { n: deb.length })}`),
        hand.used && hand.used.length ? h("div.used", {}, t("ss.used", { list: hand.used.map((k) => (cardInfo(k).shield ? t("ss.shield") : String(cardInfo(k).priority))).join(", ") })) : null,
        score ? h("div.score", {}, t("ss.score_line", { total: score.total ?? "—" })) : null));
    }
    sideBox.append(players);
    const mine = ctx.seat !== null && ctx.seat !== undefined ? v.missions[ctx.seat] : null;
    const ms = h("section.card.ss-missions", { "aria-labelledby": "ss-missions-h" },
      h("h2", { id: "ss-missions-h" }, v.over || mine === null ? t("ss.all_missions") : t("ss.your_missions")));
    const lists = v.over ? v.missions.map((m, s) => [s, m]) : (mine ? [[ctx.seat, mine]] : []);
    if (!lists.length) ms.append(h("p.muted", {}, t("ss.missions_secret")));
    for (const [s, list] of lists) {
      if (!list) continue;
      if (v.over) ms.append(h("h3", {}, seatName(v, s)));
      ms.append(h("ul", {}, list.map((m) => h("li", {}, h("strong", {}, missionTitle(m)), " ",
        h("span.pts", {}, t(m.points === 1 ? "ss.points_one" : "ss.points", { n: m.points })), ": ", missionText(m)))));
    }
    sideBox.append(ms);
  }

  function renderOther(legal) {
    clear(otherBox);
    if (!legal.other.length) return;
    otherBox.append(h("section.card", {}, h("h2", {}, t("ss.other_actions")),
      h("div.actions", {}, legal.other.map((a) => h("button.action", { type: "button", "data-action": a, onclick: () => ctx.act(a) }, a)))));
  }

  let helpLang = null;
  function renderHelp() {
    // re-rendered when the language changes (it is static otherwise: an open box stays open)
    if (helpLang === t("ss.how_to_play")) return;
    helpLang = t("ss.how_to_play");
    clear(helpBox).append(h("summary", {}, t("ss.how_to_play")), ...t("ss.rules_short").split("\n").map((p) => h("p", {}, p)),
      h("p", {}, TOUCH ? t("ss.touch") : t("ss.keys")),
      h("p", {}, h("a", { href: "/rules/shooting-star" }, t("full_rules"))));
    legend.textContent = t("ss.legend");
  }

  // ---- animation ---------------------------------------------------------------------
  function gridFrom(v) {
    const m = new Map();
    for (const c of v.grid.cells) m.set(`${c.x},${c.y}`, { ...c, card: c.card ? { ...c.card } : null });
    return m;
  }

  function findCard(cardId) {
    for (const [k, c] of grid) if (c.card && c.card.card === cardId) return k;
    return null;
  }

  function applyEvent(ev) {
    const key = Array.isArray(ev.cell) ? `${ev.cell[0]},${ev.cell[1]}` : null;
    const c = key ? grid.get(key) : null;
    flashes.clear();
    switch (ev.type) {
      case "place":
        // SHS-5.1: its placement order; the cards on the sector before the reveal are this turn's
        if (c) c.card = { seat: ev.seat, orientation: ev.orientation, card: null,
          order: (c.card && c.card.order) || [...grid.values()].filter((x) => x.card).length + 1 };
        if (key) flashes.set(key, "fx-place");
        break;
      case "reveal":
        if (c && c.card) c.card.card = ev.card;
        if (key) flashes.set(key, "fx-reveal");
        break;
      case "resolve": {
        const k = findCard(ev.card);
        if (k) {
          flashes.set(k, "fx-resolve");
          const card = grid.get(k).card;
          const [x, y] = k.split(",").map(Number);
          for (const [tx, ty, kind] of targetsOf(kindOf(ev.card), x, y, card.orientation)) {
            if (kind === "hit" && !flashes.has(`${tx},${ty}`)) flashes.set(`${tx},${ty}`, "fx-target");
          }
        }
        break;
      }
      case "miss": if (key) flashes.set(key, "fx-miss"); break;
      case "shield": if (key) flashes.set(key, "fx-shield"); break;
      case "destroy": if (c) c.card = null; if (key) flashes.set(key, "fx-destroy"); break;
      case "flip": if (c) c.level = ev.to; if (key) flashes.set(key, "fx-hit"); break;
      case "capture": if (c) { c.planet = null; c.card = c.card && ev.cause === "isolation" ? null : c.card; } if (key) flashes.set(key, "fx-capture"); break;
      case "replace": if (c) { Object.assign(c, { planet: ev.planet, kind: "12", level: 2, name: null, moons: 0 }); } if (key) flashes.set(key, "fx-replace"); break;
      case "to_debris": { const k = findCard(ev.card); if (k) { grid.get(k).card = null; flashes.set(k, "fx-destroy"); } break; }
      default: break;
    }
  }

  function sleep(ms) {
    return new Promise((resolve) => {
      const start = performance.now();
      const tick = () => (skip || performance.now() - start >= ms ? resolve() : setTimeout(tick, 30));
      tick();
    });
  }

  async function animate(events) {
    if (!shown || !events.length || ctx.noAnimation || SPEEDS[speed] === 0) {
      if (ctx.log) for (const ev of events) ctx.log(ev);
      return;
    }
    animating = true;
    // the batch that completes the placements resolves the turn: only placements mean others still place
    resolving = events.some((ev) => ev.type !== "place");
    skip = false;
    skipBtn.hidden = false;
    skipBtn.textContent = hint("ss.skip");
    for (const ev of events) {
      if (ctx.log) ctx.log(ev);
      if (skip) continue;
      applyEvent(ev);
      captionEv = ev;
      render();
      await sleep((STEP_MS[ev.type] ?? DEFAULT_STEP) * (SPEEDS[speed] ?? 1));
    }
    flashes.clear();
    animating = false;
    resolving = false;
    skipBtn.hidden = true;
  }

  function show(m) {
    shown = m.view;
    grid = gridFrom(shown);
    if (sel.card && !myCards().includes(sel.card)) sel.card = null;
    render();
  }

  // the final score of each player, line by line (shown in the room's result box)
  function resultDetails(v) {
    if (!v || !v.scores) return null;
    const ms = missionsOf(v);
    const cols = v.scores.map((_, s) => s);
    const row = (label, cells) => h("tr", {}, h("th", { scope: "row" }, label), cells.map((c) => h("td", {}, c)));
    const missionRows = [];
    for (let k = 0; k < 3; k++) {
      missionRows.push(row(t("ss.mission_n", { n: k + 1 }), cols.map((s) => {
        const entry = Object.entries(v.scores[s].missions || {})[k];
        if (!entry) return "—";
        const m = ms.get(entry[0]);
        return h("span", { title: m ? missionText(m) : "" }, `${m ? missionTitle(m) : t("ss.a_mission")}: `,
          h("strong", {}, String(entry[1])));
      })));
    }
    return h("table.data.ss-breakdown", {},
      h("caption", {}, t("ss.breakdown")),
      h("thead", {}, h("tr", {}, h("th", {}, ""), cols.map((s) => h("th", { scope: "col" }, seatName(v, s))))),
      h("tbody", {},
        row(t("ss.bd.cards"), cols.map((s) => String(v.scores[s].cards))),
        row(t("ss.bd.moons"), cols.map((s) => String(v.scores[s].moons))),
        row(t("ss.bd.debris"), cols.map((s) => t(v.scores[s].debris === 1 ? "ss.bd.debris_cell_one" : "ss.bd.debris_cell", { n: v.scores[s].debris, bonus: v.scores[s].debris_bonus }))),
        ...missionRows,
        row(t("ss.bd.total"), cols.map((s) => h("strong", {}, String(v.scores[s].total)))),
        ...tieRows(v, cols, row)));
  }

  // SHS-14.6: equal top totals are decided by captured cards, then captured moons (else shared)
  function tieRows(v, cols, row) {
    const best = Math.max(...cols.map((s) => v.scores[s].total));
    if (cols.filter((s) => v.scores[s].total === best).length < 2) return [];
    return [
      row(t("ss.bd.tie_captured"), cols.map((s) => String(v.scores[s].captured ?? "—"))),
      row(t("ss.bd.tie_moons"), cols.map((s) => String(v.scores[s].moon_count ?? "—"))),
    ];
  }

  return {
    animates: true,
    resultDetails,
    relabel() { skipBtn.textContent = hint("ss.skip"); render(); },
    update(m) {
      msg = m;
      queue = queue.then(() => show(m));
      return queue;
    },
    events(events) {
      queue = queue.then(() => animate(events));
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      clear(root);
    },
  };
}
