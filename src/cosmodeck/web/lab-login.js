// The design lab's door (/lab without the lab cookie): exchange the token of the printed link
// (/lab#token=..., a fragment: never sent to the server or a proxy) or a pasted one for the lab's
// HttpOnly cookie, then open the lab. The token is removed from the address bar at once.
import { initI18n, setLang, getLang, t } from "./i18n.js";

const msg = () => document.getElementById("lab-login-msg");

// The form is live from the first moment: a click before the translations load must not fall
// through to the browser's own submit (a reload that would swallow the answer).
let ready = Promise.resolve();

async function login(token) {
  const r = await fetch("/api/lab/login", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }), credentials: "same-origin" });
  if (r.ok) { location.replace(location.pathname + location.search); return; }
  const data = await r.json().catch(() => ({}));
  await ready;
  msg().textContent = r.status === 429 ? t("lab.login_limited") : t("lab.login_wrong");
  if (data.message) msg().title = data.message;
}

async function main() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  document.getElementById("lab-login").addEventListener("submit", (e) => {
    e.preventDefault();
    login(document.getElementById("lab-token").value.trim());
  });
  ready = initI18n();
  await ready;
  const sel = document.getElementById("lang");
  sel.value = getLang();
  sel.addEventListener("change", () => setLang(sel.value));
  if (fromLink) await login(fromLink);
  else document.getElementById("lab-token").focus();
}

main();
