// The router: "/" lobby, "/room/ID#token=T" a room, "/replay/ID" a finished game's replay, "/rules/GAME" rules.
import { initI18n, setLang, getLang } from "./i18n.js";

async function main() {
  await initI18n();
  const sel = document.getElementById("lang");
  sel.value = getLang();
  sel.addEventListener("change", () => setLang(sel.value));
  const root = document.getElementById("main");
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/room\/([^/]+)$/))) {
    const { mountRoom } = await import("./room.js");
    mountRoom(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/replay\/([^/]+)$/))) {
    const { mountReplay } = await import("./replay.js");
    mountReplay(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/rules\/([^/]+)$/))) {
    const { mountRules } = await import("./rules.js");
    mountRules(root, decodeURIComponent(m[1]));
  } else if (path !== "/" && path !== "/index.html") {
    const { h, clear } = await import("./dom.js");
    const { t } = await import("./i18n.js");
    clear(root).append(h("h1", {}, t("page_missing")), h("p", {}, t("page_missing_help")),
      h("a.button", { href: "/" }, t("back_lobby")));
  } else {
    const { mountLobby } = await import("./lobby.js");
    mountLobby(root);
  }
}

main();
