// A rules page per game, in the page language: "How to play" (every rule a first game needs, from
// the catalogue), then the complete rules the package ships (the Spanish rulebook, or the English
// specification with its clause numbers) behind a disclosure.
import { h, clear } from "./dom.js";
import { t, has, getLang, onLang } from "./i18n.js";
import { gameName } from "./names.js";

export const RULE_GAMES = ["shooting-star", "meteor", "blast-off"];

export function rulesLink(game) {
  return h("a.rules-link", { href: `/rules/${game}` }, t("rules_of", { game: gameName(game) }));
}

export async function mountRules(root, game) {
  let fullLang = null;
  const full = h("div.rules-text");
  const fullBox = h("details.card.rules-full", {
    ontoggle: () => { if (fullBox.open) loadFull(); },
  });

  async function loadFull() {
    const lang = getLang();
    if (fullLang === lang) return;
    fullLang = lang;
    clear(full).append(h("p.muted", {}, t("loading")));
    try {
      const r = await fetch(`/api/rules/${encodeURIComponent(game)}?lang=${lang}&format=html`);
      if (!r.ok) throw new Error(t("rules_missing"));
      full.innerHTML = await r.text();  // rendered by the server from the packaged text, HTML escaped
    } catch (e) {
      clear(full).append(h("p.error", {}, e.message));
    }
  }

  function render() {
    const known = RULE_GAMES.includes(game);
    document.title = `${t("rules_of", { game: gameName(game) })} · cosmodeck`;
    if (!known) {
      clear(root).append(h("h1", {}, t("rules")), h("p.error", {}, t("rules_missing")), h("a.button", { href: "/" }, t("back_lobby")));
      return;
    }
    const paragraphs = has(`howto.${game}`) ? t(`howto.${game}`).split("\n") : [];
    const open = fullBox.open;
    clear(fullBox).append(h("summary", {}, t("rules_full")), h("p.muted", {}, t(`rules_full_note.${getLang()}`)), full);
    fullBox.open = open;
    clear(root).append(h("div.rules-page", {},
      h("h1", {}, t("rules_of", { game: gameName(game) })),
      h("nav.rules-nav", {}, RULE_GAMES.filter((g) => g !== game).map((g) => [rulesLink(g), " "]),
        h("a", { href: "/" }, t("back_lobby"))),
      h("section.card.howto", { "aria-labelledby": "howto-h" },
        h("h2", { id: "howto-h" }, t("how_to_play")),
        h("p.lead", {}, t(`blurb.${game}`)),
        ...paragraphs.map((p) => h("p", {}, p))),
      fullBox));
    if (open) loadFull();
  }

  onLang(render);
  render();
}
