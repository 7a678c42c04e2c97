// Human names for seats, games and options (translated), shared by the lobby and the boards.
import { t, has } from "./i18n.js";

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return t("spectator");
  const f = view && Array.isArray(view.factions) ? view.factions[seat] : null;
  if (f && f.name) return `${f.name} (${t("player_n", { n: seat + 1 })})`;
  return t("player_n", { n: seat + 1 });
}

export function gameName(id, fallback) {
  return has(`game.${id}`) ? t(`game.${id}`) : (fallback || id);
}

export function optionLabel(game, name) {
  const k = `opt.${game}.${name}`;
  return has(k) ? t(k) : name.replaceAll("_", " ");
}

export function valueLabel(game, name, value) {
  const k = `opt.${game}.${name}.${value}`;
  if (has(k)) return t(k);
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return String(value);
}
