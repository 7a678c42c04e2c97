"""Meteor and Blast Off! on a 390x844 touch phone: a whole game played by tapping, with bots in the
other seats. At every step the page must not scroll sideways, no key hint ("(Space)", "Keys: ...")
may show on the touch screen, and every control of the game (each button with an action, each card
of the hand) must lie inside the screen and be the element a tap at its centre reaches. Where the
view holds still (Blast Off!: one's own turn, Meteor: before the start), every legal action of the
server's view has its control on the page. (Shooting Star's phone test: tests/web/test_shell.py.)"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web import test_blast_off, test_meteor
from tests.web.scan import scan, visible_text, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WIDTH, HEIGHT = 390, 844
KEY_HINT = re.compile(r"\((?:Space|Espacio|D)\)|\b(?:Keys|Teclas)\s*:|\bteclas? \d|\bkeys? \d", re.IGNORECASE)

# every control of a board: its action buttons and the cards of the hand; for each, whether it lies
# inside the screen's width and whether a tap at its centre (once scrolled to) reaches it
CONTROLS_JS = """(sel) => {
  const out = [];
  const cover = document.querySelectorAll('#toasts, .peek');
  for (const c of cover) c.style.visibility = 'hidden';  // a passing toast is not part of the page
  for (const el of document.querySelectorAll(sel)) {
    if (!el.offsetParent || el.disabled) continue;
    el.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    out.push({ what: el.dataset.action || el.dataset.card || el.textContent.trim().slice(0, 40),
               left: r.left, right: r.right, reached: !!hit && (hit === el || el.contains(hit)) });
  }
  for (const c of cover) c.style.visibility = '';
  window.scrollTo(0, 0);
  return { width: document.documentElement.scrollWidth, controls: out };
}"""

CONTROLS = {"blast-off": ".bo button[data-action], .bo-hand button.bo-card",
            "meteor": ".met button[data-action], .met-cards button.met-card"}


def phone(browser: Any, lang: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True, has_touch=True,
                              locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('cosmodeck.lang', '{lang}');"
                        " localStorage.setItem('cosmodeck.anim', 'off');")
    ctx.set_default_timeout(60_000)
    return ctx, ctx.new_page()


def last_view(page: Any) -> dict[str, Any]:
    """The newest view frame the server sent to the page (recorded from its socket)."""
    frames: dict[str, Any] = {}

    def on_socket(ws: Any) -> None:
        def got(payload: str | bytes) -> None:
            if isinstance(payload, str) and payload.startswith('{"type":"view"'):
                frames["view"] = json.loads(payload)
        ws.on("framereceived", got)

    page.on("websocket", on_socket)
    return frames


def check_phone(page: Any, game: str, where: str) -> None:
    m = page.evaluate(CONTROLS_JS, CONTROLS[game])
    assert m["width"] <= WIDTH, f"{where}: the page is {m['width']} px wide"
    for c in m["controls"]:
        assert c["left"] >= -0.5 and c["right"] <= WIDTH + 0.5, f"{where}: {c} sticks out of the screen"
        assert c["reached"], f"{where}: a tap does not reach {c}"
    text = visible_text(page)
    hint = KEY_HINT.search(text)
    assert hint is None, f"{where}: a key hint on a touch screen: {text[max(0, hint.start() - 60):hint.end() + 20]!r}"


def tap_one(page: Any, selector: str, rng: random.Random) -> bool:
    from playwright.sync_api import Error as PlaywrightError

    found = page.locator(selector)
    n = found.count()
    if not n:
        return False
    try:
        found.nth(rng.randrange(n)).tap(timeout=1500)
    except PlaywrightError:  # re-rendered under the finger (a bot acted): look again next round
        return False
    return True


def blast_off_step(page: Any, rng: random.Random) -> str:
    for selector, what in ((".bo-obl .bo-say button", "said"), (".bo-countdown button.bo-slap", "slapped"),
                           (".bo-acts .bo-wildgrid button.bo-card", "declared"),
                           (".bo-acts button[data-action^='choose']", "chose"),
                           (".bo-wild button.bo-card", "played a wild")):
        if tap_one(page, selector, rng):
            return what
    if rng.random() < 0.08 and tap_one(page, ".bo-acts button.bo-catch", rng):
        return "caught"
    if tap_one(page, ".bo-hand .bo-cards button.bo-card", rng):
        return "played"
    if tap_one(page, ".bo-acts button.primary", rng):
        return "drew"
    return ""


def meteor_step(page: Any, rng: random.Random) -> str:
    from playwright.sync_api import Error as PlaywrightError

    try:
        if tap_one(page, "button.met-launch:not(.overkill)", rng):
            return "launch"
        cards = page.locator(".met-cards button.met-card:not([disabled])")
        n = cards.count()
        if not n:
            if rng.random() < 0.3 and tap_one(page, "button[data-action='pass']", rng):
                return "pass"
            return ""
        cards.nth(rng.randrange(n)).tap(timeout=1000)
        targets = page.locator(".met-site.target button.primary")
        if not targets.count():
            return "picked"
        own = page.locator(".met-site.target[data-site='s0'] button.primary")
        (own.first if own.count() else targets.first).tap(timeout=1000)
        return "placed"
    except PlaywrightError:
        return ""


def reachable_blast_off(page: Any, view: dict[str, Any]) -> list[str]:
    """The legal actions of ``view`` with no control on the page. A Wild's declarations open from the
    Wild (one control); a catch names its mission only when several are in force; a mission's words
    are offered while one owes them (said unowed they do nothing: the board shows no button then)."""
    missing = []
    several = len(view["view"].get("missions_in_force") or []) > 1
    for a in view["legal"]:
        if a.split(" ")[0] in ("announce", "gesture") and not view["view"].get("obligations"):
            continue
        if a.startswith("play W["):
            sel = ".bo-hand button.bo-card[data-card='W']"
        elif a.startswith("catch ") and len(a.split(" ")) == 3 and not several:
            sel = f"button[data-action='catch {a.split(' ')[1]}']"
        else:
            sel = f"[data-action='{a}']"
        if not page.locator(sel).count():
            missing.append(a)
    return missing


@pytest.mark.skipif("blast-off" not in cosmodeck.list_games(), reason="Blast Off is not registered")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_blast_off_game_on_a_phone(lang: str, browser: Any, web_server: str, shots: Any) -> None:
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"},
                    options={**FAST_OPTIONS["blast-off"], **test_blast_off.FAST}, seed=5 if lang == "en" else 7)
    ctx, page = phone(browser, lang)
    errors = watch(page)
    frames = last_view(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    check_phone(page, "blast-off", "at the start")
    shots(page, "1-start")
    # scrolled so that the hand ends at the bottom of the screen, the status line is still in sight
    page.evaluate("document.querySelector('.bo-hand').scrollIntoView({ block: 'end' })")
    status = page.locator(".bo-status").bounding_box()
    assert status is not None and status["y"] >= -1 and status["y"] + status["height"] <= HEIGHT, status
    page.evaluate("window.scrollTo(0, 0)")
    rng = random.Random(5)
    deadline = time.monotonic() + 150
    steps, did, checked_turns = 0, {}, 0
    while not test_blast_off.result_shown(page):
        assert time.monotonic() < deadline, f"the game did not finish: {did}"
        # one's own turn holds still (the bots wait): every legal action has its control
        yours = page.locator(".bo-status.yours").count() and "view" in frames
        busy = page.locator(".bo-countdown:not([hidden]), .bo-obl:not([hidden])").count()
        if yours and checked_turns < 5 and not busy:
            page.wait_for_timeout(200)
            view = frames["view"]
            v = view["view"]
            if v.get("turn") == 0 and v.get("phase") != "COUNTDOWN" and not v.get("obligations"):
                assert reachable_blast_off(page, view) == [], view["legal"]
                checked_turns += 1
        what = blast_off_step(page, rng)
        did[what] = did.get(what, 0) + 1
        if steps % 3 == 0:
            check_phone(page, "blast-off", f"at step {steps} ({what or 'waiting'})")
            scan(page, lang=lang, where=f"on a phone at step {steps}")
        if page.locator(".bo-countdown:not([hidden])").count() and "countdown" not in did:
            did["countdown"] = 1
            check_phone(page, "blast-off", "in a countdown")
            shots(page, "2-countdown")
        steps += 1
        if not what:
            page.wait_for_timeout(50)
    page.wait_for_selector(".result .bo-places")
    check_phone(page, "blast-off", "at the end")
    scan(page, lang=lang, where="on a phone at the end")
    shots(page, "3-over")
    assert did.get("played", 0) + did.get("drew", 0) >= 2 and checked_turns >= 1, (did, checked_turns)
    print(f"blast off on a phone ({lang}): {steps} steps, {did}, {checked_turns} turns checked")
    errors.check()
    ctx.close()


@pytest.mark.skipif("meteor" not in cosmodeck.list_games(), reason="Meteor is not registered")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_meteor_game_on_a_phone(lang: str, browser: Any, web_server: str, shots: Any) -> None:
    options = {**test_meteor.OPTIONS, "difficulty": "advanced"} if lang == "es" else test_meteor.OPTIONS
    r = create_room(web_server, "meteor", 3, bots={"1": "random", "2": "random"}, options=options, seed=8)
    ctx, page = phone(browser, lang)
    errors = watch(page)
    frames = last_view(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector("button[data-action='start']")
    page.wait_for_timeout(300)
    check_phone(page, "meteor", "before the start")
    view = frames["view"]
    for a in view["legal"]:  # before the start the view holds still: each legal action has its button
        assert page.locator(f"[data-action='{a}']").count(), a
    page.locator("button[data-action='start']").tap()
    page.wait_for_selector(".met-cards .met-card")
    shots(page, "1-start")
    # the hand's help speaks of taps; scrolled down to the hand, the zone's time is still in sight
    help_text = page.locator(".met-hand p.muted").first.inner_text()
    assert ("Tap a card" if lang == "en" else "Toca una carta") in help_text and "Hover" not in help_text, help_text
    page.evaluate("document.querySelector('.met-hand').scrollIntoView({ block: 'end' })")
    timer = page.locator(".met-timer").bounding_box()
    assert timer is not None and timer["y"] >= -1 and timer["y"] + timer["height"] <= HEIGHT * 0.2, timer
    page.evaluate("window.scrollTo(0, 0)")
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    steps, did = 0, {}
    while not test_meteor.result_shown(page):
        assert time.monotonic() < deadline, f"the game did not finish: {did}"
        what = meteor_step(page, rng)
        did[what] = did.get(what, 0) + 1
        if steps % 3 == 0 and not test_meteor.result_shown(page):
            check_phone(page, "meteor", f"at step {steps} ({what or 'waiting'})")
            scan(page, lang=lang, where=f"on a phone at step {steps}")
        if steps == 6:
            shots(page, "2-midgame")
        steps += 1
        if not what:
            page.wait_for_timeout(50)
    page.wait_for_selector("#rematch")
    check_phone(page, "meteor", "at the end")
    scan(page, lang=lang, where="on a phone at the end")
    shots(page, "3-over")
    # a reload keeps the log: the server resends the recent steps' events (the last 100 steps)
    lines = page.evaluate("document.querySelectorAll('.log li').length")
    page.reload()
    page.wait_for_selector(".met-field")
    page.wait_for_function(f"document.querySelectorAll('.log li').length >= {min(lines, 40)}")
    assert (" places " if lang == "en" else " coloca ") in page.locator(".log").inner_text()
    # the replay on the phone: its bar fits, no key hint, every step to the end without an error
    page.goto(f"{web_server}/replay/{r['room']}")
    page.wait_for_selector(".replay-events li")
    steps = int(page.get_attribute("#replay-step", "max") or "0")
    for i in range(0, steps + 1, max(1, steps // 10)):
        page.evaluate("(i) => { const s = document.getElementById('replay-step'); s.value = String(i);"
                      " s.dispatchEvent(new Event('input')); }", i)
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, f"replay step {i}"
    page.locator("#replay-last").tap()
    assert page.locator(".replay-bar .pos").inner_text().endswith(str(steps))
    assert KEY_HINT.search(visible_text(page)) is None
    scan(page, lang=lang, where="in the replay on a phone")
    assert did.get("placed", 0) >= 2, did
    print(f"meteor on a phone ({lang}): {steps} steps, {did}")
    errors.check()
    ctx.close()
