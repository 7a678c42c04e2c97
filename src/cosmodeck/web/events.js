// Every event as a sentence: "ev.GAME.TYPE" (or "ev.TYPE") from the catalogue, with its fields
// turned into words. A board may register a hook that names its game's fields (cells, cards,
// missions) in the page language; anything left is shown as plain words, never as key=value.
import { t, has } from "./i18n.js";
import { seatName } from "./names.js";

const hooks = {};
const faceHooks = {};

// fn(ev, view, params) -> extra params; called for each event of that game.
export function setEventParams(game, fn) { hooks[game] = fn; }

// fn(ev, view) -> the card faces an event shows (DOM elements), e.g. the card played or drawn:
// drawn small after the sentence, which names them in words too (the faces are not read aloud)
export function setEventFaces(game, fn) { faceHooks[game] = fn; }

export function eventFaces(ev, view) {
  const fn = faceHooks[view && view.game ? view.game : ""];
  return fn ? fn(ev, view) || [] : [];
}

// One log line's content: the sentence, then the event's card faces (hover or tap shows one in full: peek.js)
export function eventLine(ev, view) {
  const faces = eventFaces(ev, view);
  if (!faces.length) return [describeEvent(ev, view)];
  const box = document.createElement("span");
  box.className = "log-faces";
  box.setAttribute("aria-hidden", "true");
  box.append(...faces);
  return [describeEvent(ev, view), " ", box];
}

const SEAT_KEYS = new Set(["seat", "by", "owner", "attacker", "defender", "target", "winner"]);

function words(v) { return String(v).replaceAll("_", " "); }

export function describeEvent(ev, view) {
  const params = {};
  const game = view && view.game ? view.game : "";
  for (const [k, v] of Object.entries(ev)) {
    if (v === null || v === undefined) { params[k] = ""; continue; }
    if (SEAT_KEYS.has(k) && typeof v === "number") {
      params[k] = seatName(view, v);
    } else if (Array.isArray(v)) {
      params[k] = v.map((x) => (x && typeof x === "object" ? "" : words(x))).filter(Boolean).join(", ");
    } else if (v && typeof v === "object") {
      for (const [sub, x] of Object.entries(v)) params[`${k}.${sub}`] = x && typeof x === "object" ? "" : words(x);
      params[k] = "";
    } else if (has(`val.${k}.${v}`)) {
      params[k] = t(`val.${k}.${v}`);
    } else {
      params[k] = typeof v === "string" ? words(v) : String(v);
    }
  }
  if (hooks[game]) Object.assign(params, hooks[game](ev, view, params));
  const key = `ev.${game ? game + "." : ""}${ev.type}`;
  if (has(key)) return t(key, params);
  if (has(`ev.${ev.type}`)) return t(`ev.${ev.type}`, params);
  // an event the catalogue does not know yet: its name and values as words
  const rest = Object.entries(params).filter(([k, x]) => k !== "type" && !k.includes(".") && x !== "").map(([, x]) => x);
  return `${words(ev.type)}${rest.length ? ": " + rest.join(", ") : ""}`;
}
