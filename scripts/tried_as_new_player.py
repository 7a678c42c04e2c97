"""Play a whole game of each game in Chromium as a new player would (docs/SERVER.md, "Tried as a new
player"): from the lobby, one seat clicked through the page against the lobby's default bots, then the
replay, the rules page and a phone. Screenshots go to OUT (default artifacts/new-player/); what the
page showed that a player should not read (tests/web/scan.py) and any page error is printed.

    .venv/bin/python scripts/tried_as_new_player.py [OUT [PARTS]]

PARTS: a comma-separated choice of shooting-star, blast-off, meteor, meteor-advanced, phones (all by default).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.util import serve_in_thread  # noqa: E402
from tests.web import test_blast_off, test_meteor, test_shooting_star  # noqa: E402
from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402
from tests.web.scan import page_lang, problems, visible_text, watch  # noqa: E402

from cosmodeck.server import ServerConfig  # noqa: E402

SEEN: dict[str, list[str]] = {}
PREFIX = {"shooting-star": "ss", "blast-off": "bo", "meteor": "met"}


def context(browser: Any, lang: str, phone: bool = False) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 860}
    ctx = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('cosmodeck.lang', '{lang}');")
    ctx.add_init_script(TOASTS_JS)
    ctx.set_default_timeout(60_000)
    page = ctx.new_page()
    page.scan_errors = watch(page)
    return page


# every toast the page shows, kept in window.__toasts (a stale-click toast is counted after a game)
# with the last action the page sent before it (what the player had clicked)
TOASTS_JS = """window.__toasts = []; window.__lastAct = '';
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { const m = JSON.parse(data); if (m.type === 'act') window.__lastAct = m.action; } catch (e) {}
  return send.call(this, data);
};
new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
  if (n.classList && n.classList.contains('toast'))
    window.__toasts.push(n.textContent + ' [' + window.__lastAct + ']'); })
  .observe(document, { childList: true, subtree: true });"""
STALE = ("while you chose", "mientras elegías", "Too late", "Demasiado tarde")  # a click the game overtook


def stale_toasts(page: Any) -> list[str]:
    """The stale-click toasts the page showed, each with the action the page had sent last."""
    return list(page.evaluate("(w) => window.__toasts.filter((x) => w.some((s) => x.includes(s)))", list(STALE)))


def look(page: Any, where: str) -> None:
    for line in problems(visible_text(page), page_lang(page)):
        SEEN.setdefault(where, []).append(line)


def shot(page: Any, out: Path, name: str, full: bool = False) -> None:
    page.screenshot(path=str(out / f"{name}.png"), full_page=full)


def from_lobby(page: Any, base: str, game: str, players: int | None = None, seed: int | None = None) -> str:
    """Create a room in the lobby with its defaults (seat 1 a person, the rest bots); go to seat 1."""
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", game)
    page.wait_for_selector(f"#rules-link[href='/rules/{game}']")
    if players:
        page.select_option("#players", str(players))
        page.wait_for_selector(f"#seat-{players - 1}")
    if seed is not None:
        # the shuffle's number is under the lobby's "more options"; set it for a run that can be repeated
        page.evaluate("(n) => { const s = document.getElementById('seed'); s.value = String(n);"
                      " s.dispatchEvent(new Event('change')); }", seed)
    look(page, f"{game}: lobby")
    page.click("#create")
    page.wait_for_selector(".created a[data-seat='0']")
    link = page.get_attribute(".created a[data-seat='0']", "href")
    page.goto(link)
    return str(link).split("/room/")[1].split("#")[0]


def play(page: Any, step: Any, done: Any, label: str, out: Path, limit: float, moments: dict[str, str]) -> int:
    rng = random.Random(1)
    deadline = time.monotonic() + limit
    n = 0
    taken: set[str] = set()
    while not done(page):
        if time.monotonic() > deadline:
            print(f"{label}: not finished after {limit:.0f} s")
            break
        did = step(page, rng)
        look(page, f"{label}: playing")
        for name, selector in moments.items():
            if name not in taken and page.locator(selector).count():
                taken.add(name)
                shot(page, out, f"{PREFIX[label]}-{name}")
        n += 1
        if not did:
            time.sleep(0.1)
    return n


def shooting_star(browser: Any, base: str, out: Path) -> str:
    page = context(browser, "en")
    room = from_lobby(page, base, "shooting-star", players=3)
    page.wait_for_selector(".ss-grid .ss-cell")
    if page.locator("#start-now").count():
        page.click("#start-now")
    page.wait_for_selector(".ss-card:not([disabled])")
    page.click(".ss-card:not([disabled])")
    page.locator(".ss-cell.legal").nth(2).hover()
    shot(page, out, "ss-1-placing")
    look(page, "shooting-star: placing")
    page.locator(".ss-cell.legal").nth(2).click()
    page.wait_for_function("document.querySelector('.ss-status').textContent.includes('Resolving')"
                           " || document.querySelector('.ss-card:not([disabled])')")
    shot(page, out, "ss-2-after-first-placement")
    n = play(page, test_shooting_star.play_turn, test_shooting_star.result_shown,
             "shooting-star", out, 300, {"3-resolving": ".ss-skip:not([hidden])"})
    page.wait_for_selector(".ss-breakdown")
    look(page, "shooting-star: over")
    shot(page, out, "ss-4-over", full=True)
    print(f"shooting-star: {n} rounds, status at the end: {page.locator('.ss-status').inner_text()!r}")
    lines = page.evaluate("document.querySelectorAll('.log li').length")
    page.reload()
    page.wait_for_function(f"document.querySelectorAll('.log li').length >= {min(lines, 50)}")
    after = page.evaluate("document.querySelectorAll('.log li').length")
    print(f"shooting-star: log lines {lines} before a reload, {after} after")
    print("shooting-star errors:", list(page.scan_errors))
    phone = context(browser, "es", phone=True)  # a second game on a touch phone, in Spanish, to its first turn
    from_lobby(phone, base, "shooting-star", players=2)
    if phone.locator("#start-now").count():
        phone.click("#start-now")
    phone.wait_for_selector(".ss-card:not([disabled])")
    phone.click(".ss-card:not([disabled])")
    look(phone, "shooting-star: phone")
    width = phone.evaluate("document.documentElement.scrollWidth")
    print(f"shooting-star on a 390 px phone: page width {width} px")
    # viewport shots: a full-page capture changes the device metrics and loses the touch media query
    shot(phone, out, "ss-5-phone-es")
    phone.locator(".ss-hand").scroll_into_view_if_needed()
    shot(phone, out, "ss-5-phone-hand-es")
    phone.goto(f"{base}/replay/{room}")
    phone.wait_for_selector(".ss-grid .ss-cell")
    phone.click("#replay-next")
    look(phone, "shooting-star: phone replay")
    shot(phone, out, "ss-6-phone-replay-es")
    return room


CAUGHT = {"en": "catches Player 1", "es": "atrapa a Jugador 1"}  # the page's seat caught
CATCHER = "heuristic:p_catch=1;p_forget=0;memory=flat"


def blast_off_once(browser: Any, base: str, out: Path, lang: str, seed: int) -> tuple[str, set[str]]:
    """One Blast Off! game of 3 from the lobby in ``lang``. Like a new player, the page forgets to say
    its obligations until a bot has caught it once, and says every later one; returns the room and which
    moments it saw (obligation, forgotten, caught, result)."""
    from tests.server.util import create_room

    # the lobby's bots ("good") catch a forgotten obligation about a third of the time; these two always
    # do, so that one run shows a catch (every other setting is the lobby's default)
    r = create_room(base, "blast-off", 3, bots={"1": CATCHER, "2": CATCHER}, seed=seed)
    room = str(r["room"])
    page = context(browser, lang)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand")
    if page.locator("#start-now").count():
        page.click("#start-now")
    seen: set[str] = set()
    tag = f"bo-{lang}"

    def step(pg: Any, rng: random.Random) -> str:
        if pg.locator(".bo-obl:not([hidden])").count():
            if "obligation" not in seen:
                seen.add("obligation")
                pg.evaluate("window.scrollTo(0, 0)")  # the order at the top, under the room's header
                shot(pg, out, f"{tag}-1-obligation")
            if "caught" not in seen:  # not said until a bot has caught the page once; wait out its deadline
                seen.add("forgotten")
                pg.wait_for_selector(".bo-obl", state="hidden", timeout=20_000)
                return "forgot"
        if "caught" not in seen and pg.locator(f".log li:has-text('{CAUGHT[lang]}')").count():
            seen.add("caught")
            pg.locator(f".log li:has-text('{CAUGHT[lang]}')").last.scroll_into_view_if_needed()
            shot(pg, out, f"{tag}-2-caught")
        return str(test_blast_off.play_step(pg, rng))

    n = play(page, step, test_blast_off.result_shown, "blast-off", out, 400,
             {f"{lang}-0-countdown": ".bo-countdown:not([hidden])", f"{lang}-0-mission": ".bo-missions .bo-mission"})
    page.wait_for_timeout(500)
    look(page, f"blast-off ({lang}): over")
    if test_blast_off.result_shown(page):
        seen.add("result")
        page.locator(".result:not([hidden])").scroll_into_view_if_needed()
        shot(page, out, f"{tag}-3-result")
    print(f"blast-off ({lang}, seed {seed}): {n} rounds; saw {sorted(seen)}; "
          f"stale-click toasts: {stale_toasts(page)}; errors: {list(page.scan_errors)}")
    page.context.close()
    return room, seen


def blast_off(browser: Any, base: str, out: Path) -> str:
    """A whole Blast Off! game in English and one in Spanish in which the page had an obligation, was
    caught and saw the result (up to twenty shuffles per language: many games end before a mission is
    turned over, and a bot catches a forgotten obligation only sometimes)."""
    room = ""
    for lang in ("en", "es"):
        for seed in range(1, 21):
            room, seen = blast_off_once(browser, base, out, lang, seed)
            if {"obligation", "caught", "result"} <= seen:
                break
    return room


def meteor(browser: Any, base: str, out: Path) -> str:
    page = context(browser, "en")
    room = from_lobby(page, base, "meteor", players=3)
    page.wait_for_selector(".met-field")
    if page.locator("#start-now").count():
        page.click("#start-now")
    page.wait_for_selector("button[data-action='start']")
    shot(page, out, "met-0-setup")
    look(page, "meteor: setup")
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card")
    n = play(page, test_meteor.play_step, test_meteor.result_shown, "meteor", out, 600,
             {"1-launch": "button.met-launch", "2-overkill": "button.met-launch.overkill"})
    page.wait_for_timeout(500)
    look(page, "meteor: over")
    shot(page, out, "met-3-over", full=True)
    print(f"meteor: {n} rounds; errors: {list(page.scan_errors)}")
    return room


def meteor_advanced(browser: Any, base: str, out: Path) -> str:
    """Advanced Meteor, 2 players, the page's seat dealt Backwards (it plays its cards by position)."""
    from tests.server.util import create_room

    options = {**test_meteor.OPTIONS, "difficulty": "advanced", "zone_timer_s": 6.0}
    r = create_room(base, "meteor", 2, bots={"1": "heuristic"}, options=options,
                    seed=test_meteor.backwards_seed(options))
    page = context(browser, "en")
    page.goto(r["links"]["0"])
    page.wait_for_selector("button[data-action='start']")
    look(page, "meteor advanced: setup")
    shot(page, out, "met-adv-0-setup")
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card.back")
    shot(page, out, "met-adv-1-backwards-hand")
    n = play(page, test_meteor.play_step, test_meteor.result_shown, "meteor", out, 300,
             {"adv-2-launch": "button.met-launch", "adv-2-selected": ".met-card.back.selected"})
    page.wait_for_timeout(500)
    look(page, "meteor advanced: over")
    shot(page, out, "met-adv-3-over", full=True)
    print(f"meteor advanced (Backwards): {n} rounds; errors: {list(page.scan_errors)}")
    return str(r["room"])


