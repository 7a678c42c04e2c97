// Meteor's legal actions grouped for the board, launch labels with their Overkill warning, and
// each action told as a sentence (for the replay viewer).
import { t, has } from "../i18n.js";
import { seatName } from "../names.js";
import * as C from "./meteor-cards.js";

export function group(legal) {
  const g = { place: new Map(), launch: [], signal: [], emote: [], simple: [], site: [], power: [], other: [] };
  for (const a of legal) {
    const parts = a.split(" ");
    const verb = parts[0];
    if (verb === "place_card") {
      const list = g.place.get(parts[1]) || [];
      list.push(a);
      g.place.set(parts[1], list);
    } else if (verb === "launch") g.launch.push(a);
    else if (verb === "signal") g.signal.push(a);
    else if (verb === "emote") g.emote.push(a);
    else if (verb === "use_power") g.power.push(a);
    else if (verb === "chat") g.other.push(a);
    else if (parts.length === 1) g.simple.push(a);
    else if (verb === "discard_project" || verb === "complete_retrofit") g.site.push(a);
    else g.other.push(a);
  }
  return g;
}

function siteOf(view, site) { return ((view && view.sites) || []).find((s) => s.site === site) || null; }

function powerName(view, key) { return C.specialName(view, "power", C.specialId(view, "power", key)); }

// "Launch Kourou's rocket (damage 3)", with the Demolition Expert / Sharpshooter flags named
export function launchLabel(view, action) {
  const [, site, , ...flags] = action.split(" ");
  const s = siteOf(view, site);
  const n = s && s.damage ? s.damage : "?";
  const base = t("met.launch_from", { site: C.siteName(view, site), n });
  if (flags.includes("demolition") && flags.includes("sharpshooter")) return t("met.launch_both");
  if (flags.includes("demolition")) return t("met.launch_demolition", { power: powerName(view, "demolition_expert") });
  if (flags.includes("sharpshooter")) return t("met.launch_sharpshooter", { power: powerName(view, "sharpshooter") });
  return base;
}

// what a launch would do to meteor m, counting rockets already in the open volley at it:
// level "sure" (an Overkill unless an exemption applies), "maybe" (the size is not known yet),
// "exact", or "short"
export function overkillNote(view, action, m, pending = 0) {
  const [, site, , ...flags] = action.split(" ");
  const s = siteOf(view, site);
  const d = (s && s.damage ? s.damage : 0) + (flags.includes("demolition") ? 1 : 0) + pending + (m.store || 0);
  const [a, b] = C.sizeRange(m);
  const safe = flags.includes("sharpshooter") || (m.face_up && m.trait === "brittle");
  if (d > b && !safe) return { level: "sure", text: t("met.overkill_sure", { d, s: b }) };
  if (d > a && !safe) return { level: "maybe", text: t("met.overkill_maybe", { d, a, b }) };
  if (d === a && a === b) return { level: "exact", text: t("met.exact", { d }) };
  return { level: "short", text: t("met.too_little", { d, a, b }) };
}

// an action as a sentence for the replay ("places Fuel energy on Kourou")
export function describeAction(action, view, seat) {
  const parts = String(action).split(" ");
  const verb = parts[0];
  const card = (token) => (token.startsWith("@") ? t("met.card_back", { n: Number(token.slice(1)) + 1 }) : C.cardName(view, token));
  switch (verb) {
    case "place_card": return t("met.act.place", { card: card(parts[1]), site: C.siteName(view, parts[2]) });
    case "launch": return t("met.act.launch", { site: C.siteName(view, parts[1]), target: C.meteorName(parts[2]) });
    case "discard_project": return t("met.act.discard", { site: C.siteName(view, parts[1]) });
    case "complete_retrofit": return t("met.act.retrofit", { site: C.siteName(view, parts[1]) });
    case "use_power": return t("met.act.power", { power: powerName(view, parts[1]) });
    case "signal": return t("met.act.signal", { kind: has(`signal.${parts[1]}`) ? t(`signal.${parts[1]}`) : t("met.a_signal") });
    case "emote": {
      const kind = has(`emote.${parts[1]}`) ? t(`emote.${parts[1]}`) : t("met.an_emote");
      const at = parts[2] ? ` → ${parts[2].startsWith("m") ? C.meteorName(parts[2]) : C.siteName(view, parts[2])}` : "";
      return t("met.act.emote", { kind }) + at;
    }
    case "chat": return t("met.act.chat");
    default:
      if (has(`met.act.${verb}`)) return t(`met.act.${verb}`, { name: seatName(view, seat) });
      return null;
  }
}
