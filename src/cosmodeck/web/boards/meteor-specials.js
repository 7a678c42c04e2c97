// Advanced Meteor: every player's Power and Challenge card with its text and whether it is used
// (public, MET-D4), the hands a player may see (Backwards teammates, Open Book), and the
// One-Handed cool-down.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { seatName } from "../names.js";
import { specialName, specialText, cardSpan } from "./meteor-cards.js";

const ONCE_PER_GAME = new Set(["spotter", "chronometrist", "demolition_expert", "sharpshooter"]);
const ONCE_PER_ZONE = new Set(["mechanic", "courier"]);

function powerState(p) {
  if (ONCE_PER_GAME.has(p.key)) return (p.used_game || []).includes(p.key) ? t("met.used_game") : t("met.unused_game");
  if (ONCE_PER_ZONE.has(p.key)) return (p.used_zone || []).includes(p.key) ? t("met.used_zone") : t("met.unused_zone");
  return t("met.always");
}

function specialCard(view, kind, entry, state) {
  const name = specialName(view, kind, entry.id);
  const text = specialText(view, kind, entry.id);
  const used = state === t("met.used_game") || state === t("met.used_zone");
  return h(`div.met-special.${kind}${used ? ".used" : ""}`, { title: `${name}: ${text}` },
    h("div.met-special-kind", {}, t(`met.${kind}_label`)), h("strong", {}, name),
    h("div.met-special-text", {}, text), h("div.met-special-state", {}, state));
}

export function specialsBox(view, me) {
  const powers = view.powers || [];
  const challenges = view.challenges || [];
  if (!powers.some(Boolean) && !challenges.some(Boolean)) return null;
  const rows = [];
  for (let s = 0; s < (view.hands || []).length; s++) {
    const p = powers[s];
    const c = challenges[s];
    if (!p && !c) continue;
    rows.push(h("div.met-specials-seat", { dataset: { seat: String(s) } },
      h("div.met-specials-who", {}, seatName(view, s), s === me ? ` (${t("you")})` : ""),
      h("div.met-specials-cards", {}, p ? specialCard(view, "power", p, powerState(p)) : null,
        c ? specialCard(view, "challenge", c, t("met.always")) : null)));
  }
  return h("section.card.met-specials", {}, h("h2", {}, t("met.specials")), rows);
}

// the hands this seat may see besides its own: a Backwards teammate's faces, an Open Book hand
export function otherHands(view, me) {
  const out = [];
  for (const hand of view.hands || []) {
    if (hand.seat === me || !Array.isArray(hand.cards)) continue;
    const c = (view.challenges || [])[hand.seat];
    const label = c && c.key === "backwards" ? t("met.holds_backwards", { name: seatName(view, hand.seat) })
      : t("met.shown_hand", { name: seatName(view, hand.seat) });
    out.push(h("div.met-other-hand", { dataset: { seat: String(hand.seat) } }, h("div.muted", {}, label),
      h("div.met-cards", {}, hand.cards.map((card) => cardSpan(view, card)))));
  }
  return out;
}

export function hasChallenge(view, seat, key) {
  const c = (view.challenges || [])[seat];
  return !!(c && c.key === key);
}

export function hasPower(view, seat, key) {
  const p = (view.powers || [])[seat];
  return !!(p && p.key === key);
}

// seconds left before a One-Handed seat may place again (0 when it may)
export function oneHandedLeft(view, seat, now) {
  if (!hasChallenge(view, seat, "one_handed")) return null;
  const last = (view.last_place || [])[seat];
  const gap = Number((view.options || {}).one_handed_interval_s || 0);
  if (typeof last !== "number") return 0;
  return Math.max(0, last + gap - now);
}
