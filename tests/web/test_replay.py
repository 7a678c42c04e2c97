"""The replay viewer opens for each game, plays and steps through every frame to the end without a
page or console error; every game's replay reads as sentences, with translated labels, in English and
Spanish (scanned at the end and at a dozen steps along the way)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

GAMES = cosmodeck.list_games()
OPTIONS = {"blast-off": {"tick_s": 0.4}, "meteor": {}}


def finished_room(base: str, game: str) -> str:
    info = cosmodeck.load_game(game).info
    players = max(info.min_players, min(info.max_players, 3))
    options = {**FAST_OPTIONS.get(game, {}), **OPTIONS.get(game, {})}
    r = create_room(base, game, players, bots={str(s): "random" for s in range(players)}, options=options, seed=11)
    deadline = time.monotonic() + 300
    while httpx.get(f"{base}/api/rooms/{r['room']}").json()["status"] != "over":
        assert time.monotonic() < deadline, f"the {game} bots did not finish"
        time.sleep(0.5)
    return str(r["room"])


def meteor_statuses(page: Any, steps: int) -> list[str]:
    """The Meteor status line at about twenty steps spread over a replay of ``steps`` steps."""
    said = []
    for i in range(0, steps + 1, max(1, steps // 20)):
        page.evaluate("""(i) => { const s = document.getElementById('replay-step');
            s.value = String(i); s.dispatchEvent(new Event('input')); }""", i)
        said.append(page.locator(".met-status").inner_text())
    return said


def step_through(page: Any) -> int:
    """Every frame, one after another, as the slider sets it; returns the number of steps."""
    steps = int(page.get_attribute("#replay-step", "max") or "0")
    page.evaluate("""(n) => { const s = document.getElementById('replay-step');
        for (let i = 0; i <= n; i++) { s.value = String(i); s.dispatchEvent(new Event('input')); } }""", steps)
    return steps


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_opens_plays_and_steps_to_the_end(game: str, browser: Any, web_server: str, shots: Any) -> None:
    room = finished_room(web_server, game)
    page = new_page(browser)
    errors = watch(page)
    page.goto(f"{web_server}/replay/{room}")
    page.wait_for_selector("#replay-step")
    page.wait_for_function("document.querySelectorAll('.replay-events li').length >= 1")
    assert "The game begins." in page.locator(".replay-events").inner_text()
    page.click("#replay-next")
    page.keyboard.press("ArrowRight")
    assert page.locator(".replay-bar .pos").inner_text().startswith("step 2 of")
    page.click("#replay-play")
    page.wait_for_function("document.querySelector('.replay-bar .pos').textContent.startsWith('step 4 ')")
    page.click("#replay-play")  # pause
    assert page.locator("#replay-play").get_attribute("aria-label") == "Play"
    steps = step_through(page)
    assert steps > 5
    assert page.locator(".replay-bar .pos").inner_text() == f"step {steps} of {steps}"
    if game == "meteor":  # a spectator is told what the team does, never asked to pick a card of their own
        said = meteor_statuses(page, steps)
        assert not any("from your hand" in x for x in said), said
        assert any("The team plays at once" in x for x in said), said
    page.select_option("#replay-seat", "1")  # another seat's view, then through it again
    page.wait_for_function("document.getElementById('replay-seat').value === '1'")
    step_through(page)
    if game == "meteor":  # a replay viewed as a seat asks nobody to pick a card either
        said = meteor_statuses(page, steps)
        assert not any("from your hand" in x for x in said), said
        step_through(page)
    shots(page, "end")
    scan(page, where="at the end of the replay")
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('.replay-bar .pos').textContent.startsWith('paso')")
    bar = page.locator(".replay-bar").inner_text()
    assert "Reproducir" in bar and "Espectador" in page.locator("#replay-seat").inner_text(), bar
    page.click("#replay-first")
    page.click("#replay-next")
    if game == "shooting-star":
        assert "coloca una carta de prioridad" in page.locator(".replay-events").inner_text() \
            or "coloca un Escudo Espacial" in page.locator(".replay-events").inner_text()
    scan(page, where="in the Spanish replay")
    for i in range(0, steps + 1, max(1, steps // 12)):  # every step's sentences, a dozen times along the way
        page.evaluate("""(i) => { const s = document.getElementById('replay-step');
            s.value = String(i); s.dispatchEvent(new Event('input')); }""", i)
        scan(page, where=f"at step {i} of the Spanish replay")
    step_through(page)
    scan(page, where="at the end of the Spanish replay")
    errors.check()
