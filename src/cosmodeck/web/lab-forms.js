// The design lab's forms: any card data file, rendered generically from its own shape (no schema needed,
// so new fields, such as translations, appear by themselves). A list of cards or missions is a table with
// a row per card (add and remove rows); a nested object is a fieldset of its fields; a list is repeatable
// items with add (a copy of the last item) and remove; text fields suggest the values the packaged file
// uses at the same place. Every control carries data-path = the engine's field name (missions[4].obligation.who),
// so each loader error lands next to its field.
import { t, has } from "./i18n.js";
import { h } from "./dom.js";

export const META = new Set(["schema", "format", "status", "provenance", "proposed"]);
const ID_KEYS = ["id", "key", "code", "name"];
const MAX_SUGGEST = 24;

export const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
export const isRowList = (v) => Array.isArray(v) && v.length > 0 && v.every(isObj);
// {"1": {...}, "2": {...}} (Meteor's setup chart, texts): a table too, one row per key
export const isRowDict = (v) => isObj(v) && Object.keys(v).length >= 2 && Object.values(v).every(isObj);
// an object whose values are all objects or all lists (a setup chart, counts per value): its keys are rows
const uniform = (v) => isObj(v) && Object.keys(v).length >= 2
  && (Object.values(v).every(isObj) || Object.values(v).every(Array.isArray));
const scalar = (v) => v === null || typeof v !== "object";
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export const human = (k) => String(k).replace(/_/g, " ");
export const label = (k) => (has(`lab.field.${k}`) ? t(`lab.field.${k}`) : human(k));
export const secLabel = (k) => (has(`lab.section.${k}`) ? t(`lab.section.${k}`) : human(k));

export function rowName(row, i) {
  if (isObj(row)) for (const k of ID_KEYS) if (typeof row[k] === "string" || typeof row[k] === "number") return String(row[k]);
  return t("lab.row_n", { n: i + 1 });
}

export function pathOf(parts) {
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : (i ? `.${p}` : p))).join("");
}

export function tokens(field) {
  const out = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function getAt(doc, parts) {
  let cur = doc;
  for (const p of parts) {
    if (cur === null || typeof cur !== "object" || !(p in cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

// "missions[4].obligation.who" -> "Missions › M05 › obligation › who"
export function fieldText(doc, field) {
  if (field === "(file)") return t("lab.whole_file");
  const parts = tokens(field);
  const words = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p === "number") {
      const row = getAt(doc, parts.slice(0, i + 1));
      words.push(isObj(row) ? rowName(row, p) : t("lab.item_n", { n: p + 1 }));
    } else words.push(i === 0 ? secLabel(p) : label(p));
  }
  return words.join(" › ");
}

const shape = (parts) => parts.map((p, i) => (typeof p === "number" ? "[*]" : (i ? `.${p}` : p))).join("");

// shapes whose every list in the packaged file is flat with one same length >= 2 ([dx, dy], a meteor's back
// range, a count per colour): fixed-size tuples, edited in place without add or remove
function tuples(doc) {
  const seen = new Map();
  const walk = (v, parts) => {
    if (Array.isArray(v)) {
      const key = shape(parts);
      const s = seen.get(key) || { lengths: new Set(), flat: true, n: 0 };
      s.lengths.add(v.length); s.flat &&= v.every(scalar); s.n += 1;
      seen.set(key, s);
      v.forEach((x, i) => walk(x, [...parts, i]));
    } else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, [...parts, uniform(v) ? "*" : k]);
  };
  walk(doc, []);
  const out = new Set();
  for (const [key, s] of seen) if (s.flat && s.n >= 2 && s.lengths.size === 1 && [...s.lengths][0] >= 2) out.add(key);
  return out;
}

function suggestions(doc) {
  const map = new Map();
  const walk = (v, parts) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...parts, i]));
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, [...parts, k]);
    else if (typeof v === "string" && parts.length > 1) {
      const key = shape(parts);
      if (!map.has(key)) map.set(key, new Set());
      map.get(key).add(v);
    }
  };
  walk(doc, []);
  return map;
}

// The forms for state S ({doc, packaged}); hooks.edited(el) runs after every change (check, status).
export function renderForms(S, hooks) {
  const F = new Forms(S, hooks);
  return F.all();
}

