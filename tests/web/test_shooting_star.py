"""A whole game of Shooting Star through the page, by clicking: a host in English, a guest in
Spanish and a bot; every step's visible text is scanned (tests/web/scan.py) and any page or console
error fails the test."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import cosmodeck
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("shooting-star" not in cosmodeck.list_games(),
                                 reason="Shooting Star is not registered")]


def result_shown(page: Any) -> bool:
    return bool(page.locator(".result:not([hidden])").count())


def play_turn(page: Any, rng: random.Random) -> bool:
    """If it is this page's turn, place a random playable card with a random arrow; True if it did.

    The board re-renders when the turn passes, so an element counted a moment ago may be gone:
    such a click times out quickly and the round is tried again.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    cards = page.locator(".ss-card:not([disabled])")
    n = cards.count()
    if n == 0:
        return False
    try:
        cards.nth(rng.randrange(n)).click(timeout=2000)
        arrows = page.locator(".ss-arrow")
        arrows.nth(rng.randrange(arrows.count())).click(timeout=2000)
        cells = page.locator(".ss-cell.legal")
        if cells.count() == 0:
            return False
        cells.nth(rng.randrange(cells.count())).click(timeout=2000)
    except PlaywrightTimeout:
        return False
    return True


def test_a_whole_game_in_english_and_spanish_from_the_lobby(browser: Any, web_server: str, shots: Any) -> None:
    host = new_page(browser)
    host_errors = watch(host)
    host.goto(web_server + "/")
    host.wait_for_selector("#create")
    host.select_option("#game", "shooting-star")
    host.wait_for_selector("#seat-1")
    host.select_option("#players", "3")
    host.wait_for_selector("#seat-2")
    host.select_option("#seat-0", "human")
    host.select_option("#seat-1", "human")
    host.select_option("#seat-2", "random")
    host.click("details.options summary")
    scan(host, where="in the lobby")
    shots(host, "1-lobby")
    host.click("#create")
    host.wait_for_selector(".created a[data-seat='1']")
    scan(host, where="after creating the room")
    link0 = host.get_attribute(".created a[data-seat='0']", "href")
    link1 = host.get_attribute(".created a[data-seat='1']", "href")
    assert link0 and link1 and "#token=" in link0
    host.goto(link0)
    host.wait_for_selector(".waiting:not([hidden])")
    scan(host, where="in the waiting room")
    guest = new_page(browser, lang="es")
    guest_errors = watch(guest)
    guest.goto(link1)
    for page in (host, guest):
        page.wait_for_selector(".ss-grid .ss-cell", timeout=15000)
        page.wait_for_selector(".waiting", state="hidden")
    assert guest.locator("html").get_attribute("lang") == "es"
    assert "Tu mano" in guest.locator(".ss-hand h2").inner_text()
    # the grid has axis labels, and cells are named by them
    assert host.locator(".ss-axis.col").first.inner_text() == "A"
    assert "column A, row 1" in (host.locator(".ss-cell").first.get_attribute("aria-label") or "")

    # the first move of whoever plays first, with the keyboard only: 1 picks a card, R turns the
    # arrow, Tab/arrows reach a highlighted planet, Enter places it
    deadline = time.monotonic() + 30
    first = None
    while first is None and time.monotonic() < deadline:
        for page in (host, guest):
            if page.locator(".ss-card:not([disabled])").count():
                first = page
                break
        else:
            time.sleep(0.1)
    assert first is not None, "nobody got a turn"
    shots(first, "2-my-turn")
    before = first.evaluate("document.querySelectorAll('.log li').length")
    first.keyboard.press("1")
    first.keyboard.press("r")
    assert first.locator(".ss-arrow.selected").get_attribute("data-arrow") == "E"
    first.wait_for_selector(".ss-cell.legal")
    first.locator(".ss-cell.legal").first.focus()
    scan(first, where="while placing a card")
    first.keyboard.press("Enter")
    first.wait_for_function(f"document.querySelectorAll('.log li').length > {before}")

    rng = random.Random(5)
    deadline = time.monotonic() + 300
    seen_resolving = False
    steps = 0
    while not (result_shown(host) and result_shown(guest)):
        assert time.monotonic() < deadline, "the game did not finish"
        acted = False
        for page in (host, guest):
            if not result_shown(page):
                acted = play_turn(page, rng) or acted
        for page in (host, guest):
            scan(page, where=f"at step {steps}")
            status = page.locator(".ss-status").inner_text()
            seen_resolving = seen_resolving or "Resolving the turn" in status or "Resolviendo el turno" in status
        steps += 1
        if steps == 3:
            shots(host, "3-midgame")
            shots(guest, "3-midgame-es")
        if not acted:
            time.sleep(0.1)
    assert seen_resolving, "the status never said that the turn was resolving"
    for page in (host, guest):
        page.wait_for_selector(".ss-breakdown")
        scan(page, where="at the end")
        status = page.locator(".ss-status").inner_text()
        assert "Turn" not in status and "Turno" not in status, status
    shots(host, "4-over")
    shots(guest, "4-over-es")
    # the result explains itself: per-player lines for cards, moons, debris, each mission, total
    table = host.locator(".result .ss-breakdown").inner_text()
    for words in ("Conquered cards", "Moons", "Space debris", "Mission 1", "Mission 3", "Total"):
        assert words in table
    assert "Cartas conquistadas" in guest.locator(".result .ss-breakdown").inner_text()
    host_errors.check()
    guest_errors.check()

    # switching language re-renders everything at once: hand, log, result
    guest.select_option("#lang", "en")
    guest.wait_for_function("document.querySelector('.result h2').textContent.includes('Game over')"
                            " || document.querySelector('.result h2').textContent.includes('over')")
    scan(guest, lang="en", where="after switching to English")
    log = guest.locator(".log").inner_text()
    assert "places a card" in log or "reveals" in log, log[:300]
    host.select_option("#lang", "es")
    host.wait_for_function("document.documentElement.lang === 'es'")
    scan(host, lang="es", where="after switching to Spanish")
    assert "Cómo puntuó cada jugador" in host.locator(".result").inner_text()
    assert "Tu mano" in host.locator(".ss-hand h2").inner_text()  # the board, not only the frame
    assert "Cómo se juega" in host.locator(".ss-help summary").inner_text()
    assert "coloca una carta" in host.locator(".log").inner_text()

    # a reload keeps the log: the server resends the recent events
    lines = guest.evaluate("document.querySelectorAll('.log li').length")
    assert lines > 10
    guest.reload()
    guest.wait_for_function(f"document.querySelectorAll('.log li').length >= {min(lines, 50)}")
    scan(guest, where="after a reload")
    host_errors.check()
    guest_errors.check()

    # play again: the host's rematch is a new room with the same seats and options; the guest, connected,
    # gets its own new link through its socket, so the host is shown no link to send; no second button
    assert host.locator("#play-again").count() == 0
    host.click("#rematch")
    host.wait_for_selector("#rematch-go")
    guest.wait_for_selector("#rematch-go")
    assert host.locator(".rematch input.link").count() == 0
    scan(host, where="after the rematch")
    new_link = host.get_attribute("#rematch-go", "href")
    guest_link = guest.get_attribute("#rematch-go", "href")
    assert new_link and "#token=" in new_link and link0.split("#")[0] not in new_link
    assert guest_link and guest_link.split("#")[0] == new_link.split("#")[0] and guest_link != new_link
    host.click("#rematch-go")
    host.wait_for_selector(".waiting:not([hidden])")
    assert "bot" in host.locator(".presence").inner_text()  # the bot seat is a bot again
    host_errors.check()
