// Meteor: the sand timer and zone, the meteor field, launch sites, your hand (place cards on a
// site), launches and volleys, signals and emotes. Every control comes from the legal actions.
import { h, clear } from "../dom.js";
import { t, has } from "../i18n.js";
import { seatName } from "../names.js";

const KIND = { F: "energy", A: "energy", S: "energy", E: "energy", R: "rocket", T: "tech" };

function cardKind(id) {
  const m = String(id).match(/^([A-Z])/);
  return (m && KIND[m[1]]) || "other";
}

function cardTitle(id) {
  const code = String(id).split("#")[0];
  const kind = cardKind(id);
  return t(`met.card.${kind}`, { code });
}

function group(legal) {
  const g = { place: new Map(), launch: [], signal: [], emote: [], simple: [], site: [], other: [] };
  for (const a of legal) {
    const parts = a.split(" ");
    const verb = parts[0];
    if (verb === "place_card") {
      const list = g.place.get(parts[1]) || [];
      list.push(a);
      g.place.set(parts[1], list);
    } else if (verb === "launch") g.launch.push(a);
    else if (verb === "signal") g.signal.push(a);
    else if (verb === "emote") g.emote.push(a);
    else if (parts.length === 1) g.simple.push(a);
    else if (verb === "discard_project" || verb === "complete_retrofit") g.site.push(a);
    else g.other.push(a);
  }
  return g;
}

// Re-render a panel only when what it shows has changed, so that buttons are not replaced under
// the pointer while other players act (a click needs the same element from press to release).
function memo() {
  const keys = new WeakMap();
  return (box, key, fn) => {
    if (keys.get(box) === key) return;
    keys.set(box, key);
    fn();
  };
}

