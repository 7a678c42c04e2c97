// Meteor: the sand timer and zone, the meteor field, launch sites, your hand (place cards on a
// site), launches and volleys, Powers and Challenges, signals and emotes. Every control comes from
// the legal actions; every card is drawn from the data file's catalogue (meteor-cards.js); every
// event is a sentence (meteor-events.js).
import { h, clear } from "../dom.js";
import { t, has } from "../i18n.js";
import { seatName } from "../names.js";
import * as C from "./meteor-cards.js";
import { specialsBox, otherHands, oneHandedLeft, hasChallenge } from "./meteor-specials.js";
import { resultDetails as resultBox } from "./meteor-result.js";
import { group, launchLabel, overkillNote, describeAction as describe } from "./meteor-actions.js";
import "./meteor-events.js";

const TOUCH = !!window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

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

export function describeAction(action, view, seat) { return describe(action, view, seat); }

export function createBoard(root, ctx) {
  let renderIf = memo();
  let msg = null;
  let selected = null;  // a card id (or "@i" for Backwards) in hand
  // One-Handed: the placements offered before a cool-down; the server sends no new view when the
  // cool-down ends, so they are offered again then (the server still checks each one)
  let placeBefore = new Map();
  let cooling = false;
  const status = h("p.met-status", { role: "status", "aria-live": "polite" });
  const timerBox = h("section.card.met-timer");
  const fieldBox = h("section.card.met-field");
  const sitesBox = h("section.card.met-sites");
  const handBox = h("section.card.met-hand");
  const actBox = h("section.card.met-acts");
  const sideBox = h("div.met-side");
  const helpBox = h("details.card.met-help");
  // a tap (or click) on a card face or a meteor shows it in full: touch screens have no hover
  const peekBox = h("p.met-peek.met-tapped", { hidden: true, "aria-live": "polite" });
  root.addEventListener("click", (e) => {
    const el = e.target.closest("span.met-card, .met-meteor");
    if (!el || e.target.closest("button") || !el.title) return;
    peekBox.textContent = el.title;
    peekBox.hidden = false;
  });
  clear(root).append(h("div.met", {},
    h("div.met-main", {}, status, peekBox, timerBox, fieldBox, sitesBox, handBox, actBox), sideBox, helpBox));

  function act(a) { selected = null; ctx.act(a); }
  const now = () => (typeof ctx.gameTime === "function" ? ctx.gameTime() : 0);

  let raf = 0;
  function tick() {
    raf = 0;
    if (!msg || !msg.view) return;
    const v = msg.view;
    if (v.timer) {
      const tm = v.timer;
      const left = tm.running && typeof tm.deadline === "number" ? Math.max(0, tm.deadline - now()) : (tm.remaining ?? tm.length ?? 0);
      const sand = timerBox.querySelector(".sand > span");
      const txt = timerBox.querySelector(".left");
      if (sand) sand.style.height = v.over ? "0%" : `${Math.min(100, (left / (tm.length || 60)) * 100)}%`;
      if (txt) txt.textContent = v.over ? "" : t("met.seconds_left", { s: left.toFixed(left < 10 ? 1 : 0) });
      const vol = v.volley;
      const vtxt = timerBox.querySelector(".volley-left");
      if (vol && vtxt && typeof vol.closes === "number") vtxt.textContent = t("met.volley_left", { s: Math.max(0, vol.closes - now()).toFixed(1) });
    }
    const oh = handBox.querySelector(".met-one-handed");
    if (oh) {
      const left = oneHandedLeft(v, ctx.seat, now());
      if (cooling && left <= 0) { cooling = false; render(); return; }
      const gap = Number((v.options || {}).one_handed_interval_s || 0);
      oh.textContent = left > 0 ? t("met.one_handed_wait", { s: left.toFixed(1) }) : t("met.one_handed_ready", { s: gap });
      oh.classList.toggle("warn", left > 0);
    }
    if (!v.over && !ctx.readonly) raf = requestAnimationFrame(tick);
  }

  function meteorEl(v, m, launches, g) {
    const [a, b] = C.sizeRange(m);
    const boss = m.kind === "boss";
    const size = m.face_up && typeof m.size === "number" ? String(m.size) : C.backText(m);
    const trait = m.face_up && m.trait ? C.traitName(v, m.trait) : "";
    const full = [C.meteorName(m.ref), boss ? t("met.boss") : "", m.face_up ? t("met.size_exact", { n: m.size }) : t("met.size_range", { a, b }),
      trait ? `${trait}: ${C.traitText(v, m.trait)}` : ""].filter(Boolean).join(" · ");
    const spot = g.power.filter((x) => x.startsWith("use_power spotter ") && x.split(" ")[2] === m.ref);
    const pending = ((v.volley && v.volley.launches) || []).filter((l) => l.target === m.ref).reduce((s, l) => s + l.damage + (l.demolition ? 1 : 0), 0);
    return h(`div.met-meteor${m.face_up ? ".up" : ""}${m.hit ? ".hit" : ""}${boss ? ".boss" : ""}`, { dataset: { ref: m.ref }, title: full },
      h("div.ref", {}, C.meteorName(m.ref), boss ? h("span.met-boss", {}, ` ${t("met.boss")}`) : null),
      boss && m.face_up && m.id ? h("div.met-boss-name", {}, C.bossName(v, m)) : null,
      h("div.size", { title: t("met.size_help") }, size),
      h("div.kind", {}, m.face_up ? t("met.revealed") : t("met.hidden_size")),
      trait ? h("div.trait", { title: C.traitText(v, m.trait) }, trait) : null,
      trait ? h("div.trait-text", {}, C.traitText(v, m.trait)) : null,
      m.shield_spent ? h("div.store", {}, t("met.shield_spent")) : null,
      m.store ? h("div.store", {}, t("met.store", { n: m.store })) : null,
      pending ? h("div.store.warn", {}, t("met.volley_pending", { n: pending })) : null,
      launches.length ? h("div.launches", {}, launches.map((x) => {
        const note = overkillNote(v, x, m, pending);
        return h(`button.met-launch${note.level === "sure" ? ".overkill" : note.level === "maybe" ? ".risk" : ""}`,
          { type: "button", "data-action": x, title: `${C.siteName(v, x.split(" ")[1])}: ${note.text}`, onclick: () => act(x) },
          h("span", {}, launchLabel(v, x)), h("small.met-launch-note", {}, note.text));
      })) : null,
      spot.map((x) => h("button", { type: "button", "data-action": x, onclick: () => act(x) },
        t("met.use_spotter", { power: C.specialName(v, "power", C.specialId(v, "power", "spotter")) }))));
  }

  function siteEl(v, site, placeTarget, siteActs, g) {
    const me = ctx.seat;
    const st = has(`met.status.${site.status}`) ? t(`met.status.${site.status}`) : t("met.status.other");
    const f = site.project ? C.face(v, site.project) : null;
    // the project type from the data file's texts (a rocket or technology by its card)
    const type = { open: "open", rocket_retrofit: "retrofit", dead: "dead" }[site.status];
    const head = f ? (f.kind === "rocket" ? t("met.project_rocket", { n: f.damage }) : C.techName(v, site.project)) : "";
    const project = [head, type && (!f || type === "dead") ? C.dataText(v, `project.${type}`) : ""].filter(Boolean).join(" · ");
    const mech = g.power.filter((x) => x.startsWith("use_power mechanic ") && x.split(" ")[2] === site.site);
    return h(`div.met-site${placeTarget ? ".target" : ""}${site.built ? ".built" : ""}`, { dataset: { site: site.site, missing: site.missing || "", status: site.status } },
      h("div", {}, h("strong", {}, C.siteName(v, site.site)), " · ", seatName(v, site.seat), site.seat === me ? ` (${t("you")})` : ""),
      h("div.muted", {}, [project, st].filter(Boolean).join(" · "),
        site.missing ? h("span", {}, ` · ${t("met.missing", { list: "" })}`, C.pips(v, site.missing)) : null,
        site.countdown !== null && site.countdown !== undefined ? ` · ${t("met.countdown", { s: Math.max(0, site.countdown - now()).toFixed(1) })}` : ""),
      h("div.cards", {}, (site.cards || []).map((c) => C.cardSpan(v, c, ".small"))),
      placeTarget ? h("button.primary", { type: "button", "data-action": placeTarget, onclick: () => act(placeTarget) }, t("met.place_here")) : null,
      siteActs.map((x) => h("button", { type: "button", "data-action": x, onclick: () => act(x) }, t(`met.verb.${x.split(" ")[0]}`))),
      mech.map((x) => h("button", { type: "button", "data-action": x, onclick: () => act(x) },
        t("met.use_mechanic", { card: C.cardName(v, x.split(" ")[3]), power: C.specialName(v, "power", C.specialId(v, "power", "mechanic")) }))));
  }

  function handEl(v, hand, g) {
    const me = ctx.seat;
    const backwards = hasChallenge(v, me, "backwards");
    const out = [h("h2", {}, t("met.your_hand", { cards: t(hand.count === 1 ? "met.cards_one" : "met.cards_n", { n: hand.count }) })),
      ...(v.over ? [] : [h("p.muted", {}, backwards ? t("met.backwards_help") : t(TOUCH ? "met.hand_help_touch" : "met.hand_help"))])];
    const tokens = backwards ? Array.from({ length: hand.count }, (_, i) => `@${i}`) : (hand.cards || []);
    const list = h("div.met-cards", { role: "group" });
    let greyed = 0;
    tokens.forEach((c, i) => {
      const playable = g.place.has(c);
      if (!playable) greyed++;
      const sel = selected === c;
      const click = () => { selected = sel ? null : c; render(); };
      if (ctx.readonly) {
        list.append(backwards ? h("span.met-card.back", { title: t("met.card_back_title", { n: i + 1 }) }, h("span.met-face-name", {}, t("met.card_back", { n: i + 1 })))
          : C.cardSpan(v, c));
      } else if (backwards) {
        list.append(h(`button.met-card.back${sel ? ".selected" : ""}`, { type: "button", disabled: !playable, "aria-pressed": String(sel),
          title: t("met.card_back_title", { n: i + 1 }), "data-card": c, onclick: click }, h("span.met-face-kind", {}, "☄"), h("span.met-face-name", {}, t("met.card_back", { n: i + 1 }))));
      } else {
        list.append(h(`button.met-card.${C.cardClass(v, c)}${sel ? ".selected" : ""}`, { type: "button", disabled: !playable, "aria-pressed": String(sel),
          title: C.cardFull(v, c), "data-card": c, style: C.cardStyle(v, c), onclick: click }, C.cardBody(v, c)));
      }
    });
    out.push(list);
    if (hasChallenge(v, me, "one_handed")) out.push(h("p.met-one-handed", { role: "status" }, ""));
    if (greyed && tokens.length && !v.over && v.phase === "play" && !ctx.readonly) out.push(h("p.muted", {}, t("met.greyed")));
    if (selected) {
      out.push(h("p.met-peek", {}, t("met.peek", { text: backwards ? t("met.card_back_title", { n: Number(selected.slice(1)) + 1 }) : C.cardFull(v, selected) })));
      const give = g.power.filter((x) => x.startsWith(`use_power courier ${selected} `));
      if (give.length) out.push(h("div.row", {}, give.map((x) => h("button", { type: "button", "data-action": x, onclick: () => act(x) },
        t("met.use_courier", { name: seatName(v, Number(x.split(" ")[3].slice(1))), power: C.specialName(v, "power", C.specialId(v, "power", "courier")) })))));
    }
    return out;
  }

  function render() {
    if (!msg || !msg.view) return;
    const v = msg.view;
    const me = ctx.seat;
    const g = group(ctx.readonly ? [] : (msg.legal || []));
    if (!ctx.readonly && hasChallenge(v, me, "one_handed") && v.phase === "play" && !v.over) {
      const left = oneHandedLeft(v, me, now());
      if (g.place.size) placeBefore = g.place;
      else if (left > 0) cooling = true;
      else if (typeof v.now === "number" && oneHandedLeft(v, me, v.now) > 0) {
        // this view was made during the cool-down, which alone explains why no card could be placed
        const hand = (v.hands || []).find((x) => x.seat === me);
        const held = new Set((hand && hand.cards) || []);
        for (const [card, list] of placeBefore) if (held.has(card)) g.place.set(card, list);
      }
    }
    let s;
    if (v.over) s = v.outcome && v.outcome.win ? t("met.status_won") : t("met.status_lost");
    else if (v.phase === "setup") s = g.simple.includes("start") ? t("met.status_setup_host") : t("met.status_setup");
    else if (v.time_out) s = t("met.status_time_out");
    else if (selected) s = t("met.status_pick_site", { card: selected.startsWith("@") ? t("met.card_back", { n: Number(selected.slice(1)) + 1 }) : C.cardName(v, selected) });
    else s = me === null || me === undefined || ctx.readonly ? t("met.status_watch") : t("met.status_play");
    status.textContent = s;
    // timer and zone
    clear(timerBox).append(
      h("div.met-zone", {}, h("div.z", {}, String(v.zone ?? "")), h("div", {}, h("strong", {}, `${t("met.zone")} ${v.zone ?? ""} · ${C.zoneName(v, v.zone)}`),
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
    const field = v.field || [];
    renderIf(fieldBox, JSON.stringify([field, g.launch, g.power, v.volley, v.sites]), () => clear(fieldBox).append(
      h("h2", {}, t("met.field", { meteors: t(field.length === 1 ? "met.meteors_one" : "met.meteors_n", { n: field.length }) })),
      h("div.met-meteors", {}, field.map((m) => meteorEl(v, m, launchByTarget.get(m.ref) || [], g)))));
    // sites
    const placeTargets = new Map();
    if (selected && g.place.get(selected)) for (const a of g.place.get(selected)) placeTargets.set(a.split(" ")[2], a);
    renderIf(sitesBox, JSON.stringify([v.sites, [...placeTargets], g.site, g.power, selected, Math.floor(now())]), () => {
      clear(sitesBox).append(h("h2", {}, t("met.sites")));
      sitesBox.append(h("div.met-sites-list", {}, (v.sites || []).map((site) =>
        siteEl(v, site, placeTargets.get(site.site), g.site.filter((x) => x.split(" ")[1] === site.site), g))));
    });
    // hand
    const hand = me !== null && me !== undefined && v.hands ? v.hands.find((x) => x.seat === me) : null;
    renderIf(handBox, JSON.stringify([hand, [...g.place.keys()], g.power, selected, v.challenges, v.over]), () => {
      clear(handBox).append(...(hand ? handEl(v, hand, g) : [h("h2", {}, t("met.spectating"))]));
    });
    // actions: pass, start, time out / resume, powers, signals and emotes
    renderIf(actBox, JSON.stringify([g.simple, g.signal, g.emote, g.power, g.launch.length]), () => {
      clear(actBox);
      const rows = [];
      const simple = g.simple.filter((a) => has(`met.verb.${a}`));
      if (simple.length) rows.push(h("div.row", {}, simple.map((a) => h(a === "pass" ? "button.primary" : "button", { type: "button", "data-action": a, onclick: () => act(a) }, t(`met.verb.${a}`)))));
      const flip = g.power.filter((a) => a === "use_power chronometrist");
      if (flip.length) rows.push(h("div.row", {}, flip.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) },
        t("met.use_chronometrist", { power: C.specialName(v, "power", C.specialId(v, "power", "chronometrist")) })))));
      if (g.signal.length || g.emote.length) {
        rows.push(h("div.row", {}, h("span", {}, t("met.signals")), g.signal.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) },
          `« ${has(`signal.${a.split(" ")[1]}`) ? t(`signal.${a.split(" ")[1]}`) : t("met.a_signal")} »`))));
        const plain = g.emote.filter((a) => a.split(" ").length === 2 && has(`emote.${a.split(" ")[1]}`));
        rows.push(h("div.row", {}, h("span", {}, t("emotes")), plain.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, t(`emote.${a.split(" ")[1]}`)))));
        const points = g.emote.filter((a) => a.split(" ").length === 3);
        if (points.length) rows.push(h("div.row", {}, h("span", {}, t("emote.point")), points.map((a) => {
          const tg = a.split(" ")[2];
          return h("button", { type: "button", "data-action": a, onclick: () => act(a) }, tg.startsWith("m") ? C.meteorName(tg) : C.siteName(v, tg));
        })));
      }
      if (rows.length) actBox.append(h("h2", {}, t("your_actions")), ...rows);
      actBox.hidden = rows.length === 0;
    });
    // side: team, Powers and Challenges, techs, talk rules
    const seen = otherHands(v, me);
    renderIf(sideBox, JSON.stringify([v.hands, v.passes, v.powers, v.challenges, v.techs, v.talk, me]), () => clear(sideBox).append(...[
      h("section.card.met-team", {}, h("h2", {}, t("met.team")),
        (v.hands || []).map((x) => h("div.met-player", {}, h("strong", {}, seatName(v, x.seat)), x.seat === me ? ` (${t("you")})` : "",
          ` · ${t(x.count === 1 ? "met.cards_one" : "met.cards_n", { n: x.count })}`, v.passes && v.passes[x.seat] ? ` · ${t("met.passing")}` : "")),
        seen),
      specialsBox(v, me),
      h("section.card", {}, h("h2", {}, t("met.techs")), (v.techs || []).length
        ? h("ul.met-techs", {}, v.techs.map((x) => h("li", {}, h("strong", {}, C.techName(v, x.id)), ": ", C.dataText(v, `tech.${C.baseId(x.id)}.text`))))
        : h("p.muted", {}, t("met.none_techs"))),
      h("section.card", {}, h("h2", {}, t("met.talk_rules")), h("p.muted", {}, v.talk && v.talk.chat ? t("met.talk_free") : t("met.talk_limited")))].filter(Boolean)));
    renderIf(helpBox, `${v.difficulty}`, () => clear(helpBox).append(h("summary", {}, t("met.how_to_play")),
      ...t("howto.meteor").split("\n").map((p) => h("p", {}, p)),
      ...(v.difficulty && v.difficulty !== "standard" ? [h("p", {}, t("met.help_advanced"))] : [])));
    if (!raf) raf = requestAnimationFrame(tick);
  }

  return {
    talkActions: true,
    ownsTimer: true,
    update(m) {
      msg = m;
      if (selected && !(m.legal || []).some((a) => a.startsWith(`place_card ${selected} `) || a.startsWith(`use_power courier ${selected} `))) selected = null;
      render();
    },
    events() {},
    resultDetails(v) { return resultBox(v); },
    // a language change redraws every panel at once, keeping the card the player had selected
    relabel() { renderIf = memo(); render(); },
    destroy() { cancelAnimationFrame(raf); raf = 0; msg = null; clear(root); },
  };
}
