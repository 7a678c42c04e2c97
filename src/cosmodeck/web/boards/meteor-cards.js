// Meteor card faces drawn from the room's catalogue (catalogue.js, fetched once per room; the
// `view` arguments are kept for the callers): energy in its colour with
// its name and letter, rockets with their cost as energy pips and their damage, technologies with
// name and effect, meteors with their back, size and trait, Powers and Challenges with their text.
// Names and texts come from the data file in the page language, or its English, saying so.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { getCatalogue, catalogueText } from "../catalogue.js";

// the four colours of the data file, as backgrounds for dark text (contrast above 7:1, WCAG AA)
const COLOURS = { red: "#ff7b72", yellow: "#f5c518", green: "#4cc38a", blue: "#79b0ff" };
// a second cue beside colour: each energy has its own pip shape
const SHAPES = ["round", "diamond", "square", "hex"];

const NONE = { energy: [], cards: {}, texts: {}, powers: {}, challenges: {} };
let seen = null;
let full = NONE;
export function catalogue() {
  const c = getCatalogue();
  if (c !== seen) { seen = c; full = { ...NONE, ...c }; }
  return full;
}

// a data text in the page language; without a translation, the other language's and a note saying so
export function dataText(view, key, fallback = "") { return catalogueText(key, fallback); }

export function baseId(id) { return String(id).split("#")[0]; }

export function face(view, id) { return catalogue(view).cards[baseId(id)] || null; }

export function energyByCode(view, code) {
  const list = catalogue(view).energy;
  const i = list.findIndex((e) => e.code === code);
  return i < 0 ? null : { ...list[i], index: i };
}

export function energyName(view, code) {
  const e = energyByCode(view, code);
  return e ? dataText(view, `energy.${e.key}`, e.key) : code;
}

// the letter on a pip: the first letter of the energy's name in the page language
function pipLetter(view, code) { return energyName(view, code).slice(0, 1).toUpperCase(); }

export function pip(view, code) {
  const e = energyByCode(view, code);
  const shape = e ? SHAPES[e.index % SHAPES.length] : "round";
  const colour = e ? (COLOURS[e.colour] || e.colour) : "#aaa";
  return h(`span.met-pip.${shape}`, { style: { background: colour }, "aria-hidden": "true" }, pipLetter(view, code));
}

export function costText(view, cost) {
  return String(cost || "").split("").map((c) => energyName(view, c)).join(" + ");
}

export function pips(view, cost) {
  return h("span.met-pips", { "aria-label": costText(view, cost) }, String(cost || "").split("").map((c) => pip(view, c)));
}

export function techName(view, id) { return dataText(view, `tech.${baseId(id)}`, t("met.a_technology")); }

// a short name of a card, for sentences: "Fuel", "a rocket of damage 3", "Tracking Station"
export function cardName(view, id) {
  const f = face(view, id);
  if (!f) return t("met.a_card");
  if (f.kind === "energy") return t("met.energy_named", { name: dataText(view, `energy.${f.key}`, f.key) });
  if (f.kind === "rocket") return t("met.rocket_named", { n: f.damage, cost: costText(view, f.cost) });
  return techName(view, id);
}

// everything printed on the card, for the hover/tap view
export function cardFull(view, id) {
  const f = face(view, id);
  if (!f) return t("met.a_card");
  if (f.kind === "energy") return t("met.energy_full", { name: energyName(view, energyCode(view, f.key)) });
  if (f.kind === "rocket") return t("met.rocket_full", { n: f.damage, cost: costText(view, f.cost) });
  return t("met.tech_full", { name: techName(view, id), cost: costText(view, f.cost), text: dataText(view, `tech.${baseId(id)}.text`) });
}

function energyCode(view, key) {
  const e = catalogue(view).energy.find((x) => x.key === key);
  return e ? e.code : "";
}

// the inner face of a Resource card (inside a button or a span)
export function cardBody(view, id) {
  const f = face(view, id);
  if (!f) return [h("span.met-face-name", {}, t("met.a_card"))];
  if (f.kind === "energy") {
    const code = energyCode(view, f.key);
    return [pip(view, code), h("span.met-face-name", {}, energyName(view, code))];
  }
  if (f.kind === "rocket") {
    return [h("span.met-face-kind", {}, t("met.rocket")), h("span.met-dmg", { title: t("met.damage_help") }, `✹ ${f.damage}`), pips(view, f.cost)];
  }
  return [h("span.met-face-kind", {}, t("met.technology")), h("span.met-face-name", {}, techName(view, id)), pips(view, f.cost)];
}

// the CSS class and inline colour of a card: energy takes its own colour
export function cardClass(view, id) {
  const f = face(view, id);
  if (!f) return "other";
  if (f.kind === "energy") {
    const e = catalogue(view).energy.find((x) => x.key === f.key);
    return `energy.e-${e ? SHAPES[catalogue(view).energy.indexOf(e) % SHAPES.length] : "round"}`;
  }
  return f.kind;
}

export function cardStyle(view, id) {
  const f = face(view, id);
  if (!f || f.kind !== "energy") return null;
  const e = catalogue(view).energy.find((x) => x.key === f.key);
  return e ? { background: COLOURS[e.colour] || e.colour } : null;
}

// a card as a read-only face (on a site, in a teammate's hand)
export function cardSpan(view, id, extra = "") {
  return h(`span.met-card.${cardClass(view, id)}${extra}`, { title: cardFull(view, id), style: cardStyle(view, id) }, cardBody(view, id));
}

// meteors: "meteor 3" from its field handle m3 (never the card id)
export function meteorName(ref) {
  const n = String(ref || "").replace(/^m/, "");
  return t("met.meteor_n", { n });
}

export function traitName(view, trait) { return trait ? dataText(view, `trait.${trait}`, t("met.a_trait")) : ""; }
export function traitText(view, trait) { return trait ? dataText(view, `trait.${trait}.text`) : ""; }

export function bossName(view, m) { return m && m.id ? dataText(view, `boss.${m.id}`, m.name || "") : ""; }

export function backText(m) { return Array.isArray(m.back) ? `${m.back[0]}–${m.back[1]}` : "?"; }

// the sizes a meteor may have: its exact size once known, else its back's range
export function sizeRange(m) {
  if (m.face_up && typeof m.size === "number") return [m.size, m.size];
  return Array.isArray(m.back) ? [m.back[0], m.back[1]] : [1, 99];
}

export function zoneName(view, zone) { return dataText(view, `zone.${zone}`, (view && view.zone === zone && view.zone_name) || ""); }

export function siteName(view, site) {
  const s = String(site || "");
  const m = s.match(/^s(\d+)(?:\.(\d+))?$/);
  if (!m) return s;
  const info = ((view && view.sites) || []).find((x) => x.site === s) || ((view && view.sites) || []).find((x) => x.seat === Number(m[1]));
  const name = dataText(view, `site.${m[1]}`, info ? info.name : t("player_n", { n: Number(m[1]) + 1 }));
  return m[2] ? t("met.site_pad", { name, n: Number(m[2]) + 1 }) : name;
}

export function specialName(view, kind, id) { return dataText(view, `${kind}.${id}`, t(`met.a_${kind}`)); }
export function specialText(view, kind, id) { return dataText(view, `${kind}.${id}.text`); }

// the id of a Power or Challenge from its key ("backwards" -> "C04")
export function specialId(view, kind, key) {
  const table = catalogue(view)[kind === "power" ? "powers" : "challenges"] || {};
  return Object.keys(table).find((k) => table[k] === key) || "";
}
