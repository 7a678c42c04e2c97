// The room's catalogue: what players read of its card data (card faces, the data file's texts per
// language). It is the same for every seat and every moment of a game, so the page fetches it once
// per room (GET /api/rooms/ROOM/catalogue) and views only name cards by id.
import { t, getLang } from "./i18n.js";

const EMPTY = Object.freeze({ texts: {} });
let current = { room: null, data: EMPTY };

// the room of this page (/room/ID or /replay/ID), or null
export function roomFromPath() {
  const m = window.location.pathname.match(/^\/(?:room|replay)\/([^/]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function loadCatalogue(roomId = roomFromPath()) {
  if (!roomId) return current.data;
  if (current.room === roomId) return current.data;
  let data = EMPTY;
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/catalogue`);
    if (r.ok) data = await r.json();
  } catch (e) {
    data = EMPTY;  // the board still draws, with generic names
  }
  current = { room: roomId, data: data && typeof data === "object" ? data : EMPTY };
  return current.data;
}

export function getCatalogue() { return current.data; }

// {text, lang, missing} of a data text in the page language; without one, the English (or any other
// language the file has), with missing = true so the page can say so
export function textIn(words) {
  if (!words || typeof words !== "object") return null;
  const lang = getLang();
  if (words[lang]) return { text: words[lang], lang, missing: false };
  const other = words.en ? "en" : Object.keys(words).find((k) => words[k]);
  return other ? { text: words[other], lang: other, missing: true } : null;
}

// a data text of the catalogue by key, in the page language; without a translation, the other
// language's text and a note saying so; `fallback` when the file has no such text
export function catalogueText(key, fallback = "") {
  const x = textIn((getCatalogue().texts || {})[key]);
  if (!x) return fallback;
  return x.missing ? `${x.text} ${t("untranslated")}` : x.text;
}
