// Every Meteor event as a sentence (catalogue keys "ev.meteor.TYPE" and "met.ev.*" in en/es.json):
// this hook names the event's cards, sites, meteors, zones, powers and outcomes in the page
// language, for the room's log and the replay viewer.
import { t, has } from "../i18n.js";
import { setEventParams } from "../events.js";
import { seatName } from "../names.js";
import { cardName, meteorName, siteName, zoneName, techName, traitName, specialName, specialId, dataText, catalogue } from "./meteor-cards.js";

function word(group, value) {
  const k = `met.${group}.${value}`;
  return has(k) ? t(k) : t(`met.${group}.other`);
}

function count(n, one, many, params = {}) { return t(Number(n) === 1 ? one : many, { n, ...params }); }

function volleyLine(ev, view) {
  const target = meteorName(ev.target);
  const rockets = count((ev.rockets || []).length, "met.rockets_one", "met.rockets_n");
  const p = { target, rockets, damage: ev.damage ?? 0, size: ev.size ?? "?" };
  let line = t(has(`met.volley.${ev.result}`) ? `met.volley.${ev.result}` : "met.volley.other", p);
  if (ev.exempt) line += " " + t("met.volley.exempt", { why: exemptName(view, ev.exempt) });
  if (ev.stored) line += " " + t("met.volley.stored", { n: ev.stored });
  if ((ev.salvaged || []).length) line += " " + t("met.volley.salvaged");
  return line;
}

function exemptName(view, key) {
  if (key === "guidance_computer") {
    const tech = Object.entries(catalogue(view).cards).find(([, f]) => f.key === key);
    return tech ? techName(view, tech[0]) : t("met.a_technology");
  }
  if (key === "sharpshooter") return specialName(view, "power", specialId(view, "power", key));
  return traitName(view, key);
}

function powerLine(ev, view) {
  const id = specialId(view, "power", ev.power);
  const power = specialName(view, "power", id);
  const seat = seatName(view, ev.seat);
  if (ev.power === "spotter") return t("met.power.spotter", { seat, power, target: meteorName(ev.target) });
  if (ev.power === "mechanic") return t("met.power.mechanic", { seat, power, card: cardName(view, ev.card), site: siteName(view, ev.site) });
  if (ev.power === "courier") return t("met.power.courier", { seat, power, to: seatName(view, ev.to) });
  return t("met.power.used", { seat, power });
}

function outcomeLine(ev, view, win) {
  const zone = ev.zone;
  const p = { zone, name: zoneName(view, zone), left: count(ev.meteors_left, "met.meteors_one", "met.meteors_n") };
  if (win) return t("met.ev.won", p);
  return t(has(`met.ev.lost.${ev.cause}`) ? `met.ev.lost.${ev.cause}` : "met.ev.lost.other", p);
}

export function meteorEventParams(ev, view) {
  const out = {};
  if (typeof ev.seat === "number") out.seat = seatName(view, ev.seat);
  if (ev.site) out.site = siteName(view, ev.site);
  if (ev.card && typeof ev.card === "string") out.card = cardName(view, ev.card);
  if (typeof ev.target === "string") out.target = meteorName(ev.target);
  if (ev.ref) out.ref = meteorName(ev.ref);
  switch (ev.type) {
    case "started": out.name = zoneName(view, ev.zone); break;
    case "zone_change":
      out.name = zoneName(view, ev.to);
      out.cause = word("cause", ev.cause);
      break;
    case "timer_expired": out.name = zoneName(view, ev.zone); break;
    case "deal":
      out.reason = word("reason", ev.reason);
      out.lost = ev.lost ? " " + count(ev.lost, "met.lost_one", "met.lost_n") : "";
      break;
    case "drew": out.cards = count(ev.count, "met.cards_one", "met.cards_n"); break;
    case "rocket_built": out.n = ev.damage; break;
    case "tech_built":
      out.tech = techName(view, ev.tech);
      out.effect = dataText(view, `tech.${ev.tech}.text`);
      break;
    case "retrofit": out.kind = word("retrofit", ev.kind); break;
    case "project_discarded": out.cards = count((ev.cards || []).length, "met.cards_one", "met.cards_n"); break;
    case "launch":
      out.n = ev.damage;
      out.extra = [ev.demolition ? t("met.flag.demolition") : "", ev.sharpshooter ? t("met.flag.sharpshooter") : ""].filter(Boolean).join(" ");
      break;
    case "volley": out.line = volleyLine(ev, view); break;
    case "revealed": {
      const trait = ev.trait ? ` (${traitName(view, ev.trait)})` : "";
      out.size = ev.size ?? "?";
      out.trait = trait;
      out.why = word("why", ev.why);
      out.boss = ev.kind === "boss" ? t("met.boss_word") + " " : "";
      break;
    }
    case "meteor_entered":
      out.back = Array.isArray(ev.back) ? `${ev.back[0]}–${ev.back[1]}` : "?";
      out.boss = ev.kind === "boss" ? t("met.boss_word") + " " : "";
      break;
    case "meteor_removed": out.how = word("removed", ev.cause); break;
    case "challenge_discard": {
      out.challenge = specialName(view, "challenge", specialId(view, "challenge", ev.challenge));
      break;
    }
    case "power": out.line = powerLine(ev, view); break;
    case "won": out.line = outcomeLine(ev, view, true); break;
    case "lost": out.line = outcomeLine(ev, view, false); break;
    case "timer_flipped": out.s = Math.round(Number(ev.remaining_before) || 0); break;
    case "hand_shown": out.cards = (ev.cards || []).map((c) => cardName(view, c)).join(", "); break;
    case "emote":
      out.kind = has(`emote.${ev.kind}`) ? t(`emote.${ev.kind}`) : t("met.an_emote");
      out.target = !ev.target ? "" : String(ev.target).startsWith("m") ? `→ ${meteorName(ev.target)}` : `→ ${siteName(view, ev.target)}`;
      break;
    case "signal": out.kind = has(`signal.${ev.kind}`) ? t(`signal.${ev.kind}`) : t("met.a_signal"); break;
    default: break;
  }
  return out;
}

setEventParams("meteor", meteorEventParams);