export function createBoard(root, ctx) {
  const renderIf = memo();
  let msg = null;
  let selected = null;  // a card id in hand
  const status = h("p.met-status", { role: "status", "aria-live": "polite" });
  const timerBox = h("section.card.met-timer");
  const fieldBox = h("section.card.met-field");
  const sitesBox = h("section.card.met-sites");
  const handBox = h("section.card.met-hand");
  const actBox = h("section.card.met-acts");
  const sideBox = h("div.met-side");
  const helpBox = h("details.card.met-help", {}, h("summary", {}, t("met.how_to_play")),
    ...t("met.rules_short").split("\n").map((p) => h("p", {}, p)));
  clear(root).append(h("div.met", {},
    h("div.met-main", {}, status, timerBox, fieldBox, sitesBox, handBox, actBox), sideBox, helpBox));

  function act(a) { selected = null; ctx.act(a); }

  let raf = 0;
  function tick() {
    if (msg && msg.view.timer) {
      const tm = msg.view.timer;
      const left = tm.running && typeof tm.deadline === "number" ? Math.max(0, tm.deadline - ctx.gameTime()) : (tm.remaining ?? 0);
      const sand = timerBox.querySelector(".sand > span");
      const txt = timerBox.querySelector(".left");
      if (sand) sand.style.height = `${Math.min(100, (left / (tm.length || 60)) * 100)}%`;
      if (txt) txt.textContent = t("met.seconds_left", { s: left.toFixed(left < 10 ? 1 : 0) });
      const vol = msg.view.volley;
      const vtxt = timerBox.querySelector(".volley-left");
      if (vol && vtxt && typeof vol.closes === "number") vtxt.textContent = t("met.volley_left", { s: Math.max(0, vol.closes - ctx.gameTime()).toFixed(1) });
    }
    raf = requestAnimationFrame(tick);
  }

  function meteorEl(m, launches) {
    const size = m.face_up && m.size !== undefined ? String(m.size) : (Array.isArray(m.back) ? `${m.back[0]}–${m.back[1]}` : "?");
    const trait = m.face_up && m.trait ? (has(`met.trait.${m.trait}`) ? t(`met.trait.${m.trait}`) : m.trait) : null;
    return h(`div.met-meteor${m.face_up ? ".up" : ""}${m.hit ? ".hit" : ""}`, { dataset: { ref: m.ref } },
      h("div.ref", {}, m.ref), h("div.size", { title: t("met.size_help") }, size),
      h("div.kind", {}, m.face_up ? t("met.revealed") : t("met.hidden_size")),
      trait ? h("div.trait", {}, trait) : null,
      m.store ? h("div.store", {}, t("met.store", { n: m.store })) : null,
      launches.length ? h("div.launches", {}, launches.map((a) => h("button.met-launch", { type: "button", "data-action": a, onclick: () => act(a) },
        t("met.launch_from", { site: a.split(" ")[1] }) + (a.split(" ").length > 3 ? ` (${a.split(" ").slice(3).join(" ")})` : "")))) : null);
  }

  function render() {
    const v = msg.view;
    const me = ctx.seat;
    const g = group(ctx.readonly ? [] : msg.legal);
    // status
    let s;
    if (v.over) s = v.result && v.result.team_win ? t("met.status_won") : t("met.status_lost");
    else if (v.phase === "setup") s = g.simple.includes("start") ? t("met.status_setup_host") : t("met.status_setup");
    else if (v.time_out) s = t("met.status_time_out");
    else if (selected) s = t("met.status_pick_site", { card: cardTitle(selected) });
    else s = t("met.status_play");
    status.textContent = s;
    // timer and zone
    clear(timerBox).append(
      h("div.met-zone", {}, h("div.z", {}, String(v.zone ?? "")), h("div", {}, h("strong", {}, `${t("met.zone")} ${v.zone ?? ""} · ${v.zone_name || ""}`),
        h("div.muted", {}, t("met.zones_left", { list: (v.zones_left || []).join(" → ") })))),
      h("div.sand", { "aria-hidden": "true" }, h("span")),
      h("div", {}, h("div.left", {}, ""), v.volley ? h("div.volley-left.warn", {}, "") : null,
        v.time_out ? h("div.warn", {}, t("met.time_out_on")) : null,
        h("div.muted", {}, t("met.decks", { m: v.meteor_deck, r: v.resource_deck }))));
    // field
    const launchByTarget = new Map();
    for (const a of g.launch) {
      const target = a.split(" ")[2];
      launchByTarget.set(target, [...(launchByTarget.get(target) || []), a]);
    }
    renderIf(fieldBox, JSON.stringify([v.field, g.launch]), () => clear(fieldBox).append(h("h2", {}, t("met.field", { n: (v.field || []).length })),
      h("div.met-meteors", {}, (v.field || []).map((m) => meteorEl(m, launchByTarget.get(m.ref) || [])))));
    // sites
    const placeTargets = new Map();
    if (selected && g.place.get(selected)) for (const a of g.place.get(selected)) placeTargets.set(a.split(" ")[2], a);
    renderIf(sitesBox, JSON.stringify([v.sites, [...placeTargets], g.site, selected]), () => {
    clear(sitesBox).append(h("h2", {}, t("met.sites")));
    const sites = h("div.met-sites-list");
    for (const site of v.sites || []) {
      const a = placeTargets.get(site.site);
      const siteActs = g.site.filter((x) => x.split(" ")[1] === site.site);
      sites.append(h(`div.met-site${a ? ".target" : ""}${site.built ? ".built" : ""}`, { dataset: { site: site.site } },
        h("div", {}, h("strong", {}, `${site.site} · ${site.name}`), " · ", seatName(v, site.seat), site.seat === me ? ` (${t("you")})` : ""),
        h("div.muted", {}, t("met.site_status", { status: has(`met.status.${site.status}`) ? t(`met.status.${site.status}`) : site.status }),
          site.project ? ` · ${site.project}` : "", site.damage ? ` · ${t("met.damage", { n: site.damage })}` : "",
          site.missing ? ` · ${t("met.missing", { list: Array.isArray(site.missing) ? site.missing.join("") : site.missing })}` : "",
          site.countdown !== null && site.countdown !== undefined ? ` · ${t("met.countdown", { s: site.countdown })}` : ""),
        h("div.cards", {}, (site.cards || []).map((c) => h(`span.met-card.${cardKind(c)}`, { title: cardTitle(c) }, String(c).split("#")[0]))),
        a ? h("button.primary", { type: "button", "data-action": a, onclick: () => act(a) }, t("met.place_here")) : null,
        siteActs.map((x) => h("button", { type: "button", "data-action": x, onclick: () => act(x) }, t(`met.verb.${x.split(" ")[0]}`)))));
    }
    sitesBox.append(sites);
    });
    // hand
    const hand = me !== null && me !== undefined && v.hands ? v.hands.find((x) => x.seat === me) : null;
    renderIf(handBox, JSON.stringify([hand, [...g.place.keys()], selected]), () => {
    clear(handBox);
    if (!hand) {
      handBox.append(h("h2", {}, t("met.spectating")));
    } else {
      handBox.append(h("h2", {}, t("met.your_hand", { n: hand.count })), h("p.muted", {}, t("met.hand_help")));
      const list = h("div.met-cards", { role: "group" });
      for (const c of hand.cards || []) {
        const playable = g.place.has(c);
        list.append(h(`button.met-card.${cardKind(c)}${selected === c ? ".selected" : ""}`, {
          type: "button", disabled: !playable, "aria-pressed": String(selected === c), title: cardTitle(c), "data-card": c,
          onclick: () => { selected = selected === c ? null : c; render(); },
        }, String(c).split("#")[0]));
      }
      handBox.append(list);
    }
    });
    // actions: pass, start, time out / resume, signals and emotes
    renderIf(actBox, JSON.stringify([g.simple, g.signal, g.emote, g.other]), () => {
    clear(actBox);
    const rows = [];
    if (g.simple.length) rows.push(h("div.row", {}, g.simple.map((a) => h(a === "pass" ? "button.primary" : "button", { type: "button", "data-action": a, onclick: () => act(a) }, has(`met.verb.${a}`) ? t(`met.verb.${a}`) : a))));
    if (g.signal.length || g.emote.length) {
      rows.push(h("div.row", {}, h("span", {}, t("met.signals")), g.signal.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, `« ${has(`signal.${a.split(" ")[1]}`) ? t(`signal.${a.split(" ")[1]}`) : a.split(" ")[1]} »`))));
      const plain = g.emote.filter((a) => a.split(" ").length === 2);
      rows.push(h("div.row", {}, h("span", {}, t("emotes")), plain.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, has(`emote.${a.split(" ")[1]}`) ? t(`emote.${a.split(" ")[1]}`) : a.split(" ")[1]))));
      const points = g.emote.filter((a) => a.split(" ").length === 3);
      if (points.length) rows.push(h("div.row", {}, h("span", {}, t("emote.point")), points.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, a.split(" ")[2]))));
    }
    if (g.other.length) rows.push(h("details", {}, h("summary", {}, t("met.other_actions")), h("div.actions", {}, g.other.map((a) => h("button.action", { type: "button", "data-action": a, onclick: () => act(a) }, a)))));
    if (rows.length) actBox.append(h("h2", {}, t("your_actions")), ...rows);
    actBox.hidden = rows.length === 0;
    });
    // side: team, techs, passes
    clear(sideBox).append(h("section.card", {}, h("h2", {}, t("met.team")),
      (v.hands || []).map((x) => h("div.met-player", {}, h("strong", {}, seatName(v, x.seat)), x.seat === me ? ` (${t("you")})` : "",
        ` · ${t("met.cards_n", { n: x.count })}`, v.passes && v.passes[x.seat] ? ` · ${t("met.passing")}` : ""))),
    h("section.card", {}, h("h2", {}, t("met.techs")), (v.techs || []).length ? h("ul", {}, v.techs.map((x) => h("li", {}, typeof x === "string" ? x : (x.name || x.key || x.id || JSON.stringify(x))))) : h("p.muted", {}, t("none"))),
    h("section.card", {}, h("h2", {}, t("met.talk_rules")), h("p.muted", {}, v.talk && v.talk.chat ? t("met.talk_free") : t("met.talk_limited"))));
    if (!raf) raf = requestAnimationFrame(tick);
  }

  return {
    talkActions: true,
    update(m) { msg = m; if (selected && !(m.legal || []).some((a) => a.startsWith(`place_card ${selected} `))) selected = null; render(); },
    events() {},
    destroy() { cancelAnimationFrame(raf); clear(root); },
  };
}
