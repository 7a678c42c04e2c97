// The generic board: the view as readable panels and the legal actions as buttons.
// It works for every game, so it is always one click away (the "Simple view").
import { h, clear } from "../dom.js";
import { t, has } from "../i18n.js";

const BASE = new Set(["game", "players", "seat", "now", "to_act", "deadline", "over", "result"]);

export function label(key) {
  return has(`key.${key}`) ? t(`key.${key}`) : String(key).replaceAll("_", " ");
}

export function renderValue(v, depth = 0) {
  if (v === null || v === undefined) return h("span.none", {}, "—");
  if (typeof v === "boolean") return h("span", {}, v ? t("yes") : t("no"));
  if (typeof v !== "object") return h("span", {}, String(v));
  if (depth > 3) return h("code", {}, JSON.stringify(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return h("span.none", {}, t("none"));
    if (v.every((x) => x === null || typeof x !== "object")) {
      return h("span", {}, v.map((x) => (x === null ? "—" : String(x))).join(", "));
    }
    const objs = v.every((x) => x && typeof x === "object" && !Array.isArray(x));
    if (objs) {
      const keys = [...new Set(v.flatMap((x) => Object.keys(x)))];
      if (keys.length <= 8) {
        return h("table.data", {},
          h("thead", {}, h("tr", {}, keys.map((k) => h("th", { scope: "col" }, label(k))))),
          h("tbody", {}, v.map((x) => h("tr", {}, keys.map((k) => h("td", {}, renderValue(x[k], depth + 1)))))));
      }
    }
    return h("ol.data", {}, v.map((x) => h("li", {}, renderValue(x, depth + 1))));
  }
  return h("dl.data", {}, Object.entries(v).flatMap(([k, x]) => [h("dt", {}, label(k)), h("dd", {}, renderValue(x, depth + 1))]));
}

export function actionText(notation) {
  return notation;
}

export function createBoard(root, ctx) {
  let last = null;
  let filter = "";
  const legalBox = h("section.card.legal", { "aria-labelledby": "legal-h" });
  const viewBox = h("section.card.panels", { "aria-labelledby": "view-h" });
  clear(root).append(h("div.generic", {}, legalBox, viewBox));

  function renderLegal() {
    const legal = last ? last.legal : [];
    clear(legalBox).append(h("h2", { id: "legal-h" }, t("your_actions")));
    if (ctx.readonly) {
      legalBox.append(h("p", {}, t("replay_readonly")));
      return;
    }
    if (!legal.length) {
      legalBox.append(h("p.muted", {}, ctx.seat === null ? t("spectating") : t("nothing_to_do")));
      return;
    }
    if (legal.length > 12) {
      legalBox.append(h("div.field", {}, h("label", { for: "legal-filter" }, t("filter_actions")),
        h("input", { id: "legal-filter", type: "search", value: filter, placeholder: t("filter_placeholder"),
          oninput: (e) => { filter = e.target.value; renderButtons(); } })));
    }
    const buttons = h("div.actions", { role: "group", "aria-label": t("your_actions") });
    legalBox.append(buttons);
    function renderButtons() {
      clear(buttons);
      const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
      const shown = legal.filter((a) => words.every((w) => a.toLowerCase().includes(w)));
      for (const a of shown.slice(0, 400)) {
        buttons.append(h("button.action", { type: "button", "data-action": a, onclick: () => ctx.act(a) },
          actionText(a)));
      }
      if (!shown.length) buttons.append(h("p.muted", {}, t("no_match")));
    }
    renderButtons();
  }

  function renderView() {
    const v = last ? last.view : null;
    clear(viewBox).append(h("h2", { id: "view-h" }, t("the_game")));
    if (!v) return;
    const rows = [];
    for (const [k, x] of Object.entries(v)) {
      if (BASE.has(k)) continue;
      rows.push(h("details.panel", { open: true }, h("summary", {}, label(k)), renderValue(x)));
    }
    if (v.result) rows.push(h("details.panel", { open: true }, h("summary", {}, t("result")), renderValue(v.result)));
    viewBox.append(...rows);
  }

  return {
    update(msg) {
      const legalChanged = !last || JSON.stringify(last.legal) !== JSON.stringify(msg.legal);
      last = msg;
      // the buttons are rebuilt only when the legal actions change, so that they are not replaced
      // under the pointer while other players act
      if (legalChanged) renderLegal();
      renderView();
    },
    async events() {},
    destroy() { clear(root); },
  };
}
