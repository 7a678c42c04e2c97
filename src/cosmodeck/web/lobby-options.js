// Which game options the lobby offers, and as what: every one a dropdown or a checkbox.
// Labels, one-line explanations and value names come from the catalogue:
//   opt.GAME.NAME       the label          optdoc.GAME.NAME  the explanation
//   opt.GAME.NAME.VALUE a choice's name    (numbers of seconds use "seconds_n")
// Options not listed here (per-seat ages, reaction-time models, simulation modes, data uploads)
// keep their defaults: they are not choices a player makes before a game.
import { t, has, getLang } from "./i18n.js";

const SEATS = "seats";  // "random" or one of the seats, as a dropdown

export const LOBBY_OPTIONS = {
  "shooting-star": {
    orientations: { choices: [4, 2] },
    first_player: { choices: ["random", SEATS] },
    setup_face: { choices: ["random", "high"] },
    shield_scope: { choices: ["attack", "planets"] },
    conquest_points: { choices: ["all_cards", "planets_only"] },
    dark_planet_shelters_cards: { check: true },
    missions_count_debris: { check: true },
    end_count_includes_dark: { check: true },
  },
  meteor: {
    difficulty: { choices: ["standard", "advanced", "expert"] },
    first_game: { check: true },
    zone_timer_s: { choices: [30, 45, 60, 90, 120], seconds: true },
    volley_window_s: { choices: [0, 2, 3, 5], seconds: true },
    allow_any_timeout: { check: true },
    allow_meteor_mulligan: { check: true },
    one_handed_interval_s: { choices: [1, 2, 3], seconds: true },
    countdown_s: { choices: [2, 3, 5], seconds: true },
  },
  "blast-off": {
    dealer: { choices: ["random", SEATS] },
    play_for_places: { check: true },
    voluntary_draw: { check: true },
    drawn_card_play: { choices: ["must", "may"] },
    two_player_reverse: { choices: ["none", "play_again"] },
    false_catch_penalty: { choices: [0, 1, 2] },
    pass_hands_direction: { choices: ["left", "play"] },
    mission_enforcement: { choices: ["catch", "referee", "assist"] },
    mission_out_of_control: { check: true },
    tick_s: { choices: [0.8, 1.2, 1.6, 2], seconds: true },
    countdown_pace: { choices: ["fixed", "fast"] },
    obligation_s: { choices: [2, 3, 5], seconds: true },
    catch_window_s: { choices: [3, 5, 8], seconds: true },
    declare_timeout_s: { choices: [3, 5, 8], seconds: true },
    choose_timeout_s: { choices: [5, 10, 20], seconds: true },
  },
};

// The lobby's form for one option of one game, or null if the lobby does not offer it.
export function lobbyOption(game, o, players) {
  const spec = (LOBBY_OPTIONS[game] || {})[o.name];
  if (!spec) return null;
  if (spec.check) return { kind: "check" };
  const values = [];
  for (const c of spec.choices) {
    if (c === SEATS) for (let s = 0; s < players; s++) values.push(s);
    else values.push(c);
  }
  if (!values.some((v) => v === o.default)) values.unshift(o.default);
  return { kind: "choice", values, seconds: !!spec.seconds };
}

export function optionName(game, name) {
  const k = `opt.${game}.${name}`;
  return has(k) ? t(k) : name;
}

export function optionDoc(game, name) {
  const k = `optdoc.${game}.${name}`;
  return has(k) ? t(k) : "";
}

export function choiceName(game, name, value, seconds) {
  const k = `opt.${game}.${name}.${value}`;
  if (has(k)) return t(k);
  if (typeof value === "number" && Number.isInteger(value) && (name === "dealer" || name === "first_player")) {
    return t("player_n", { n: value + 1 });
  }
  if (seconds) return value === 1 ? t("seconds_one") : t("seconds_n", { n: value.toLocaleString(getLang()) });
  return String(value);
}
