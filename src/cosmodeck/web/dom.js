// Tiny DOM helpers: h("button.cls", {onclick}, children...).
import { onLang } from "./i18n.js";
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

// ``text`` is a function giving the words in the current language: a toast still showing when the
// player switches language is said again in the new one.
export function toast(text, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  const say = typeof text === "function" ? text : () => text;
  const el = h(`div.toast.${kind}`, {}, say());
  box.append(el);
  const off = onLang(() => { el.textContent = say(); });
  setTimeout(() => { off(); el.remove(); }, ms);
}

export async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data.message || r.statusText);
    err.code = data.code || String(r.status);
    throw err;
  }
  return data;
}