class Forms {
  constructor(S, hooks) {
    this.S = S;
    this.hooks = hooks;
    this.seen = suggestions(S.packaged);
    this.tuples = tuples(S.packaged);
    this.lists = new Map(); // shape -> datalist id
    this.datalists = h("div.datalists");
  }

  text(parts) { return fieldText(this.S.doc, pathOf(parts)); }

  all() {
    const wrap = h("div.forms");
    const other = [];
    for (const [key, value] of Object.entries(this.S.doc)) {
      if (META.has(key)) continue;
      if (isRowList(value) || isRowDict(value)) wrap.append(this.section(key, value));
      else other.push(key);
    }
    if (other.length) {
      const rows = other.map((key) => h("tr", { dataset: { path: key } }, h("th.rowid", { scope: "row" }, secLabel(key)),
        h("td", {}, this.control([key], this.S.doc[key]))));
      wrap.append(h("details.sec", { open: this.S.open.has("(settings)"), dataset: { path: "(settings)" },
        ontoggle: (e) => this.remember("(settings)", e.target.open) }, h("summary", {}, t("lab.settings")),
      h("div.tablewrap", {}, h("table.cards", {}, h("thead", {}, h("tr", {}, h("th", {}, t("lab.setting")),
        h("th", {}, t("lab.value")))), h("tbody", {}, rows)))));
    }
    wrap.append(this.datalists);
    return wrap;
  }

  remember(key, open) { if (open) this.S.open.add(key); else this.S.open.delete(key); }

  section(key, value) {
    const n = Array.isArray(value) ? value.length : Object.keys(value).length;
    const sec = h("details.sec", { open: this.S.open.has(key), dataset: { path: key },
      ontoggle: (e) => this.remember(key, e.target.open) },
    h("summary", {}, `${secLabel(key)} (${t("lab.n_rows", { n })})`),
    has(`lab.hint.${key}`) ? h("p.muted", {}, t(`lab.hint.${key}`)) : null, this.table(key));
    return sec;
  }

  // one row per card (a list of objects) or per key (an object of objects); columns: every field any row has
  table(key) {
    const value = this.S.doc[key];
    const list = Array.isArray(value);
    const keys = list ? value.map((_, i) => i) : Object.keys(value);
    const cols = [];
    for (const k of keys) for (const c of Object.keys(value[k])) if (!cols.includes(c)) cols.push(c);
    const body = keys.map((k, i) => {
      const row = value[k];
      const parts = [key, k];
      const changed = !same(row, getAt(this.S.packaged, parts));
      const cells = cols.map((c) => h("td", {}, c in row ? this.cell(parts, c, keys) : this.addField(parts, c, keys)));
      const remove = list ? h("td.tools", {}, h("button.rm", { type: "button", title: t("lab.remove", { what: this.text(parts) }),
        "aria-label": t("lab.remove", { what: this.text(parts) }), onclick: () => {
          value.splice(i, 1);
          this.redrawTable(key, wrap);
        } }, "✕")) : null;
      return h(`tr${changed ? ".changed" : ""}`, { dataset: { path: pathOf(parts) } },
        h("th.rowid", { scope: "row", dataset: { path: pathOf(parts) } }, list ? rowName(row, i) : k), cells, remove);
    });
    const add = list ? h("button.add", { type: "button", onclick: () => {
      value.push(this.newRow(value));
      this.redrawTable(key, wrap, true);
    } }, t("lab.add_row", { what: secLabel(key) })) : null;
    const wrap = h("div.tablewrap", {}, h("table.cards", {},
      h("thead", {}, h("tr", {}, h("th", {}, list ? t("lab.card") : t("lab.key")),
        cols.map((c) => h("th", { scope: "col" }, label(c))), list ? h("th", {}, h("span.sr", {}, t("lab.remove_col"))) : null)),
      h("tbody", {}, body)), add);
    return wrap;
  }

  redrawTable(key, old, focusLast = false) {
    const fresh = this.table(key);
    old.replaceWith(fresh);
    const summary = fresh.closest("details")?.querySelector("summary");
    const value = this.S.doc[key];
    if (summary) summary.textContent = `${secLabel(key)} (${t("lab.n_rows", { n: value.length })})`;
    if (focusLast) fresh.querySelector("tbody tr:last-child input, tbody tr:last-child select")?.focus();
    else fresh.querySelector("button.add")?.focus();
    this.hooks.edited(fresh);
  }

