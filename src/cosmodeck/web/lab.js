// The design lab (/lab, served only by `cosmodeck serve --lab`): edit a game's card data as forms or JSON,
// check it with the engine's loader (every error next to its field), run simulate or compare in a worker
// process with a progress bar, read the report in the page and download its CSV and JSON files.
import { initI18n, setLang, getLang, onLang, t, has } from "./i18n.js";
import { h, clear } from "./dom.js";

import { META, isRowList, isRowDict, rowName, secLabel, tokens, pathOf, fieldText as fieldTextIn, renderForms,
  markAncestors } from "./lab-forms.js";

const S = { games: [], game: null, doc: null, packaged: null, view: "forms", errors: [], warnings: [],
  checked: null, job: null, timer: null, checkTimer: null, running: false, open: new Set(), jsonError: null };
let root;

async function call(method, path, body) {
  const r = await fetch(path, { method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({}));
  if (data.code === "lab_login_required" || data.code === "lab_bad_token") {
    location.reload(); // the lab cookie is gone or stale: the lab's door page explains what to do
  }
  if (!r.ok) { const e = new Error(data.message || r.statusText); e.data = data; e.status = r.status; throw e; }
  return data;
}

const gameName = (g) => (has(`game.${g.id}`) ? t(`game.${g.id}`) : g.name);
const fieldText = (field) => fieldTextIn(S.doc, field);

// after every change in the forms: mark what changed, check the file again soon, say what changed
function edited(el) {
  markAncestors(S, el);
  S.checked = null;
  clearTimeout(S.checkTimer);
  S.checkTimer = setTimeout(() => check(), 600);
  renderStatus();
}

function firstList() {
  const preferred = { "shooting-star": "destruction_set", "blast-off": "missions", meteor: "rockets" }[S.game.id];
  if (preferred && isRowList(S.doc[preferred])) return preferred;
  return Object.keys(S.doc).find((k) => !META.has(k) && isRowList(S.doc[k]));
}

function jsonEditor() {
  const area = h("textarea.json", { spellcheck: "false", "aria-label": t("lab.json_label") });
  area.value = S.jsonText ?? JSON.stringify(S.doc, null, 1);
  const msg = h("div", { role: "status" });
  const parse = () => {
    try { return [JSON.parse(area.value), null]; } catch (e) { return [null, e.message]; }
  };
  // valid JSON is taken as you type, so the forms show it at once; invalid JSON stays here until it parses
  area.addEventListener("input", () => {
    S.jsonText = area.value;
    const [doc, why] = parse();
    clear(msg);
    if (why !== null || !doc || typeof doc !== "object" || Array.isArray(doc)) {
      S.jsonError = why ?? t("lab.json_not_object");
      msg.append(h("p.warn", {}, t("lab.json_invalid", { why: S.jsonError })));
      return;
    }
    S.jsonError = null;
    S.doc = doc;
    edited(area);
  });
  const apply = h("button", { type: "button", onclick: () => {
    const [doc, why] = parse();
    if (why !== null || !doc || typeof doc !== "object" || Array.isArray(doc)) {
      S.jsonError = why ?? t("lab.json_not_object");
      clear(msg).append(h("div.err", { role: "alert" }, t("lab.json_invalid", { why: S.jsonError })));
      return;
    }
    S.doc = doc; S.jsonText = null; S.jsonError = null; S.view = "forms";
    S.checked = null; check(); renderData();
  } }, t("lab.json_apply"));
  if (S.jsonError) msg.append(h("p.warn", {}, t("lab.json_invalid", { why: S.jsonError })));
  return h("div", {}, h("p.muted", {}, t("lab.json_help")), area, h("div.row", {}, apply, msg));
}

function placeErrors(box) {
  for (const e of box.querySelectorAll(".err.engine")) e.remove();
  for (const e of box.querySelectorAll("[aria-invalid=true]")) {
    if (!e.parentElement.querySelector(":scope > .err.local")) e.removeAttribute("aria-invalid");
  }
  for (const err of S.errors) {
    let parts = tokens(err.field);
    let target = null;
    while (parts.length && !target) {
      target = box.querySelector(`[data-path="${CSS.escape(pathOf(parts))}"]`);
      if (!target) parts = parts.slice(0, -1);
    }
    if (!target) continue;
    const note = h("div.err.engine", { role: "alert" }, err.problem);
    if (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA") {
      target.setAttribute("aria-invalid", "true");
      target.after(note);
    } else if (target.tagName === "TR") {
      target.firstChild.append(note);
    } else if (target.tagName === "DETAILS") {
      target.open = true;
      S.open.add(target.dataset.path);
      target.querySelector("summary").after(note);
    } else { // a nested field (fieldset), a list, a list item
      target.setAttribute("aria-invalid", "true");
      target.append(note);
    }
    const sec = target.closest("details");
    if (sec) { sec.open = true; S.open.add(sec.dataset.path); }
  }
}

function renderData() {
  const box = document.getElementById("lab-data");
  clear(box);
  const tabs = h("div.tabs", { role: "tablist" },
    ["forms", "json"].map((v) => h("button", { type: "button", role: "tab", "aria-selected": String(S.view === v),
      onclick: () => {
        if (v === "forms" && S.view === "json" && S.jsonError) { // do not drop the expert's unparsed text
          box.querySelector("[role=status]")?.replaceChildren(h("div.err", { role: "alert" },
            t("lab.json_invalid", { why: S.jsonError })));
          return;
        }
        S.view = v; S.jsonText = null; renderData();
      } }, t(`lab.view_${v}`))),
    h("button", { type: "button", onclick: () => {
      S.doc = structuredClone(S.packaged); S.checked = null; S.errors = []; S.jsonText = null; S.jsonError = null;
      renderData(); renderStatus();
    } }, t("lab.reset")));
  box.append(tabs, S.view === "forms" ? renderForms(S, { edited }) : jsonEditor());
  placeErrors(box);
}

function renderStatus() {
  const box = document.getElementById("lab-check");
  if (!box) return;
  clear(box);
  const changed = changes();
  const list = changed.length > 6 ? t("lab.changed_more", { list: changed.slice(0, 6).join(", "), n: changed.length - 6 })
    : changed.join(", ");
  box.append(h("p", {}, changed.length ? t("lab.changed", { list }) : t("lab.unchanged")));
  if (S.checked === "checking") box.append(h("p.muted", {}, t("lab.checking")));
  else if (S.errors.length) {
    box.append(h("p.err", { role: "alert" }, S.errors.length === 1 ? t("lab.n_problems_one") : t("lab.n_problems", { n: S.errors.length })),
      h("ul.problems", {}, S.errors.map((e) => h("li.err", {}, `${fieldText(e.field)}: ${e.problem}`))));
  } else if (S.checked === "ok") box.append(h("p.ok", {}, t("lab.valid")));
  for (const w of S.warnings) box.append(h("p.warn", {}, t("lab.warning", { text: w })));
  const run = document.getElementById("lab-run");
  if (run) run.disabled = S.running || S.errors.length > 0;
}

function changes() {
  const out = [];
  for (const [key, value] of Object.entries(S.doc)) {
    const orig = S.packaged[key];
    if (JSON.stringify(orig) === JSON.stringify(value)) continue;
    if (isRowList(value) && Array.isArray(orig)) {
      value.forEach((r, i) => { if (JSON.stringify(r) !== JSON.stringify(orig[i])) out.push(`${secLabel(key)} ${rowName(r, i)}`); });
      if (orig.length > value.length) out.push(t("lab.rows_removed", { what: secLabel(key), n: orig.length - value.length }));
    } else if (isRowDict(value) && isRowDict(orig)) {
      for (const k of new Set([...Object.keys(orig), ...Object.keys(value)])) {
        if (JSON.stringify(value[k]) !== JSON.stringify(orig[k])) out.push(`${secLabel(key)} ${k}`);
      }
    } else out.push(secLabel(key));
  }
  return out;
}

async function check() {
  S.checked = "checking";
  renderStatus();
  const sent = JSON.stringify(S.doc);
  try {
    const r = await call("POST", "/api/lab/validate", { game: S.game.id, data: sent, lenient: lenient() });
    if (sent !== JSON.stringify(S.doc)) return; // edited again meanwhile: a newer check follows
    S.errors = r.errors; S.warnings = r.warnings; S.checked = r.ok ? "ok" : "bad";
  } catch (e) {
    S.checked = null;
    S.errors = e.data && e.data.errors ? e.data.errors : [{ field: "(file)", problem: e.message }];
  }
  renderStatus();
  placeErrors(document.getElementById("lab-data"));
}

const lenient = () => Boolean(document.getElementById("lab-lenient")?.checked);
const val = (id) => document.getElementById(id).value;

function runPanel() {
  const g = S.game;
  const mode = h("select", { "aria-label": t("lab.mode") },
    h("option", { value: "compare" }, t("lab.mode_compare")), h("option", { value: "simulate" }, t("lab.mode_simulate")));
  mode.id = "lab-mode";
  const num = (id, value, min, max) => { const el = h("input", { type: "number", value: String(value), min: String(min), max: String(max), step: "1" }); el.id = id; return el; };
  const bots = h("select", {}, g.bots.map((b) => h("option", { value: b, selected: b === "heuristic" }, t(`lab.bot_${b}`))));
  bots.id = "lab-bots";
  const len = h("input", { type: "checkbox", onchange: () => check() }); len.id = "lab-lenient";
  const run = h("button.primary", { type: "button", onclick: start }, t("lab.run")); run.id = "lab-run";
  return h("div", {},
    h("div.row", {},
      h("label", {}, t("lab.mode"), mode),
      h("label", {}, t("lab.players"), num("lab-players", Math.min(Math.max(g.min_players, 4), g.max_players), g.min_players, g.max_players)),
      h("label", {}, t("lab.games"), num("lab-games", 200, 2, g.max_games)),
      h("label", {}, t("lab.bots"), bots),
      h("label", {}, t("lab.seed"), num("lab-seed", 0, 0, 2 ** 31)),
      h("label.inline", {}, len, t("lab.lenient")),
      run),
    h("p.muted", {}, t("lab.limits", { games: g.max_games.toLocaleString(getLang()) })));
}

async function start() {
  const mode = val("lab-mode");
  const body = { game: S.game.id, mode, players: Number(val("lab-players")), games: Number(val("lab-games")),
    seed: Number(val("lab-seed")), bots: val("lab-bots"), lenient: lenient(),
    data: mode === "simulate" && !changes().length ? null : JSON.stringify(S.doc) };
  const out = document.getElementById("lab-result");
  clear(out);
  try {
    S.job = await call("POST", "/api/lab/jobs", body);
  } catch (e) {
    if (e.data && e.data.errors) { S.errors = e.data.errors; renderStatus(); placeErrors(document.getElementById("lab-data")); }
    out.append(h("p.err", { role: "alert" }, e.data && e.data.code === "bad_data" ? t("lab.fix_first") : e.message));
    return;
  }
  S.running = true;
  renderStatus();
  renderJob();
  S.timer = setInterval(poll, 500);
}

async function poll() {
  try { S.job = await call("GET", `/api/lab/jobs/${S.job.id}`); } catch (e) { stopPolling(); return; }
  if (S.job.status !== "running") stopPolling();
  renderJob();
}

function stopPolling() { clearInterval(S.timer); S.timer = null; S.running = false; renderStatus(); }

async function cancel() {
  try { S.job = await call("POST", `/api/lab/jobs/${S.job.id}/cancel`); } catch { /* it ended meanwhile */ }
  stopPolling();
  renderJob();
}

function renderJob() {
  const out = document.getElementById("lab-result");
  const j = S.job;
  if (!out || !j) return;
  clear(out);
  const fmt = (n) => n.toLocaleString(getLang());
  if (j.status === "running") {
    out.append(h("div.row", {}, h("progress", { max: String(j.total), value: String(j.done), "aria-label": t("lab.progress") }),
      h("span", { role: "status" }, t("lab.progress_text", { done: fmt(j.done), total: fmt(j.total), s: j.elapsed_s })),
      h("button", { type: "button", onclick: cancel }, t("lab.cancel"))));
    return;
  }
  if (j.status === "cancelled") { out.append(h("p.warn", { role: "status" }, t("lab.cancelled"))); return; }
  if (j.status === "failed") { out.append(h("p.err", { role: "alert" }, t("lab.failed", { why: j.error }))); return; }
  const f = j.facts;
  const line = j.mode === "compare"
    ? t("lab.done_compare", { games: fmt(f.games), s: j.elapsed_s, units: f.units_significant, whole: f.significant })
    : t("lab.done_simulate", { games: fmt(f.games), s: j.elapsed_s });
  out.append(h("p.ok", { role: "status" }, line),
    h("p.downloads", {}, t("lab.download"), " ", j.files.map((name) => h("a", { href: `/api/lab/jobs/${j.id}/files/${name}`, download: name }, name))),
    h("p.muted", {}, t("lab.report_note")),
    h("iframe.report", { src: j.report, title: t("lab.report_title"), sandbox: "allow-same-origin" }));
}

function chooseGame(id) {
  S.game = S.games.find((g) => g.id === id);
  S.packaged = JSON.parse(S.game.data);
  S.doc = structuredClone(S.packaged);
  S.errors = []; S.warnings = []; S.checked = null; S.jsonText = null; S.jsonError = null;
  S.open = new Set([firstList()]);
  render();
}

function render() {
  clear(root);
  const pick = h("select", { onchange: (e) => chooseGame(e.target.value) },
    S.games.map((g) => h("option", { value: g.id, selected: g.id === S.game.id }, gameName(g))));
  pick.id = "lab-game";
  const data = h("div"); data.id = "lab-data";
  const status = h("div", { "aria-live": "polite" }); status.id = "lab-check";
  const result = h("div", { "aria-live": "polite" }); result.id = "lab-result";
  root.append(
    h("h1", {}, t("lab.title")), h("p", {}, t("lab.lead")),
    h("section.step", {}, h("h2", {}, t("lab.step_game")), h("label", {}, t("game"), " ", pick)),
    h("section.step", {}, h("h2", {}, t("lab.step_data")), h("p.muted", {}, t("lab.data_help")), data, status,
      h("button", { type: "button", onclick: check }, t("lab.check"))),
    h("section.step", {}, h("h2", {}, t("lab.step_run")), runPanel(), result));
  renderData();
  renderStatus();
  renderJob();
}

async function main() {
  await initI18n();
  const sel = document.getElementById("lang");
  sel.value = getLang();
  sel.addEventListener("change", () => setLang(sel.value));
  root = document.getElementById("main");
  S.games = await call("GET", "/api/lab/games");
  const want = new URLSearchParams(location.search).get("game");
  chooseGame((S.games.find((g) => g.id === want) || S.games[0]).id);
  onLang(() => render());
}

main();
