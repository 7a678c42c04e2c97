"""Two browser contexts plus bots play a complete game of each available game in Chromium.

Shooting Star's whole game from the lobby, scanned at every step, is in test_shooting_star.py."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

GAMES = cosmodeck.list_games()


def wait_quietly(page: Any, selector: str, timeout: float = 5000) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(selector, timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


def result_shown(page: Any) -> bool:
    return bool(page.locator(".result:not([hidden])").count())


CHATTER = ("announce", "catch", "emote", "signal", "chat", "gesture")


def play_generic(page: Any, rng: random.Random) -> bool:
    """Click a random action button; mostly moves that advance the game rather than talk or calls."""
    actions: list[str] = page.eval_on_selector_all("button.action", "els => els.map(e => e.dataset.action)")
    if not actions:
        return False
    moves = [a for a in actions if not a.startswith(CHATTER) and a != "time_out"]
    calm = [a for a in actions if a != "time_out"]  # nobody pauses the game in these tests
    if not calm:
        return False
    shedding = [a for a in moves if a.startswith(("play", "slap", "declare", "launch", "place_card", "start"))]
    if shedding and rng.random() < 0.7:  # games end sooner when players mostly play cards
        moves = shedding
    pick = rng.choice(moves if moves and rng.random() < 0.9 else calm)
    try:
        page.locator(f"button.action[data-action='{pick}']").first.click(timeout=2000)
    except Exception:  # the list was re-rendered under the click: try again next round
        return False
    return True


@pytest.mark.parametrize("game", [g for g in GAMES if g != "shooting-star"])
def test_generic_board_two_players_and_a_bot_play_to_the_end(game: str, browser: Any, web_server: str,
                                                             shots: Any) -> None:
    info = cosmodeck.load_game(game).info
    players = min(info.max_players, 3)
    options = {**FAST_OPTIONS.get(game, {}), **({"tick_s": 0.4} if game == "blast-off" else {})}
    # The random bot at the tests' bot speed (x0.05) acts every ~50 ms; in Blast Off it then spams free
    # "catch" calls at ~15 a second, and the pages, re-rendered at that rate, missed clicks until the
    # game never ended (seen in CI). A 6 s median (0.3 s here) keeps the bot busy without drowning the board.
    r = create_room(web_server, game, players, bots={str(players - 1): "random:median_s=6"}, options=options)
    pages = []
    for seat in range(2):
        page = new_page(browser, simple=True)  # every game through the developers' simple view
        page.goto(f"{web_server}/room/{r['room']}#token={r['seats'][str(seat)]}")
        pages.append(page)
    for page in pages:
        page.wait_for_selector(".room-head")
        if page.locator("button.toggle").inner_text() == "Simple view" and page.locator(".generic").count() == 0:
            page.click("button.toggle")
        page.wait_for_selector(".generic")
    shots(pages[0], "1-start")
    rng = random.Random(9)
    deadline = time.monotonic() + 300
    while not all(result_shown(p) for p in pages):
        assert time.monotonic() < deadline, "the game did not finish"
        acted = False
        for page in pages:
            if not result_shown(page) and rng.random() < 0.7:
                acted = play_generic(page, rng) or acted
        if not acted:
            time.sleep(0.05)
    shots(pages[0], "2-over")
    assert httpx.get(f"{web_server}/api/rooms/{r['room']}").json()["status"] == "over"
    for page in pages:
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.skipif("meteor" not in GAMES, reason="Meteor is not registered")
def test_meteor_board_start_place_a_card_and_signal(browser: Any, web_server: str, shots: Any) -> None:
    r = create_room(web_server, "meteor", 2, bots={"1": "random"}, options={"zone_timer_s": 30}, seed=4)
    page = new_page(browser)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".met-field")
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards button.met-card:not([disabled])")
    page.locator(".met-cards button.met-card:not([disabled])").first.click()
    assert page.locator(".met-site.target").count() >= 1
    shots(page, "1-pick-site")
    page.locator(".met-site.target button.primary").first.click()
    log_has = "text => [...document.querySelectorAll('.log li')].some(li => li.textContent.includes(text))"
    page.wait_for_function(log_has, arg="Player 1 places")
    page.click("button[data-action='signal launch']")
    page.wait_for_function(log_has, arg="Player 1: « Launch! »")
    expect(page.locator(".met-timer .left")).to_contain_text("left in this zone")
    shots(page, "2-played")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.skipif("blast-off" not in GAMES, reason="Blast Off is not registered")
def test_blast_off_board_plays_cards_from_the_hand_in_spanish(browser: Any, web_server: str, shots: Any) -> None:
    """The Blast Off board: play or draw from the hand, slap with Space in a countdown (a complete game
    of Blast Off in the browser is played on the generic board above)."""
    r = create_room(web_server, "blast-off", 2, bots={"1": "random"}, seed=8)
    page = new_page(browser, lang="es")
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-table")
    shots(page, "1-start")
    rng = random.Random(2)
    deadline = time.monotonic() + 90
    mine = "document.querySelectorAll('.log li')"
    played = 0
    while played < 6 and not result_shown(page):
        assert time.monotonic() < deadline, f"only {played} moves in 90 s"
        if page.locator("button.bo-slap").count():
            page.keyboard.press(" ")  # Space slaps the first matching card
            shots(page, "2-countdown")
            continue
        options = page.locator(".bo-cards button.bo-card, .bo-wild button.bo-card, .bo-acts button.primary")
        n = options.count()
        if not n:
            time.sleep(0.05)
            continue
        before = page.evaluate(f"[...{mine}].filter(li => li.textContent.startsWith('Jugador 1 ')).length")
        try:
            options.nth(rng.randrange(n)).click(timeout=1000)
            page.wait_for_function(
                f"[...{mine}].filter(li => li.textContent.startsWith('Jugador 1 ')).length > {before}", timeout=5000)
            played += 1
        except Exception:  # re-rendered under the click, or a wild picker opened: look again
            pass
    shots(page, "3-played")
    log = page.locator(".log").inner_text()
    assert "Jugador 1 juega" in log or "Jugador 1 roba" in log
    assert page.errors == []  # type: ignore[attr-defined]
