// The lobby: pick a game, players, bots and options; create a room; copy invite links.
import { h, clear, toast, api } from "./dom.js";
import { t, has, onLang } from "./i18n.js";
import { gameName } from "./names.js";
import { lobbyOption, optionName, optionDoc, choiceName } from "./lobby-options.js";

const HUMAN = "human";
// A bot's level (bots/reaction.py): how fast it decides and reacts, never faster than a person can.
export const LEVELS = ["easy", "normal", "hard"];
const DEFAULT_LEVEL = "normal";

// The bot spec a seat sends: the bot's name and its level ("heuristic:level=hard").
export function botSpec(bot, level) { return `${bot}:level=${LEVELS.includes(level) ? level : DEFAULT_LEVEL}`; }

export function rememberRoom(room, data) {
  localStorage.setItem(`cosmodeck.room.${room}`, JSON.stringify(data));
}

export function rememberedRoom(room) {
  try { return JSON.parse(localStorage.getItem(`cosmodeck.room.${room}`) || "null"); } catch { return null; }
}

function playersText(n) {
  return n === 1 ? t("players_one") : t("players_n", { n });
}

export function botName(name) {
  return has(`bot.${name}`) ? t(`bot.${name}`) : t("seat.bot", { name });
}

export async function mountLobby(root) {
  let games = [];
  let created = null;
  try {
    games = await api("GET", "/api/games");
  } catch (e) {
    clear(root).append(h("p.error", {}, e.message));
    return;
  }
  const state = { game: games[0] ? games[0].id : null, players: 2, seats: {}, levels: {}, options: {}, seed: "" };

  function gameOf(id) { return games.find((g) => g.id === id); }
  // a chosen seed would let its chooser compute the others' hidden cards: only against bots
  function humans() { let n = 0; for (let i = 0; i < state.players; i++) if (state.seats[i] === HUMAN) n++; return n; }

  function dataField() {
    const note = h("small.doc", {}, state.dataName ? t("custom_data_chosen", { name: state.dataName }) : t("custom_data_help"));
    const input = h("input", { id: "custom-data", type: "file", accept: ".json,application/json",
      onchange: async (e) => {
        const file = e.target.files[0];
        if (!file) { delete state.options.data; state.dataName = ""; render(); return; }
        state.options.data = await file.text();  // the document itself is sent, never a file name
        state.dataName = file.name;
        render();
      } });
    const reset = state.dataName ? h("button", { type: "button",
      onclick: () => { delete state.options.data; state.dataName = ""; render(); } }, t("standard_cards")) : null;
    return h("div.field", {}, h("label", { for: "custom-data" }, t("custom_data")), input, reset, note);
  }

  function seedField() {
    if (humans() > 1) return h("p.doc", {}, t("seed_secret"));
    return h("div.field", {}, h("label", { for: "seed" }, t("seed")),
      h("input", { id: "seed", type: "number", min: "0", value: state.seed, placeholder: t("random"),
        onchange: (e) => { state.seed = e.target.value; } }),
      h("small.doc", {}, t("seed_help")));
  }

  function resetFor(id) {
    const g = gameOf(id);
    state.game = id;
    state.players = Math.max(g.min_players, Math.min(g.max_players, Math.max(2, g.min_players)));
    state.seats = {};
    state.levels = {};
    for (let i = 0; i < g.max_players; i++) state.seats[i] = i === 0 ? HUMAN : (g.bots[0] || HUMAN);
    state.options = {};
    state.dataName = "";
  }
  if (state.game) resetFor(state.game);

  async function create(ev) {
    ev.preventDefault();
    const g = gameOf(state.game);
    const bots = {};
    for (let i = 0; i < state.players; i++) if (state.seats[i] !== HUMAN) bots[String(i)] = botSpec(state.seats[i], state.levels[i]);
    const body = { game: g.id, players: state.players, bots, options: state.options };
    if (state.seed !== "" && humans() <= 1) body.seed = Number(state.seed);
    try {
      const res = await api("POST", "/api/rooms", body);
      created = { ...res, game: g.id, players: state.players, bots };
      rememberRoom(res.room, created);
      render();
      document.getElementById("created")?.focus();
    } catch (e) {
      toast(() => `${t("error")}: ${e.message}`, "error", 8000);
    }
  }

  function optionField(g, o) {
    const form = lobbyOption(g.id, o, state.players);
    if (!form) return null;  // not a choice made before a game: the default stays
    const id = `opt-${o.name}`;
    const current = o.name in state.options ? state.options[o.name] : o.default;
    const set = (v) => {
      if (JSON.stringify(v) === JSON.stringify(o.default)) delete state.options[o.name];
      else state.options[o.name] = v;
      const note = document.getElementById("false-catch-note");
      if (note) note.replaceWith(falseCatchNote(g) || "");
    };
    const doc = optionDoc(g.id, o.name);
    const docId = `${id}-doc`;
    let input;
    if (form.kind === "check") {
      input = h("input", { id, type: "checkbox", checked: !!current, "aria-describedby": doc ? docId : null,
        onchange: (e) => set(e.target.checked) });
    } else {
      input = h("select", { id, "aria-describedby": doc ? docId : null,
        onchange: (e) => set(form.values[Number(e.target.value)]) },
        form.values.map((c, i) => h("option", { value: String(i), selected: c === current },
          choiceName(g.id, o.name, c, form.seconds))));
    }
    return h("div.field", {}, h("label", { for: id }, optionName(g.id, o.name)), input,
      doc ? h("small.doc", { id: docId }, doc) : null);
  }

  function seatRow(g, i) {
    const id = `seat-${i}`;
    const choices = [HUMAN, ...g.bots];
    const bot = state.seats[i] !== HUMAN;
    const level = state.levels[i] || DEFAULT_LEVEL;
    const levelId = `level-${i}`;
    // Blast Off! explains the reaction to a called number; other games only the time per move
    const doc = `lobby.level.${level}.${g.id === "blast-off" ? "race" : "doc"}`;
    return h("div.field.seat", {},
      h("label", { for: id }, t("player_n", { n: i + 1 })),
      h("select", { id, onchange: (e) => { state.seats[i] = e.target.value; render(); } },
        choices.map((c) => h("option", { value: c, selected: state.seats[i] === c },
          c === HUMAN ? t("seat.human") : botName(c)))),
      bot ? [h("label.level", { for: levelId }, t("lobby.level")),
        h("select.level", { id: levelId, "aria-describedby": `${levelId}-doc`,
          onchange: (e) => { state.levels[i] = e.target.value; render(); } },
          LEVELS.map((lv) => h("option", { value: lv, selected: lv === level }, t(`lobby.level.${lv}`)))),
        h("small.doc", { id: `${levelId}-doc` }, t(doc))] : null);
  }

  // Blast Off!: what a wrong catch costs in this room (the server's default is one card)
  function falseCatchNote(g) {
    const o = g.options.find((x) => x.name === "false_catch_penalty");
    if (!o) return null;
    const n = "false_catch_penalty" in state.options ? state.options.false_catch_penalty : o.default;
    const key = n === 0 ? "free" : n === 1 ? "one" : "n";
    return h("p.doc", { id: "false-catch-note" }, t(`lobby.false_catch.${key}`, { n }));
  }

  function createdPanel() {
    if (!created) return null;
    const links = Object.entries(created.links || {});
    return h("section.card.created", { id: "created", tabindex: "-1", "aria-labelledby": "created-h" },
      h("h2", { id: "created-h" }, t("room_ready", { room: created.room })),
      h("p", {}, t("invite_help")),
      h("ul.links", {}, links.map(([seat, url]) => h("li", {},
        h("span.who", {}, t("player_n", { n: Number(seat) + 1 })),
        h("input.link", { type: "text", readonly: true, value: url, "aria-label": t("invite_for", { n: Number(seat) + 1 }),
          onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: () => copy(url) }, t("copy")),
        h("a.button", { href: url, "data-seat": seat }, t("play_as", { n: Number(seat) + 1 }))))),
      h("p", {}, t("spectator_link"), " ", h("a", { href: created.url }, created.url)));
  }

  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      toast(() => t("copied"));
    } catch {
      toast(() => t("copy_failed"), "error");
    }
  }

  async function recentList() {
    const box = h("section.card", { "aria-labelledby": "recent-h" }, h("h2", { id: "recent-h" }, t("recent_rooms")));
    try {
      const rooms = await api("GET", "/api/rooms");
      if (!rooms.length) box.append(h("p", {}, t("no_rooms")));
      const list = h("ul.rooms");
      for (const r of rooms) {
        const mine = rememberedRoom(r.room);
        const links = [h("a", { href: `/room/${r.room}` }, r.status === "over" ? t("final_board") : t("watch"))];
        if (r.status === "over") links.push(h("a", { href: `/replay/${r.room}` }, t("replay")));
        if (mine && r.status !== "over") {
          for (const [seat, url] of Object.entries(mine.links || {})) {
            links.push(h("a", { href: url }, t("play_as", { n: Number(seat) + 1 })));
          }
        }
        list.append(h("li", {}, h("strong", {}, gameName(r.game)), ` · ${r.room} · `,
          t(`status.${r.status}`), ` · ${playersText(r.players)} · `, ...links.flatMap((a) => [a, " "])));
      }
      box.append(list);
    } catch (e) {
      box.append(h("p.error", {}, e.message));
    }
    return box;
  }

  async function render() {
    const g = gameOf(state.game);
    const form = h("form.card", { onsubmit: create, "aria-labelledby": "new-h" },
      h("h2", { id: "new-h" }, t("new_room")),
      games.length === 0 ? h("p", {}, t("no_games")) : [
        h("div.field", {}, h("label", { for: "game" }, t("game")),
          h("select", { id: "game", onchange: (e) => { resetFor(e.target.value); render(); } },
            games.map((x) => h("option", { value: x.id, selected: x.id === state.game }, gameName(x.id, x.name))))),
        h("p.blurb", {}, t(`blurb.${g.id}`) === `blurb.${g.id}` ? "" : t(`blurb.${g.id}`), " ",
          h("a", { href: `/rules/${g.id}`, id: "rules-link" }, t("rules_and_howto"))),
        h("div.field", {}, h("label", { for: "players" }, t("players")),
          h("select", { id: "players",
            onchange: (e) => { state.players = Math.max(g.min_players, Math.min(g.max_players, Number(e.target.value) || 2)); render(); } },
            Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => g.min_players + i).map((n) =>
              h("option", { value: String(n), selected: n === state.players }, playersText(n)))),
          h("small.doc", {}, t("players_help"))),
        h("fieldset", {}, h("legend", {}, t("seats")),
          Array.from({ length: state.players }, (_, i) => seatRow(g, i))),
        falseCatchNote(g),
        g.options.length ? h("details.options", { open: !!state.optionsOpen, ontoggle: (e) => { state.optionsOpen = e.target.open; } },
          h("summary", {}, t("options"), " ", h("small.muted", {}, t("options_help"))),
          g.options.map((o) => optionField(g, o)), dataField(), seedField()) : null,
        h("button.primary", { type: "submit", id: "create" }, t("create_room")),
      ]);
    // the form is shown at once; the recent rooms fill their place when they arrive
    const recentSlot = h("section.card", { "aria-busy": "true" }, h("p.muted", {}, t("loading")));
    clear(root).append(
      h("h1", {}, t("lobby_title")),
      h("p.lead", {}, t("lobby_lead")),
      h("div.lobby", {}, form, createdPanel(), recentSlot));
    recentSlot.replaceWith(await recentList());
  }

  onLang(() => { if (document.body.contains(root) && !location.pathname.startsWith("/room")) render(); });
  render();
}
