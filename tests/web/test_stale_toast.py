""""The game changed while you chose" is said only when the server refused a click because the game
had moved on and the choice is gone from the newest view, in English and Spanish. Views that arrive
while a choice is open, a stale click that is still legal (sent again for the newest view) and the
refusal of a click the player has since replaced by another say nothing. A Blast Off! countdown's slap
or "Pass" is for the number called: overtaken by the next call it is never resent, and the page says it
came too late.

The page's WebSocket goes through Playwright's route, which holds one chosen ``act`` frame until a
condition on the server's frames holds (or the test releases it): the server then refuses it as
``stale_version`` for real."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

TOASTS = """() => { window.__toasts = [];
  new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) window.__toasts.push(n.textContent); })
    .observe(document.getElementById('toasts'), { childList: true }); }"""  # noqa: E501

MOVED_ON = {"en": "Too late: the count had moved on when your choice arrived.",
            "es": "Demasiado tarde: la cuenta ya había avanzado cuando llegó tu elección."}

Frame = dict[str, Any]


class Holder:
    """Routes the page's game socket; holds the first page ``act`` frame that ``hold`` accepts until
    ``release(held, server_frame)`` holds for a frame from the server (or ``release_now()``)."""

    def __init__(self, page: Any, hold: Callable[[Frame], bool],
                 release: Callable[[Frame, Frame], bool] | None = None) -> None:
        self.hold, self.release = hold, release
        self.held: Frame | None = None
        self.last_view: Frame | None = None  # the newest view the page had got
        self.view_when_held: Frame | None = None  # the view the held frame was sent from
        self.sent: list[Frame] = []  # every act frame the page sent
        self.released: list[Frame] = []
        self.errors: list[Frame] = []
        self.server: Any = None
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.server = server

        def from_page(m: str | bytes) -> None:
            if isinstance(m, str):
                d = json.loads(m)
                if d.get("type") == "act":
                    self.sent.append(d)
                    if self.held is None and self.hold(d):
                        self.held, self.view_when_held = d, self.last_view
                        return
            server.send(m)

        def from_server(m: str | bytes) -> None:
            ws.send(m)
            if not isinstance(m, str):
                return
            d = json.loads(m)
            if d.get("type") == "error":
                self.errors.append(d)
            if d.get("type") == "view":
                self.last_view = d
            if self.held is not None and self.release is not None and self.release(self.held, d):
                self.release_now()

        ws.on_message(from_page)
        server.on_message(from_server)

    def release_now(self) -> None:
        assert self.held is not None and self.server is not None
        self.server.send(json.dumps(self.held))
        self.released.append(self.held)
        self.held = None
        self.hold = lambda _d: False  # one frame held per test phase; set a new ``hold`` for the next


def toasts(page: Any) -> list[str]:
    return list(page.evaluate("window.__toasts"))


def wait_until(cond: Callable[[], bool], page: Any, seconds: float, what: str | Callable[[], str]) -> None:
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, what() if callable(what) else what
        page.wait_for_timeout(50)


def blast_off_seed(options: dict[str, Any]) -> int:
    """A seed whose first seat starts and may open with its Countdown card, holding a 10 to slap."""
    game = cosmodeck.load_game("blast-off", **options)
    for seed in range(200):
        st = game.new_game(players=3, seed=seed)
        legal = [str(a) for a in st.legal_actions(0)]
        if "play CD" in legal and any(c.endswith("10") for c in st.view(0)["hand"]):
            return seed
    raise AssertionError("no seed lets the first seat open a countdown")


@pytest.mark.skipif("blast-off" not in cosmodeck.list_games(), reason="Blast Off is not registered")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_slap_overtaken_by_the_next_call_is_refused_and_said_too_late_once(lang: str, browser: Any,
                                                                             web_server: str) -> None:
    """A slap is for the number called: reaching the server after the next call, it is refused, never
    resent for the new number, and the page says it came too late (not the general "the game changed")."""
    options = {**FAST_OPTIONS["blast-off"], "tick_s": 0.8, "countdown_pace": "fast"}
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"}, options=options,
                    seed=blast_off_seed(options))
    page = new_page(browser, lang=lang)
    errors = watch(page)
    # the slap is held until the countdown has called its next number: the slap is gone from the view
    holder = Holder(page, hold=lambda d: str(d["action"]).startswith("slap "),
                    release=lambda held, d: d.get("type") == "view" and held["action"] not in d.get("legal", []))
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    page.evaluate(TOASTS)
    page.click(".bo-hand button[data-action='play CD']")
    page.wait_for_selector(".bo-countdown button.bo-slap")
    assert toasts(page) == []  # the countdown's views have been arriving: nothing said
    page.locator(".bo-countdown button.bo-slap").first.click()
    wait_until(lambda: bool(holder.released), page, 15, "the countdown did not call its next number")
    page.wait_for_selector("#toasts .toast.error")
    stale = [e for e in holder.errors if e["code"] == "stale_version"]
    assert [e["action"] for e in stale] == [holder.released[0]["action"]], holder.errors
    assert [d["action"] for d in holder.sent].count(holder.released[0]["action"]) == 1, holder.sent
    assert toasts(page) == [MOVED_ON[lang]]
    scan(page, lang=lang, where="with the refusal said")
    page.wait_for_timeout(1500)  # the next calls' views: still said once
    assert toasts(page) == [MOVED_ON[lang]]
    if lang == "en":  # a toast still showing is said again in the language the player switches to
        page.select_option("#lang", "es")
        page.wait_for_function("document.documentElement.lang === 'es'")
        assert page.locator("#toasts .toast.error").inner_text() == MOVED_ON["es"]
        scan(page, lang="es", where="with the refusal said, after switching to Spanish")
    errors.check()


def click_a_placement(page: Any, rng: random.Random) -> bool:
    """Pick a card of the hand that can go somewhere, then one of its target sites."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        cards = page.locator(".met-cards button.met-card:not([disabled])")
        if not cards.count():
            return False
        cards.nth(rng.randrange(cards.count())).click(timeout=1000)
        targets = page.locator(".met-site.target button.primary")
        if not targets.count():
            return False
        targets.first.click(timeout=1000)
        return True
    except PlaywrightError:  # re-rendered under the click: look again
        return False


