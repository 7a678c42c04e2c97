// Translations: en/es JSON dictionaries; t(key, params) with {name} placeholders.
const dicts = {};
let lang = "en";
const listeners = new Set();

export async function initI18n() {
  const saved = localStorage.getItem("cosmodeck.lang");
  const guess = (navigator.language || "en").toLowerCase().startsWith("es") ? "es" : "en";
  await setLang(saved || guess, false);
}

export async function setLang(code, save = true) {
  if (!dicts[code]) {
    const r = await fetch(`/static/i18n/${code}.json`);
    dicts[code] = await r.json();
  }
  if (!dicts.en) {
    const r = await fetch(`/static/i18n/en.json`);
    dicts.en = await r.json();
  }
  lang = code;
  document.documentElement.lang = code;
  if (save) localStorage.setItem("cosmodeck.lang", code);
  translateStatic(document);
  for (const fn of listeners) fn(code);
}

export function getLang() { return lang; }
export function onLang(fn) { listeners.add(fn); return () => listeners.delete(fn); }

export function has(key) { return key in (dicts[lang] || {}) || key in (dicts.en || {}); }

export function t(key, params = {}) {
  let s = (dicts[lang] && dicts[lang][key]) ?? (dicts.en && dicts.en[key]) ?? key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}