def phones(browser: Any, base: str, out: Path) -> None:
    """Meteor and Blast Off! on a 390x844 touch phone, in Spanish: viewport shots at the top, at the hand."""
    from tests.server.util import create_room

    for game, ready, hand in (("meteor", "button[data-action='start']", ".met-hand"),
                              ("blast-off", ".bo-hand .bo-card", ".bo-hand")):
        bots = {"1": "heuristic", "2": "heuristic"}
        options = test_meteor.OPTIONS if game == "meteor" else test_blast_off.FAST
        r = create_room(base, game, 3, bots=bots, options=options, seed=8)
        page = context(browser, "es", phone=True)
        page.goto(r["links"]["0"])
        page.wait_for_selector(ready)
        if game == "meteor":
            page.click("button[data-action='start']")
            page.wait_for_selector(".met-cards .met-card")
        rng = random.Random(2)
        for _ in range(6):
            (test_meteor.play_step if game == "meteor" else test_blast_off.play_step)(page, rng)
        look(page, f"{game}: phone")
        width = page.evaluate("document.documentElement.scrollWidth")
        print(f"{game} on a 390 px phone: page width {width} px")
        shot(page, out, f"phone-{game}-es")
        page.locator(hand).scroll_into_view_if_needed()
        shot(page, out, f"phone-{game}-hand-es")


