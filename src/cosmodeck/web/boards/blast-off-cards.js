// Blast Off! card faces, drawn from the card codes the server sends (the deck's data: colour and
// number, Blast Off word, Wild, Countdown card) and from the face a card shows on the pile.
// Colour is never the only cue: every colour also has a shape and a letter in the page language.
import { h } from "../dom.js";
import { t, has, getLang } from "../i18n.js";

// "a purple Blast Off card" at the start of a sentence: "A purple Blast Off card"
function sentenceStart(s) { return s ? s.charAt(0).toLocaleUpperCase(getLang()) + s.slice(1) : s; }

export const COLOURS = {
  O: { key: "orange", shape: "▲" },
  G: { key: "green", shape: "■" },
  P: { key: "purple", shape: "◆" },
  R: { key: "red", shape: "●" },
};
const BY_NAME = { ORANGE: "O", GREEN: "G", PURPLE: "P", RED: "R" };

// A card code ("R5", "BO-G", "W", "CD", "W[R4]") or a face code ("R4", "GBO", "-4", "--") as parts:
// {kind: planet|blastoff|wild|countdown|face, colour: letter|null, value: "1".."10"|"BO"|null}
export function parseCard(code) {
  if (code === null || code === undefined) return null;
  const s = String(code);
  let m = s.match(/^W\[([OGPR-])(\d+|BO|-)\]$/);
  if (m) return { kind: "wild", colour: m[1] === "-" ? null : m[1], value: m[2] === "-" ? null : m[2], declared: true };
  if (s === "W") return { kind: "wild", colour: null, value: null };
  if (s === "CD") return { kind: "countdown", colour: null, value: null };
  m = s.match(/^BO-([OGPR])$/);
  if (m) return { kind: "blastoff", colour: m[1], value: "BO" };
  m = s.match(/^([OGPR-])(\d+|BO|-)$/);
  if (m) {
    const colour = m[1] === "-" ? null : m[1];
    const value = m[2] === "-" ? null : m[2];
    return { kind: value === "BO" ? "blastoff" : "planet", colour, value };
  }
  return null;
}

export function colourLetter(name) { return BY_NAME[name] || null; }
export function colourWord(letter) { return letter && COLOURS[letter] ? t(`bo.colour.${COLOURS[letter].key}`) : ""; }
// the colour as it agrees with "card" (Spanish: «carta roja», but «7 rojo»)
function colourOfCard(letter) {
  if (!letter || !COLOURS[letter]) return "";
  const key = `bo.colour_card.${COLOURS[letter].key}`;
  return has(key) ? t(key) : colourWord(letter);
}

export function valueWord(v) {
  if (v === "BO" || v === "BLAST_OFF") return t("bo.word");
  return v === null || v === undefined ? "" : String(v);
}

// What a face shows, in words: "orange 7", "purple Blast Off!", "any 4" (a Wild slapped for 4).
export function faceWords(f) {
  if (!f) return t("bo.card.unknown");
  if (f.colour && f.value) return f.value === "BO" ? t("bo.card.blastoff", { colour: colourOfCard(f.colour) }) : t("bo.card.number", { colour: colourWord(f.colour), n: f.value });
  if (f.value) return f.value === "BO" ? t("bo.face.word_only") : t("bo.face.number_only", { n: f.value });
  if (f.colour) return t("bo.face.colour_only", { colour: colourOfCard(f.colour) });
  return t("bo.face.free");
}

// A physical card in words, with a pile face if it has one: "a Wild as red 4", "a Countdown card".
export function describeCard(code, face) {
  const c = parseCard(code);
  if (!c) return t("bo.card.unknown");
  if (c.kind === "countdown") return t("bo.card.countdown");
  if (c.kind === "wild") {
    const f = c.declared ? c : parseCard(face);
    return f && (f.colour || f.value) ? t("bo.card.wild_as", { face: faceWords(f) }) : t("bo.card.wild");
  }
  return faceWords(c);
}

// The longer text of a card, for its tooltip and the zoomed view.
export function cardHelp(code) {
  const c = parseCard(code);
  if (!c) return "";
  return t(`bo.help.${c.kind === "face" ? "planet" : c.kind}`);
}

// The face element: big value, colour shape and letter, a word for special cards.
// opts: {onclick, dim, small, mini (a face inline in a log line), face (pile face of a Wild), attrs}
export function cardEl(code, opts = {}) {
  const c = parseCard(code) || { kind: "planet", colour: null, value: null };
  const shown = c.kind === "wild" && !c.declared && opts.face ? { ...c, ...(parseCard(opts.face) || {}), kind: "wild", declared: true } : c;
  const cls = ["bo-card", `k-${c.kind}`];
  if (shown.colour) cls.push(`c-${shown.colour}`);
  if (opts.dim) cls.push("dim");
  if (opts.small) cls.push("small");
  if (opts.mini) cls.push("mini");
  const words = describeCard(code, opts.face);
  const help = cardHelp(code);
  const label = opts.label || words;
  const parts = [];
  const col = shown.colour ? COLOURS[shown.colour] : null;
  if (c.kind === "countdown") {
    parts.push(h("span.v", {}, "10…1"), h("span.w", {}, t("bo.face.countdown")));
  } else if (c.kind === "wild") {
    parts.push(shown.value === "BO" ? h("span.v.word", {}, t("bo.word")) : h("span.v", {}, shown.value || "★"),
      h("span.w", {}, t("bo.face.wild")));
  } else if (c.kind === "blastoff") {
    parts.push(h("span.v.word", {}, t("bo.word")));
  } else {
    parts.push(h("span.v", {}, shown.value || "?"));
  }
  if (col) parts.push(h("span.mark", { "aria-hidden": "true" }, h("span.shape", {}, col.shape), h("span.cw", {}, ` ${colourWord(shown.colour)}`)));
  const attrs = {
    title: help ? `${sentenceStart(words)}. ${help}` : words, "aria-label": label, ...(opts.attrs || {}),
  };
  if (opts.onclick) return h(`button.${cls.join(".")}`, { type: "button", onclick: opts.onclick, ...attrs }, parts);
  return h(`span.${cls.join(".")}`, { role: "img", tabindex: opts.zoom === false ? undefined : "0", ...attrs }, parts);
}

// The back of a card, with a count on it (the draw pile).
export function backEl(n, label) {
  return h("span.bo-card.back", { role: "img", "aria-label": label, title: label }, h("span.v", {}, String(n)));
}

// A card as a small face inline in a log line: shown after the sentence that names it in words,
// opened in full on hover or tap (peek.js reads data-peek and the title)
export function miniCard(code, face) {
  return cardEl(code, { mini: true, face, zoom: false, attrs: { "data-peek": "1", "data-code": String(code) } });
}
