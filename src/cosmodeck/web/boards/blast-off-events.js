// Every Blast Off! event as a sentence: the log's catalogue is "ev.blast-off.TYPE" (i18n), and this
// hook gives each template its words: cards as their faces in words, "Blast Off!" for the word,
// mission names in the page language, counts with their singular, what was said and done.
// It also tells a replay's actions ("play R5", "slap W 4") as sentences.
import { t, has } from "../i18n.js";
import { setEventFaces, setEventParams } from "../events.js";
import { seatName } from "../names.js";
import { colourWord, describeCard, faceWords, miniCard, parseCard, valueWord } from "./blast-off-cards.js";
import { missionName, missionText, tokenWords } from "./blast-off-missions.js";

function cards(n) { return Number(n) === 1 ? t("bo.n_cards_one") : t("bo.n_cards", { n }); }

// "5 cards left" / "le queda 1 carta"; capital: at the start of a sentence
export function leftWords(n, capital = false) {
  const k = capital ? "bo.Left" : "bo.left";
  return Number(n) === 0 ? t(`${k}_zero`) : Number(n) === 1 ? t(`${k}_one`) : t(`${k}_n`, { n });
}

function list(names) { return names.filter(Boolean).join(", "); }

// In a list every card has its article, as "a Wild" and "a purple Blast Off card" do: "a purple 8", "an orange 3"
function listedCard(code) {
  const c = parseCard(code);
  if (!c || c.kind === "wild" || c.kind === "countdown" || !c.colour || !c.value || c.value === "BO") return describeCard(code);
  const colour = colourWord(c.colour);
  return t(/^[aeiou]/i.test(colour) ? "bo.card.an_number" : "bo.card.a_number", { colour, n: c.value });
}

function cardList(codes) { return list((codes || []).map((c) => listedCard(c))); }

function effectWords(ev, view) {
  const target = typeof ev.target === "number" ? seatName(view, ev.target) : "";
  switch (ev.effect) {
    case "reverse":
      if (ev.result === "play_again") return t("bo.effect.play_again", { seat: seatName(view, ev.seat) });
      if (ev.result === "none") return t("bo.effect.reverse_none");
      return t("bo.effect.reverse", { dir: ev.dir === 1 ? t("bo.dir.left") : t("bo.dir.right") });
    case "skip_next": return t("bo.effect.skip_next", { target });
    case "next_draws": return t("bo.effect.next_draws", { target });
    case "extra_turn":
      return ev.result === "void" ? t("bo.effect.void") : t("bo.effect.extra_turn", { seat: seatName(view, ev.seat) });
    case "pass_hands": return t("bo.effect.pass_hands");
    case "swap_hands":
      return ev.result === "void" ? t("bo.effect.void") : target ? t("bo.effect.swap_hands", { seat: seatName(view, ev.seat), target }) : t("bo.effect.swap_pending", { seat: seatName(view, ev.seat) });
    default: return t("bo.effect.other");
  }
}

function drewWords(ev) {
  const reason = has(`bo.drew.${ev.reason}`) ? ev.reason : "draw";
  const base = t(`bo.drew.${reason}`, { cards: cards(ev.count) });
  return ev.cards && ev.cards.length ? `${base} (${cardList(ev.cards)})` : base;
}

function endWords(ev, view) {
  const names = list((ev.winners || []).map((s) => seatName(view, s)));
  if (ev.reason === "stalemate") return t("bo.end.stalemate", { names });
  return t("bo.end.out", { names });
}

