// The design lab (/lab, served only by `cosmodeck serve --lab`): edit a game's card data as forms or JSON,
// check it with the engine's loader (every error next to its field), run simulate or compare in a worker
// process with a progress bar, read the report in the page and download its CSV and JSON files.
import { initI18n, setLang, getLang, onLang, t, has } from "./i18n.js";
import { h, clear } from "./dom.js";

const META = new Set(["schema", "format", "status", "provenance", "proposed"]);
const ID_KEYS = ["id", "key", "code", "name"];
const S = { games: [], game: null, doc: null, packaged: null, view: "forms", errors: [], warnings: [],
  checked: null, job: null, timer: null, checkTimer: null, running: false };
let root;

async function call(method, path, body) {
  const r = await fetch(path, { method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({}));
  if ((r.status === 401 || r.status === 403) && String(data.code || "").startsWith("lab_")) {
    location.reload(); // the lab cookie is gone or stale: the lab's door page explains what to do
  }
  if (!r.ok) { const e = new Error(data.message || r.statusText); e.data = data; e.status = r.status; throw e; }
  return data;
}

const human = (k) => String(k).replace(/_/g, " ");
const label = (k) => (has(`lab.field.${k}`) ? t(`lab.field.${k}`) : human(k));
const secLabel = (k) => (has(`lab.section.${k}`) ? t(`lab.section.${k}`) : human(k));
const isRowList = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === "object" && !Array.isArray(x));
const gameName = (g) => (has(`game.${g.id}`) ? t(`game.${g.id}`) : g.name);

function rowName(row, i) {
  for (const k of ID_KEYS) if (typeof row[k] === "string" || typeof row[k] === "number") return String(row[k]);
  return t("lab.row_n", { n: i + 1 });
}

function pathOf(parts) {
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : (i ? `.${p}` : p))).join("");
}

