// A card face shown small (in the log, in a replay's step list) opens in full on hover, or on a
// tap on touch screens: a large copy of the face with its text, next to the small one. A tap
// elsewhere, Escape or scrolling closes it.
import { h, clear } from "./dom.js";

const HOVER = !!window.matchMedia && window.matchMedia("(hover: hover)").matches;
const SMALL = ["small", "mini", "dim"];

let pop = null;
let shown = null;

function box() {
  if (!pop) {
    pop = h("div.peek", { role: "tooltip", hidden: true });
    document.body.append(pop);
    document.addEventListener("click", (e) => { if (shown && !e.target.closest("[data-peek]")) hide(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
    // a scroll (the page, or the log as new lines arrive) moves the small face: follow it while it shows
    window.addEventListener("scroll", place, { passive: true, capture: true });
    window.addEventListener("resize", place, { passive: true });
  }
  return pop;
}

export function hide() {
  if (!pop) return;
  pop.hidden = true;
  shown = null;
}

export function show(el) {
  const p = box();
  const big = el.cloneNode(true);
  big.removeAttribute("data-peek");
  big.removeAttribute("aria-hidden");
  big.classList.remove(...SMALL);
  big.classList.add("big");
  clear(p).append(big, el.title ? h("p", {}, el.title) : null);
  p.hidden = false;
  shown = el;
  place();
}

// beside the small face: above it if there is room, else below; never past the screen's edges
function place() {
  if (!shown || !pop || pop.hidden) return;
  const r = shown.getBoundingClientRect();
  if (!shown.isConnected || r.bottom < 0 || r.top > window.innerHeight) { hide(); return; }
  const w = pop.offsetWidth;
  const ht = pop.offsetHeight;
  const left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2));
  const top = r.top - ht - 8 >= 4 ? r.top - ht - 8 : Math.min(window.innerHeight - ht - 4, r.bottom + 8);
  pop.style.left = `${Math.round(left)}px`;
  pop.style.top = `${Math.round(Math.max(4, top))}px`;
}

// faces inside `container` marked data-peek open on hover (a mouse) or tap (a touch screen)
export function attachPeek(container) {
  const face = (e) => (e.target && e.target.closest ? e.target.closest("[data-peek]") : null);
  container.addEventListener("mouseover", (e) => { const el = face(e); if (HOVER && el && el !== shown) show(el); });
  container.addEventListener("mouseout", (e) => {
    const el = face(e);
    if (HOVER && el && !(e.relatedTarget && el.contains(e.relatedTarget))) hide();
  });
  container.addEventListener("click", (e) => {
    const el = face(e);
    if (!el) return;
    if (el === shown && !HOVER) hide(); else show(el);
  });
}
