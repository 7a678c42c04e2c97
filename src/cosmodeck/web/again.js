// "Play again": a new room with the same game, seats (people and bots) and options as a finished
// one; its invite links are shown so the player can send them to the others.
import { h, clear, toast, api } from "./dom.js";
import { t } from "./i18n.js";
import { rememberRoom } from "./lobby.js";

// the new room's body, or null when the room cannot be repeated from what a client knows
// (custom card data or documents are known only by their fingerprint)
export function againBody(hello, presence, players) {
  if (!hello || !presence || (hello.data && hello.data.custom)) return null;
  const options = {};
  for (const [name, value] of Object.entries(hello.options || {})) {
    if (value && typeof value === "object" && value.custom) return null;
    options[name] = value;
  }
  const bots = {};
  for (const [seat, s] of Object.entries(presence.seats || {})) if (s.kind === "bot") bots[seat] = s.bot;
  return { game: hello.game, players, bots, options };
}

export function againBox(body, mySeat) {
  const box = h("div.again");
  const button = h("button.primary", { type: "button", id: "play-again", onclick: create }, t("play_again"));
  clear(box).append(button);

  async function create() {
    button.disabled = true;
    try {
      const res = await api("POST", "/api/rooms", body);
      rememberRoom(res.room, { ...res, game: body.game, players: body.players, bots: body.bots });
      box.dataset.created = "1";
      const links = Object.entries(res.links || {});
      clear(box).append(h("p", {}, t("again_ready")),
        h("ul.links", {}, links.filter(([seat]) => Number(seat) !== mySeat).map(([seat, url]) => h("li", {},
          h("span.who", {}, t("player_n", { n: Number(seat) + 1 })),
          h("input.link", { type: "text", readonly: true, value: url, onfocus: (e) => e.target.select(),
            "aria-label": t("invite_for", { n: Number(seat) + 1 }) }),
          h("button", { type: "button", onclick: () => navigator.clipboard.writeText(url)
            .then(() => toast(() => t("copied")), () => toast(() => t("copy_failed"), "error")) }, t("copy"))))),
        res.links[String(mySeat)]
          ? h("a.button.primary", { href: res.links[String(mySeat)], id: "again-go" }, t("again_go")) : null);
    } catch (e) {
      button.disabled = false;
      toast(() => `${t("error")}: ${e.message}`, "error", 8000);
    }
  }
  return box;
}