function tokens(field) {
  const out = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

function getAt(doc, parts) {
  let cur = doc;
  for (const p of parts) {
    if (cur === null || typeof cur !== "object" || !(p in cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

// "destruction_set[7].hits" -> "Destruction cards › P8 › hits"
function fieldText(field) {
  if (field === "(file)") return t("lab.whole_file");
  const parts = tokens(field);
  const words = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p === "number") {
      const row = getAt(S.doc, parts.slice(0, i + 1));
      words.push(row && typeof row === "object" && !Array.isArray(row) ? rowName(row, p) : t("lab.row_n", { n: p + 1 }));
    } else words.push(i === 0 ? secLabel(p) : label(p));
  }
  return words.join(" › ");
}

function show(v) { return v !== null && typeof v === "object" ? JSON.stringify(v) : v === null ? "" : String(v); }

function input(parts, value) {
  const path = pathOf(parts);
  const orig = getAt(S.packaged, parts);
  const changed = JSON.stringify(orig) !== JSON.stringify(value);
  const aria = `${fieldText(path)}`;
  let el;
  if (typeof value === "boolean") {
    el = h("input", { type: "checkbox", checked: value, "aria-label": aria });
    el.addEventListener("change", () => edit(parts, el.checked, el));
  } else if (typeof value === "number") {
    el = h("input", { type: "number", step: "any", value: String(value), "aria-label": aria });
    el.addEventListener("change", () => {
      const n = Number(el.value);
      if (el.value.trim() === "" || !Number.isFinite(n)) return localError(el, t("lab.not_number"));
      edit(parts, n, el);
    });
  } else if (value !== null && typeof value === "object") {
    el = h("input.json", { type: "text", value: show(value), "aria-label": aria, spellcheck: "false",
      size: String(Math.min(40, Math.max(8, show(value).length + 2))) });
    el.addEventListener("change", () => {
      try { edit(parts, JSON.parse(el.value), el); } catch { localError(el, t("lab.not_json_value")); }
    });
  } else {
    el = h("input", { type: "text", value: show(value), "aria-label": aria, title: show(value),
      size: String(Math.min(36, Math.max(6, show(value).length + 1))) });
    el.addEventListener("change", () => edit(parts, el.value, el));
  }
  el.dataset.path = path;
  if (el.type === "text") el.addEventListener("input", () => { el.size = Math.min(40, Math.max(6, el.value.length + 2)); });
  if (changed) el.classList.add("changed");
  return h("div.cell", {}, el);
}

function localError(el, text) {
  el.setAttribute("aria-invalid", "true");
  const cell = el.parentElement;
  for (const e of cell.querySelectorAll(".err.local")) e.remove();
  cell.append(h("div.err.local", { role: "alert" }, text));
}

function edit(parts, value, el) {
  let cur = S.doc;
  for (const p of parts.slice(0, -1)) cur = cur[p];
  cur[parts[parts.length - 1]] = value;
  const orig = getAt(S.packaged, parts);
  el.classList.toggle("changed", JSON.stringify(orig) !== JSON.stringify(value));
  const tr = el.closest("tr[data-path]");
  if (tr && parts.length >= 3) {
    const rowParts = parts.slice(0, 2);
    tr.classList.toggle("changed", JSON.stringify(getAt(S.doc, rowParts)) !== JSON.stringify(getAt(S.packaged, rowParts)));
  }
  el.removeAttribute("aria-invalid");
  for (const e of el.parentElement.querySelectorAll(".err.local")) e.remove();
  S.checked = null;
  clearTimeout(S.checkTimer);
  S.checkTimer = setTimeout(() => check(), 600);
  renderStatus();
}

function table(key, rows) {
  const cols = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  const body = rows.map((r, i) => {
    const changed = JSON.stringify(r) !== JSON.stringify(getAt(S.packaged, [key, i]));
    return h(`tr${changed ? ".changed" : ""}`, { dataset: { path: pathOf([key, i]) } },
      h("td.rowid", { dataset: { path: pathOf([key, i]) } }, rowName(r, i)),
      cols.map((c) => h("td", {}, c in r ? input([key, i, c], r[c]) : h("span.muted", {}, "–"))));
  });
  return h("div.tablewrap", {}, h("table.cards", {},
    h("thead", {}, h("tr", {}, h("th", {}, t("lab.card")), cols.map((c) => h("th", { scope: "col" }, label(c))))),
    h("tbody", {}, body)));
}

function leaves(value, parts, out) {
  const simple = Array.isArray(value) ? value.every((x) => x === null || typeof x !== "object")
    : value === null || typeof value !== "object";
  if (simple || parts.length >= 3 || (Array.isArray(value) && !isRowList(value))) out.push([parts, value]);
  else for (const [k, v] of Object.entries(value)) leaves(v, [...parts, Array.isArray(value) ? Number(k) : k], out);
}

function forms() {
  const wrap = h("div.forms");
  const other = [];
  for (const [key, value] of Object.entries(S.doc)) {
    if (META.has(key)) continue;
    if (isRowList(value)) {
      wrap.append(h("details.sec", { open: key === firstList(), dataset: { path: key } },
        h("summary", {}, `${secLabel(key)} (${t("lab.n_rows", { n: value.length })})`),
        has(`lab.hint.${key}`) ? h("p.muted", {}, t(`lab.hint.${key}`)) : null, table(key, value)));
    } else leaves(value, [key], other);
  }
  if (other.length) {
    const rows = other.map(([parts, v]) => h("tr", {}, h("td.rowid", {}, fieldText(pathOf(parts))),
      h("td", {}, input(parts, v))));
    wrap.append(h("details.sec", { dataset: { path: "(settings)" } }, h("summary", {}, t("lab.settings")),
      h("div.tablewrap", {}, h("table.cards", {}, h("thead", {}, h("tr", {}, h("th", {}, t("lab.setting")),
        h("th", {}, t("lab.value")))), h("tbody", {}, rows)))));
  }
  return wrap;
}

function firstList() {
  const preferred = { "shooting-star": "destruction_set", "blast-off": "missions", meteor: "rockets" }[S.game.id];
  if (preferred && isRowList(S.doc[preferred])) return preferred;
  return Object.keys(S.doc).find((k) => isRowList(S.doc[k]));
}

function jsonEditor() {
  const area = h("textarea.json", { spellcheck: "false", "aria-label": t("lab.json_label") });
  area.value = JSON.stringify(S.doc, null, 1);
  const msg = h("div", { role: "status" });
  const apply = h("button", { type: "button", onclick: () => {
    try { S.doc = JSON.parse(area.value); } catch (e) {
      clear(msg).append(h("div.err", { role: "alert" }, t("lab.json_invalid", { why: e.message })));
      return;
    }
    S.checked = null; check(); renderData();
  } }, t("lab.json_apply"));
  return h("div", {}, h("p.muted", {}, t("lab.json_help")), area, h("div.row", {}, apply, msg));
}

function placeErrors(box) {
  for (const e of box.querySelectorAll(".err.engine")) e.remove();
  for (const e of box.querySelectorAll("[aria-invalid=true]")) if (!e.parentElement.querySelector(".err.local")) e.removeAttribute("aria-invalid");
  for (const err of S.errors) {
    let parts = tokens(err.field);
    let target = null;
    while (parts.length && !target) {
      target = box.querySelector(`[data-path="${CSS.escape(pathOf(parts))}"]`);
      if (!target) parts = parts.slice(0, -1);
    }
    const note = h("div.err.engine", { role: "alert" }, err.problem);
    if (!target) continue;
    if (target.tagName === "INPUT") {
      target.setAttribute("aria-invalid", "true");
      target.parentElement.append(note);
    } else if (target.tagName === "TR" || target.tagName === "TD") {
      (target.tagName === "TR" ? target.firstChild : target).append(note);
    } else if (target.tagName === "DETAILS") {
      target.open = true;
      target.querySelector("summary").after(note);
    }
    const sec = target.closest("details");
    if (sec) sec.open = true;
  }
}

function renderData() {
  const box = document.getElementById("lab-data");
  clear(box);
  const tabs = h("div.tabs", { role: "tablist" },
    ["forms", "json"].map((v) => h("button", { type: "button", role: "tab", "aria-selected": String(S.view === v),
      onclick: () => { S.view = v; renderData(); } }, t(`lab.view_${v}`))),
    h("button", { type: "button", onclick: () => { S.doc = structuredClone(S.packaged); S.checked = null; S.errors = []; renderData(); renderStatus(); } },
      t("lab.reset")));
  box.append(tabs, S.view === "forms" ? forms() : jsonEditor());
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
      if (orig.length > value.length) out.push(secLabel(key));
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
  S.errors = []; S.warnings = []; S.checked = null;
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