  // a new card: a copy of the last one, with a fresh id (M16 -> M17)
  newRow(rows) {
    const row = structuredClone(rows[rows.length - 1]);
    for (const k of ID_KEYS) {
      if (typeof row[k] !== "string") continue;
      const ids = new Set(rows.map((r) => r[k]));
      const m = /^(.*?)(\d+)$/.exec(row[k]);
      let n = m ? Number(m[2]) : 1;
      let id;
      do { n += 1; id = m ? m[1] + String(n).padStart(m[2].length, "0") : `${row[k]}-${n}`; } while (ids.has(id));
      row[k] = id;
      break;
    }
    return row;
  }

  // a field some rows have and others do not (a meteor's trait): remove it here, or add it to a row without it
  cell(rowParts, c, keys) {
    const table = getAt(this.S.doc, [rowParts[0]]);
    const optional = keys.some((k) => !(c in table[k]));
    const parts = [...rowParts, c];
    const ctl = this.control(parts, table[rowParts[1]][c]);
    if (!optional) return ctl;
    return h("div.opt", {}, ctl, h("button.rm.small", { type: "button", title: t("lab.remove", { what: this.text(parts) }),
      "aria-label": t("lab.remove", { what: this.text(parts) }), onclick: (e) => {
        delete table[rowParts[1]][c];
        this.redrawTable(rowParts[0], e.target.closest(".tablewrap"));
      } }, "✕"));
  }

  addField(rowParts, c, keys) {
    const table = getAt(this.S.doc, [rowParts[0]]);
    const from = keys.find((k) => c in table[k]);
    const what = `${this.text(rowParts)} › ${label(c)}`;
    return h("button.add.small", { type: "button", title: t("lab.add_field", { what }), "aria-label": t("lab.add_field", { what }),
      onclick: (e) => {
        table[rowParts[1]][c] = structuredClone(table[from][c]);
        const wrap = e.target.closest(".tablewrap");
        this.redrawTable(rowParts[0], wrap);
      } }, "+");
  }

  control(parts, value) {
    if (Array.isArray(value)) return this.list(parts, value);
    if (isObj(value)) return this.object(parts, value);
    return this.input(parts, value);
  }

  object(parts, obj) {
    const box = h("fieldset.obj", { dataset: { path: pathOf(parts) }, "aria-label": this.text(parts) });
    for (const [k, v] of Object.entries(obj)) {
      box.append(h("div.kv", {}, h("span.k", { "aria-hidden": "true" }, label(k)), this.control([...parts, k], v)));
    }
    return box;
  }

  list(parts, arr) {
    const flat = arr.every(scalar);
    if (flat && this.tuples.has(this.tupleShape(parts))) {
      const box = h("div.list.flat.tuple", { role: "group", dataset: { path: pathOf(parts) }, "aria-label": this.text(parts) },
        arr.map((item, i) => this.input([...parts, i], item)));
      this.mark(box, parts);
      return box;
    }
    const box = h(`div.list${flat ? ".flat" : ""}`, { role: "group", dataset: { path: pathOf(parts) },
      "aria-label": this.text(parts) });
    const redraw = (focus) => {
      const fresh = this.list(parts, getAt(this.S.doc, parts));
      box.replaceWith(fresh);
      (focus === "last" ? fresh.querySelector(":scope > .item:last-of-type input, :scope > .item:last-of-type select")
        : fresh.querySelector(":scope > button.add"))?.focus();
      this.hooks.edited(fresh);
    };
    arr.forEach((item, i) => {
      const p = [...parts, i];
      box.append(h("div.item", { dataset: { path: pathOf(p) } }, this.control(p, item),
        h("button.rm.small", { type: "button", title: t("lab.remove", { what: this.text(p) }),
          "aria-label": t("lab.remove", { what: this.text(p) }), onclick: () => { arr.splice(i, 1); redraw("add"); } }, "✕")));
    });
    box.append(h("button.add.small", { type: "button", title: t("lab.add_item", { what: this.text(parts) }),
      "aria-label": t("lab.add_item", { what: this.text(parts) }), onclick: () => {
        arr.push(this.template(parts, arr));
        redraw("last");
      } }, "+"));
    this.mark(box, parts);
    return box;
  }