PLACES = "[...document.querySelectorAll('.log li')].filter(li => li.textContent.startsWith('Player 1 places')).length"


def places(page: Any) -> int:
    return int(page.evaluate(PLACES))


@pytest.mark.skipif("meteor" not in cosmodeck.list_games(), reason="Meteor is not registered")
def test_views_a_still_legal_stale_click_and_a_replaced_click_say_nothing(browser: Any, web_server: str) -> None:
    options = {**FAST_OPTIONS["meteor"], "zone_timer_s": 8.0}
    # Random bots at the tests' bot speed (x0.05) act every ~50 ms (emotes and signals included), so under a
    # loaded CI machine every resend of the page's still-legal "start" met a newer version again (13 refusals
    # in 60 s, seen in a full run). A 20 s median (1 s here) keeps views arriving while the page chooses.
    bot = "random:median_s=20"
    r = create_room(web_server, "meteor", 3, bots={"1": bot, "2": bot}, options=options, seed=8)
    page = new_page(browser)
    errors = watch(page)
    rng = random.Random(4)
    # 1. a placement held until the game has moved on, while it is still legal: refused as stale,
    #    sent again by the page for the newest view, placed, and nothing said
    holder = Holder(page, hold=lambda d: str(d["action"]).startswith("place_card "),
                    release=lambda held, d: d.get("type") == "view" and d["version"] > held["version"]
                    and held["action"] in d.get("legal", []))
    page.goto(r["links"]["0"])
    page.wait_for_selector("button[data-action='start']")
    page.evaluate(TOASTS)
    page.click("button[data-action='start']")
    wait_until(lambda: page.locator(".met-cards button.met-card:not([disabled])").count() > 0, page, 60,
               lambda: f"no card to place: sent {holder.sent}, refused {holder.errors}, "
                       f"legal {(holder.last_view or {}).get('legal')}")
    # a choice open (a card picked) while the other seats' moves arrive as new views: nothing said
    page.locator(".met-cards button.met-card:not([disabled])").first.click()
    page.wait_for_timeout(1500)
    assert toasts(page) == []
    wait_until(lambda: click_a_placement(page, rng) or bool(holder.held), page, 10, "no card could be placed")
    wait_until(lambda: bool(holder.released), page, 10, "the game did not move on")
    first = holder.released[0]
    wait_until(lambda: any(e.get("action") == first["action"] for e in holder.errors), page, 10,
               "the held placement was not refused")
    page.wait_for_function(f"{PLACES} > 0")
    assert toasts(page) == [], toasts(page)
    # 2. a placement held while the player places another card: the first one's refusal is old news
    before = places(page)
    holder.hold = lambda d: str(d["action"]).startswith("place_card ") and d["action"] != first["action"]
    holder.release = None
    wait_until(lambda: bool(holder.held) or (click_a_placement(page, rng) and False), page, 15,
               "no second card could be placed")
    replaced = holder.held
    assert replaced is not None
    page.wait_for_timeout(300)  # the game moves on meanwhile (the bots)
    wait_until(lambda: places(page) > before or (click_a_placement(page, rng) and False), page, 15,
               "the other card was not placed")
    holder.release_now()  # the first click reaches the server now, for a version long gone
    wait_until(lambda: any(e.get("action") == replaced["action"] and e["code"] == "stale_version"
                           for e in holder.errors), page, 10, "the replaced placement was not refused")
    page.wait_for_timeout(500)
    assert toasts(page) == [], toasts(page)
    errors.check()


@pytest.mark.skipif("blast-off" not in cosmodeck.list_games(), reason="Blast Off is not registered")
def test_a_countdown_pass_overtaken_by_the_next_call_is_not_resent_for_it(browser: Any, web_server: str) -> None:
    """"Pass" in a countdown means "nothing for the number called now": still legal at the next call,
    it is not sent again for that other number; the player is told the count moved on (in those words,
    not the general "the game changed")."""
    options = {**FAST_OPTIONS["blast-off"], "tick_s": 0.8, "countdown_pace": "fast"}
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"}, options=options,
                    seed=blast_off_seed(options))
    page = new_page(browser)
    errors = watch(page)

    def next_call(held: Frame, d: Frame) -> bool:
        before = ((holder.view_when_held or {}).get("view") or {}).get("countdown") or {}
        now = (d.get("view") or {}).get("countdown") or {}
        return d.get("type") == "view" and "pass" in d.get("legal", []) and now.get("called") != before.get("called")

    holder = Holder(page, hold=lambda d: d["action"] == "pass", release=next_call)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    page.evaluate(TOASTS)
    page.click(".bo-hand button[data-action='play CD']")
    page.wait_for_selector(".bo-acts button[data-action='pass']")
    page.click(".bo-acts button[data-action='pass']")
    wait_until(lambda: bool(holder.released), page, 15, "the countdown did not call its next number")
    page.wait_for_selector("#toasts .toast.error")
    assert toasts(page) == [MOVED_ON["en"]]
    assert [d["action"] for d in holder.sent].count("pass") == 1, holder.sent  # never resent
    errors.check()
