// The host's controls (the player who created the room): hand another person's seat to a bot while
// the game is played, and a rematch once it is over (a new room with the same seats: everyone gets
// their new seat's link through this socket). Server frames it reads: presence.host, rematch.
import { h, clear, toast } from "./dom.js";
import { t, getLang } from "./i18n.js";

// env: { send(msg), state() -> room state {seat, status, presence}, seatName(n) }
export function createHost(env) {
  const el = h("section.host", { hidden: true });
  let rematch = null;
  let key = null;

  function isHost() {
    const st = env.state();
    return st.seat !== null && st.presence && st.presence.host === st.seat;
  }

  function render() {
    const st = env.state();
    const seats = (st.presence && st.presence.seats) || {};
    // rebuilt only when what it shows changes (views arrive many times a second in a busy game)
    const now = JSON.stringify([getLang(), st.seat, st.status, seats, st.presence && st.presence.host, rematch,
      (st.last && st.last.view && st.last.view.factions) || null]);
    if (now === key) return;
    key = now;
    clear(el);
    if (rematch) {
      const box = h("div.rematch", { role: "status" }, h("p", {}, t("host.rematch_ready"), " ",
        rematch.link ? h("a.button.primary", { href: rematch.link, id: "rematch-go" }, t("host.rematch_go"))
          : h("a.button", { href: rematch.url, id: "rematch-go" }, t("host.rematch_watch"))));
      const unsent = Object.entries(rematch.links || {});
      if (unsent.length) {
        const origin = location.origin;
        box.append(h("p", {}, t("host.rematch_links")), h("ul.links", {}, unsent.map(([seat, link]) => h("li", {},
          h("span.who", {}, env.seatName(Number(seat))),
          h("input.link", { type: "text", readonly: true, value: origin + link, onfocus: (e) => e.target.select(),
            "aria-label": t("invite_for", { n: Number(seat) + 1 }) }),
          h("button", { type: "button", onclick: () => navigator.clipboard.writeText(origin + link)
            .then(() => toast(() => t("copied")), () => toast(() => t("copy_failed"), "error")) }, t("copy"))))));
      }
      el.append(box);
    }
    if (isHost()) {
      el.append(h("p.muted", {}, t("host.you")));
      if (st.status === "playing") {
        const kicks = Object.entries(seats).filter(([k, s]) => s.kind === "human" && Number(k) !== st.seat && !s.idle);
        if (kicks.length) {
          el.append(h("div.host-kicks", { role: "group" }, kicks.map(([k]) => h("button", {
            type: "button", dataset: { seat: k }, onclick: () => env.send({ type: "kick", seat: Number(k) }),
          }, t("host.kick", { name: env.seatName(Number(k)) })))));
        }
      }
      if (st.status === "over" && !rematch) {
        el.append(h("button.primary", { type: "button", id: "rematch", onclick: (e) => {
          e.target.disabled = true;
          env.send({ type: "rematch" });
        } }, t("host.rematch")));
      }
    }
    el.hidden = !el.firstChild;
  }

  function onRematch(msg) {
    rematch = msg;
    render();
  }

  return { el, render, isHost, onRematch };
}
