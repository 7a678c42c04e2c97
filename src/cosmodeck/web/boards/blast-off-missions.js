// Blast Off! missions as the players read them: name and text in the page language, obligations as
// sentences ("Say the colour!"), and what the say/gesture buttons read.
//
// The mission texts come from the game's data file (or mission file): the view sends each mission's
// English name and text, and the room's catalogue (catalogue.js, fetched once per room) has the
// file's texts per language ("mission.ID.name", "mission.ID.text"). A mission the file has not
// translated shows its English, marked "English only".
import { h } from "../dom.js";
import { t, has, getLang } from "../i18n.js";
import { colourWord, colourLetter } from "./blast-off-cards.js";
import { getCatalogue, textIn } from "../catalogue.js";

function fileText(id, part, english) {
  const words = (getCatalogue().texts || {})[`mission.${id}.${part}`];
  const x = textIn(words && english ? { ...words, en: english } : words || (english ? { en: english } : null));
  return x || { text: "", missing: false };
}

// {name, text, englishOnly} of a mission object {id, name, text} from the view or an event.
export function missionText(m) {
  if (!m) return { name: "", text: "", englishOnly: false };
  const name = fileText(m.id, "name", m.name);
  const text = fileText(m.id, "text", m.text);
  return { name: name.text, text: text.text, englishOnly: getLang() !== "en" && (name.missing || text.missing) };
}

// The mission object named by id in a view (in force, discarded or revealed).
export function findMission(view, id) {
  if (!view || !id) return null;
  for (const list of [view.missions_in_force, view.missions, view.missions_discarded]) {
    const m = (list || []).find((x) => x.id === id);
    if (m) return m;
  }
  return null;
}

export function missionName(view, id) {
  const m = findMission(view, id);
  if (m) return missionText(m).name;
  return fileText(id, "name", "").text || t("bo.a_mission");
}

// A mission card: its name, its text, and a note if the text has no translation.
export function missionCard(m, extra = null) {
  const x = missionText(m);
  return h("div.bo-mission", { tabindex: "0", title: `${x.name}: ${x.text}` },
    h("div.bo-mission-name", {}, x.name),
    h("p", { lang: x.englishOnly ? "en" : undefined }, x.text),
    x.englishOnly ? h("p.muted.small", {}, t("bo.english_only")) : null, extra);
}

// What one says for a token and its argument: “Houston, we have a problem!”, “Orange!”, “3 cards!”
export function tokenWords(token, arg, gesture = false) {
  if (gesture) return has(`bo.gesture.${token}`) ? t(`bo.gesture.${token}`) : t("bo.gesture.other");
  if (token === "COLOUR") {
    const c = colourLetter(arg);
    return c ? t("bo.say.COLOUR", { colour: capital(colourWord(c)) }) : t("bo.say.COLOUR_any");
  }
  if (token === "COUNT") {
    if (arg === null || arg === undefined) return t("bo.say.COUNT_any");
    return Number(arg) === 1 ? t("bo.say.COUNT_one") : t("bo.say.COUNT", { n: arg });
  }
  return has(`bo.say.${token}`) ? t(`bo.say.${token}`) : t("bo.say.other");
}

function capital(s) { return s ? s.charAt(0).toLocaleUpperCase(getLang()) + s.slice(1) : s; }

// An action "announce TOKEN [ARG]" or "gesture TOKEN" as the words on its button.
export function sayButtonText(action) {
  const [verb, token, arg] = action.split(" ");
  return verb === "gesture" ? tokenWords(token, null, true) : tokenWords(token, arg ?? null);
}

// An open obligation of the view ({mission, do, token, arg, expect}) as an order: "Say the colour!"
export function obligationText(o) {
  if (o.do === "gesture") return t("bo.obl.gesture", { what: tokenWords(o.token, null, true) });
  if (o.arg === "colour") return t("bo.obl.colour");
  if (o.arg === "hand_size") return t("bo.obl.count");
  return t("bo.obl.say", { what: tokenWords(o.token, null) });
}
