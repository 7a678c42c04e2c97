// Meteor's result, explained: the zone reached, what the win or loss means, the meteors destroyed
// and those that remained.
import { h } from "../dom.js";
import { t, has } from "../i18n.js";
import * as C from "./meteor-cards.js";

function meteorLine(view, m) {
  const name = m.kind === "boss" && m.face_up && m.id ? `${C.meteorName(m.ref)} (${t("met.boss")}: ${C.bossName(view, m)})` : C.meteorName(m.ref) + (m.kind === "boss" ? ` (${t("met.boss")})` : "");
  const [a, b] = C.sizeRange(m);
  const size = a === b ? t("met.size_exact", { n: a }) : t("met.size_range", { a, b });
  const trait = m.face_up && m.trait ? `, ${C.traitName(view, m.trait)}` : "";
  return t("met.meteor_line", { name, size, trait });
}

export function resultDetails(view) {
  const o = view.outcome || {};
  const zone = o.zone ?? view.zone;
  const name = C.zoneName(view, zone);
  let line;
  if (o.win) line = t("met.result_won", { zone, name, score: zone });
  else if (o.cause === "overkill" || o.cause === "volatile_overkill") line = t("met.result_lost_overkill", { zone, name });
  else line = t("met.result_lost", { zone, name });
  const cause = !o.win && o.cause ? t("met.result_cause", { cause: t(has(`met.cause.${o.cause}`) ? `met.cause.${o.cause}` : "met.cause.other") }) : "";
  const field = view.field || [];
  const destroyed = (view.removed || []).filter((r) => r.cause === "destroyed").length;
  return h("div.met-result", {},
    h("h3", {}, t("met.result_title")), h("p", {}, line), cause ? h("p", {}, cause) : null,
    h("p", {}, t("met.result_destroyed", { n: destroyed })),
    field.length ? h("div", {}, h("p", {}, t("met.result_left")), h("ul", {}, field.map((m) => h("li", {}, meteorLine(view, m)))))
      : h("p", {}, t("met.result_none_left")));
}