def replays_and_rules(browser: Any, base: str, out: Path, rooms: dict[str, str]) -> None:
    for game, room in rooms.items():
        for lang in ("en", "es"):
            page = context(browser, lang)
            page.goto(f"{base}/replay/{room}")
            page.wait_for_selector(".replay-events li")
            steps = int(page.get_attribute("#replay-step", "max") or "0")
            for i in range(0, steps + 1, max(1, steps // 20)):
                page.evaluate("(i) => { const s = document.getElementById('replay-step'); s.value = String(i);"
                              " s.dispatchEvent(new Event('input')); }", i)
                look(page, f"{game}: replay ({lang})")
            page.evaluate("(i) => { const s = document.getElementById('replay-step'); s.value = String(i);"
                          " s.dispatchEvent(new Event('input')); }", steps // 2)
            shot(page, out, f"replay-{game}-{lang}")
            print(f"replay {game} {lang}: {steps} steps; errors: {list(page.scan_errors)}")
        for lang in ("en", "es"):
            page = context(browser, lang)
            page.goto(f"{base}/rules/{game}")
            page.wait_for_selector(".howto p")
            look(page, f"{game}: rules ({lang})")
            shot(page, out, f"rules-{game}-{lang}", full=True)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "artifacts" / "new-player"
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, \
            serve_in_thread(ServerConfig(db=str(Path(tmp) / "np.db"), bot_speed=0.15, room_rate="")) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        only = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else {"shooting-star", "blast-off", "meteor",
                                                                         "meteor-advanced", "phones"}
        games = {"shooting-star": shooting_star, "blast-off": blast_off, "meteor": meteor}
        rooms = {g: fn(browser, base, out) for g, fn in games.items() if g in only}
        if "meteor-advanced" in only:
            meteor_advanced(browser, base, out)
        if "phones" in only:
            phones(browser, base, out)
        replays_and_rules(browser, base, out, rooms)
        browser.close()
    for where, lines in SEEN.items():
        print(f"-- {where}: {len(lines)} findings")
        for line in sorted(set(lines))[:8]:
            print("   ", line)
    if not SEEN:
        print("no data shown anywhere")


if __name__ == "__main__":
    main()