export function eventParams(ev, view) {
  const p = {};
  // a Wild slapped for a number stands for that number: "slaps a Wild for 4"
  const slapped = ev.type === "slap_accepted" && ev.card === "W" && String(ev.face || "").startsWith("-");
  if ("card" in ev) p.card = slapped ? describeCard("W") : describeCard(ev.card, ev.face);
  if ("face" in ev) p.face = ev.type === "declared" ? faceWords(parseCard(ev.face)) : describeCard(ev.card || "", ev.face);
  // a sentence puts its own "!" around a called value: "“Blast Off!”", not "“Blast Off!!”"
  const called = (x) => (x === "BO" || x === "BLAST_OFF" ? t("bo.word_bare") : valueWord(x));
  if ("value" in ev) p.value = called(ev.value);
  if ("from" in ev) p.from = called(ev.from);
  if ("left" in ev) { p.left = leftWords(ev.left); p.Left = leftWords(ev.left, true); }
  if ("count" in ev) p.count = cards(ev.count);
  if ("mission" in ev) p.mission = ev.mission ? missionName(view, ev.mission) : t("bo.a_mission");
  switch (ev.type) {
    case "played": p.how = ev.drawn ? t("bo.played_drawn") : ""; break;
    case "drew": p.what = drewWords(ev); break;
    case "hand": p.what = ev.cards && ev.cards.length ? `: ${cardList(ev.cards)}` : ""; break;
    case "countdown_ended": p.what = ev.blast_off ? t("bo.cd_end.blast_off") : t("bo.cd_end.no_blast_off"); break;
    case "mission_revealed": {
      const x = missionText({ id: ev.mission, name: ev.name, text: ev.text });
      p.name = x.name; p.text = x.englishOnly ? `${x.text} (${t("bo.english_only")})` : x.text;
      const gone = (Array.isArray(ev.replaced) ? ev.replaced : ev.replaced ? [ev.replaced] : []).filter((id) => id !== ev.mission);
      p.replaced = gone.length ? t("bo.replaced", { name: list(gone.map((id) => missionName(view, id))) }) : "";
      break;
    }
    case "announced": case "gestured": {
      p.what = tokenWords(ev.token, ev.arg ?? null, ev.type === "gestured");
      p.result = ev.fulfilled === true ? t("bo.said_ok") : ev.fulfilled === false ? t("bo.said_unowed") : "";
      break;
    }
    case "obligation": p.what = ev.do === "gesture" ? t(has(`bo.gesture_do.${ev.token}`) ? `bo.gesture_do.${ev.token}` : "bo.gesture_do.other")
      : ev.arg === "colour" ? t("bo.obl_do.colour") : ev.arg === "hand_size" ? t("bo.obl_do.count") : t("bo.obl_do.say", { what: tokenWords(ev.token, null) }); break;
    case "effect": p.what = effectWords(ev, view); break;
    case "game_over": p.what = endWords(ev, view); break;
    case "went_out": p.place = ordinal(ev.place); break;
    case "timeout": p.what = has(`bo.timeout.${ev.phase}`) ? t(`bo.timeout.${ev.phase}`) : t("bo.timeout.other"); break;
    case "choose_needed": p.names = list((ev.candidates || []).map((s) => seatName(view, s))); break;
    case "chose": p.what = ev.action ? describeAction(ev.action, view) : ""; break;
    case "responded": p.what = ev.actions && ev.actions.length ? list(ev.actions.map((a) => describeAction(a, view))) : t("bo.nothing"); break;
    default: break;
  }
  return p;
}

export function ordinal(n) { return has(`bo.place.${n}`) ? t(`bo.place.${n}`) : t("bo.place.n", { n }); }

// One action of the notation ("play R5", "play W[G3]", "slap BO-R BO", "announce COLOUR RED",
// "catch 2 M13", "declare R4", "choose 1", "draw") as what the player did.
export function describeAction(action, view) {
  const [verb, a, b] = String(action).split(" ");
  switch (verb) {
    case "play": return t("bo.act.play", { card: describeCard(a) });
    case "slap": return t("bo.act.slap", { card: describeCard(a), value: valueWord(b) });
    case "declare": return t("bo.act.declare", { face: faceWords(parseCard(a)) });
    case "choose": return t("bo.act.choose", { name: seatName(view, Number(a)) });
    case "announce": return t("bo.act.announce", { what: tokenWords(a, b ?? null) });
    case "gesture": return t("bo.act.gesture", { what: tokenWords(a, null, true) });
    case "catch": return b ? t("bo.act.catch_for", { name: seatName(view, Number(a)), mission: missionName(view, b) }) : t("bo.act.catch", { name: seatName(view, Number(a)) });
    case "author": return t("bo.act.author");
    default: return has(`bo.act.${verb}`) ? t(`bo.act.${verb}`) : t("bo.act.other");
  }
}

setEventParams("blast-off", eventParams);

// the cards an event shows as faces after its sentence: the card played or slapped (a Wild as what
// it was declared), the Wild declared, the cards one drew or now holds (only one's own are sent)
export function eventFaces(ev) {
  switch (ev.type) {
    case "played": case "slap_accepted": return ev.card ? [miniCard(ev.card, ev.face)] : [];
    case "declared": return ev.face ? [miniCard("W", ev.face)] : [];
    case "drew": case "hand": return (ev.cards || []).map((c) => miniCard(c));
    default: return [];
  }
}

setEventFaces("blast-off", eventFaces);