  // a new item: a copy of the last one, or of the first item the packaged file has at the same place
  template(parts, arr) {
    if (arr.length) return structuredClone(arr[arr.length - 1]);
    const want = shape(parts);
    let found;
    const walk = (v, p) => {
      if (found !== undefined) return;
      if (Array.isArray(v)) {
        if (shape(p) === want && v.length) { found = v[0]; return; }
        v.forEach((x, i) => walk(x, [...p, i]));
      } else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    };
    walk(this.S.packaged, []);
    return found !== undefined ? structuredClone(found) : "";
  }

  // the shape of a path as tuples() spells it (the keys of an object of objects are all "*")
  tupleShape(parts) {
    const out = [];
    let cur = this.S.doc;
    for (const p of parts) {
      out.push(uniform(cur) ? "*" : p);
      cur = cur === null || typeof cur !== "object" ? undefined : cur[p];
    }
    return shape(out);
  }

  suggest(parts) {
    const key = shape(parts);
    const values = this.seen.get(key);
    if (!values || values.size < 2 || values.size > MAX_SUGGEST) return null;
    if (!this.lists.has(key)) {
      const id = `lab-dl-${this.lists.size}`;
      this.lists.set(key, id);
      const dl = h("datalist", {}, [...values].sort().map((v) => h("option", { value: v })));
      dl.id = id;
      this.datalists.append(dl);
    }
    return this.lists.get(key);
  }

  input(parts, value) {
    const aria = this.text(parts);
    let el;
    if (typeof value === "boolean") {
      el = h("input", { type: "checkbox", checked: value, "aria-label": aria });
      el.addEventListener("change", () => this.set(parts, el.checked, el));
    } else if (typeof value === "number") {
      el = h("input", { type: "number", step: "any", value: String(value), "aria-label": aria });
      el.addEventListener("change", () => {
        const n = Number(el.value);
        if (el.value.trim() === "" || !Number.isFinite(n)) { localError(el, t("lab.not_number")); return; }
        this.set(parts, n, el);
      });
    } else if (typeof value === "string" && value.length > 40) { // a card's text: room to read it
      el = h("textarea.text", { rows: "2", "aria-label": aria, spellcheck: "true" });
      el.value = value;
      el.addEventListener("change", () => this.set(parts, el.value, el));
    } else {
      const text = value === null ? "" : String(value);
      el = h("input", { type: "text", value: text, "aria-label": aria, title: text,
        size: String(Math.min(36, Math.max(5, text.length + 1))) });
      const dl = this.suggest(parts);
      if (dl) el.setAttribute("list", dl);
      el.addEventListener("input", () => { el.size = Math.min(40, Math.max(5, el.value.length + 2)); });
      el.addEventListener("change", () => this.set(parts, el.value, el));
    }
    el.dataset.path = pathOf(parts);
    this.mark(el, parts);
    return el;
  }

  mark(el, parts) {
    el.classList.toggle("changed", !same(getAt(this.S.packaged, parts), getAt(this.S.doc, parts)));
  }

  set(parts, value, el) {
    let cur = this.S.doc;
    for (const p of parts.slice(0, -1)) cur = cur[p];
    cur[parts[parts.length - 1]] = value;
    this.mark(el, parts);
    el.removeAttribute("aria-invalid");
    for (const e of el.parentElement.querySelectorAll(":scope > .err.local")) e.remove();
    this.hooks.edited(el);
  }
}

export function localError(el, text) {
  el.setAttribute("aria-invalid", "true");
  const box = el.parentElement;
  for (const e of box.querySelectorAll(":scope > .err.local")) e.remove();
  el.after(h("div.err.local", { role: "alert" }, text));
}

// after an edit: mark the rows and the enclosing nested controls that now differ from the packaged file
export function markAncestors(S, el) {
  for (let cur = el.parentElement; cur; cur = cur.parentElement) {
    const path = cur.dataset?.path;
    if (!path || path === "(settings)") continue;
    const parts = tokens(path);
    cur.classList.toggle("changed", !same(getAt(S.doc, parts), getAt(S.packaged, parts)));
  }
}
