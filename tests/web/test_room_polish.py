"""The small things a new player noticed in a Shooting Star room (issue 11, "Small"): log numbers
that fit three digits, planets named on the grid, a log that survives a reload (also for a
spectator), and the How to play box that covers a first game's rules."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import httpx
import pytest

import cosmodeck
from tests.server.util import create_room
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("shooting-star" not in cosmodeck.list_games(),
                                 reason="Shooting Star is not registered")]


def finished_game(base: str, players: int = 4) -> str:
    r = create_room(base, "shooting-star", players, bots={str(s): "random" for s in range(players)}, seed=3)
    deadline = time.monotonic() + 120
    while httpx.get(f"{base}/api/rooms/{r['room']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.3)
    return str(r["room"])


# the widest list number the log can show (it keeps 200 lines) must fit in the list's left padding
MARKER_ROOM = """(sel) => {
  const ol = document.querySelector(sel);
  const li = ol.querySelector('li');
  const style = getComputedStyle(li);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  return { padding: parseFloat(getComputedStyle(ol).paddingLeft), needed: ctx.measureText('200. ').width,
           lines: ol.querySelectorAll('li').length };
}"""


def test_log_numbers_fit_three_digits_and_the_log_survives_a_reload(browser: Any, web_server: str) -> None:
    room = finished_game(web_server)
    page = new_page(browser)
    errors = watch(page)
    page.goto(f"{web_server}/room/{room}")  # a spectator: the history arrives on join
    page.wait_for_function("document.querySelectorAll('.log li').length > 20")
    m = page.evaluate(MARKER_ROOM, ".side .log")
    assert m["padding"] >= m["needed"], m  # "10." and "200." are not clipped to "0." / "00."
    scan(page, where="a finished room seen by a spectator")
    page.reload()
    page.wait_for_function(f"document.querySelectorAll('.log li').length >= {min(m['lines'], 50)}")
    assert "places a card" in page.locator(".log").inner_text()
    page.goto(f"{web_server}/replay/{room}")  # the replay's step list uses the same numbers
    page.wait_for_selector(".replay-events li")
    m = page.evaluate(MARKER_ROOM, ".replay-events")
    assert m["padding"] >= m["needed"], m
    errors.check()


def test_every_planet_on_the_grid_is_named_or_labelled_by_its_kind(browser: Any, web_server: str) -> None:
    page = new_page(browser)
    errors = watch(page)
    page.goto(f"{web_server}/replay/{finished_game(web_server, 3)}")  # its first step: the whole sector
    page.wait_for_selector(".ss-grid .ss-cell .lvl")
    cells = page.evaluate("""() => [...document.querySelectorAll('.ss-cell')].filter((c) => c.querySelector('.lvl'))
        .map((c) => ({ lvl: c.querySelector('.lvl').textContent,
                       name: (c.querySelector('.pname') || {}).textContent || '',
                       label: c.getAttribute('aria-label') }))""")
    assert len(cells) >= 15
    for c in cells:
        assert c["name"], c  # no bare level number
        if c["lvl"] in ("1", "2"):
            assert c["name"] == "planet 1/2", c
        elif c["lvl"] in ("3", "4"):
            assert c["name"] not in ("planet 1/2", "dark") and c["name"] in c["label"], c
        else:
            assert c["lvl"] == "D" and c["name"] == "dark", c
        assert c["label"].startswith("column "), c
    # the missions' named planets are the names on the grid's level-3/4 planets
    named = {c["name"] for c in cells if c["lvl"] in ("3", "4")}
    assert "Zero" in named  # the planet every 3-point mission names is always set out (SHS-3.2)
    errors.check()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_how_to_play_covers_the_rules_a_first_game_needs(lang: str, browser: Any, web_server: str) -> None:
    r = create_room(web_server, "shooting-star", 2, bots={"0": "random", "1": "random"}, seed=4)
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(f"{web_server}/room/{r['room']}")
    page.wait_for_selector(".ss-help summary")
    page.click(".ss-help summary")
    text = page.locator(".ss-help").inner_text().lower()
    words = {
        "en": ("cannot pass", "priority 7", "twice", "replaced by a level-2", "space shield", "isolated",
               "dark planet", "secret missions", "after 7 turns", "no more planets than players", "+3",
               "a tie goes to", "destroys it"),
        "es": ("no se puede pasar", "prioridad 7", "dos niveles", "reemplazado por un planeta de nivel 2",
               "escudo espacial", "aislado", "planeta oscuro", "misiones secretas", "tras 7 turnos",
               "tantos planetas como jugadores", "+3", "empate", "la destruye"),
    }[lang]
    for w in words:
        assert w in text, w
    assert page.locator(".ss-help a[href='/rules/shooting-star']").count() == 1  # the full rules, one click
    page.goto(f"{web_server}/rules/shooting-star")
    page.wait_for_selector(".howto p")
    assert "priority 7" in page.locator(".howto").inner_text().lower() or lang == "es"
    scan(page, lang=lang, where="on the rules page")
    errors.check()


STATUS_LOG = """() => { window.statuses = [];
  const el = document.querySelector('.ss-status');
  new MutationObserver(() => window.statuses.push(el.textContent))
    .observe(el, { childList: true, characterData: true, subtree: true });
  window.orders = [];
  const grid = document.querySelector('.ss-grid');
  const tags = () => [...grid.querySelectorAll('.ss-placed .order')].map((o) => o.textContent);
  new MutationObserver(() => window.orders.push(...tags())).observe(grid, { childList: true });
}"""


def place_one(page: Any, timeout: float = 30_000) -> None:
    page.click(".ss-card:not([disabled])", timeout=timeout)
    page.locator(".ss-cell.legal").first.click(timeout=timeout)


def test_the_status_says_resolving_only_when_the_turn_resolves_and_the_end_has_no_turn(browser: Any,
                                                                                       web_server: str) -> None:
    from playwright.sync_api import Error as PlaywrightError

    # two people, seat 0 places first: its placement is shown while seat 1 still has to place
    r = create_room(web_server, "shooting-star", 2, options={"first_player": 0})
    first = new_page(browser, anim="normal")
    second = new_page(browser, anim="normal")
    errors = [watch(first), watch(second)]
    first.goto(r["links"]["0"])
    second.goto(r["links"]["1"])
    first.wait_for_selector(".ss-card:not([disabled])")  # both seats joined: the game starts
    first.evaluate(STATUS_LOG)
    place_one(first)
    first.wait_for_function("document.querySelector('.ss-status').textContent.includes('Waiting for')")
    first.wait_for_selector(".ss-skip", state="hidden")
    said = first.evaluate("window.statuses")
    assert not [s for s in said if "Resolving" in s], said  # the turn has not resolved: seat 1 has not placed
    assert "Waiting for" in first.locator(".ss-status").inner_text()
    second.wait_for_selector(".ss-card:not([disabled])")
    place_one(second)  # the last placement: now the turn resolves
    first.wait_for_function("window.statuses.some((s) => s.includes('Resolving the turn'))")
    orders = first.evaluate("window.orders")
    assert "#1" in orders and "#2" in orders and "#" not in orders, orders  # each placed card shows its order
    # play the game out; at the end: no turn count, no arrow to choose, the hand says what became of it
    deadline = time.monotonic() + 200
    while not (first.locator(".result:not([hidden])").count() and second.locator(".result:not([hidden])").count()):
        assert time.monotonic() < deadline, "the game did not finish"
        for page in (first, second):
            if page.locator(".ss-card:not([disabled])").count() and page.locator(".ss-skip[hidden]").count():
                with contextlib.suppress(PlaywrightError):  # re-rendered under the click: next round
                    place_one(page, timeout=2000)
        time.sleep(0.1)
    for page in (first, second):
        page.wait_for_selector(".ss-breakdown")
        assert page.locator(".ss-status").inner_text() == "The game is over."
        assert page.locator(".ss-arrow").count() == 0
        assert "went to your space debris" in page.locator(".ss-hand h2").inner_text()
        scan(page, where="at the end")
    page = new_page(browser)
    errors.append(watch(page))
    page.goto(f"{web_server}/replay/{r['room']}")
    page.wait_for_selector(".ss-grid .ss-cell")
    assert page.locator("#ss-speed").count() == 0  # a replay never animates: no animation speed to choose
    for e in errors:
        e.check()


@pytest.mark.parametrize(("lang", "tuned"), [("en", "bot (good, own settings)"),
                                             ("es", "bot (bueno, con ajustes propios)")])
def test_a_bot_with_its_own_settings_is_named_by_its_level_never_its_spec(lang: str, tuned: str, browser: Any,
                                                                          web_server: str) -> None:
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic:p_catch=1;memory=flat", "2": "heuristic"},
                    seed=5)
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand")
    page.wait_for_selector(".presence li")
    seats = page.locator(".presence").inner_text()
    assert tuned in seats and "p_catch" not in seats, seats
    scan(page, lang=lang, where="with a bot of its own settings seated")
    errors.check()
