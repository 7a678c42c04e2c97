"""Issue 12 item 10 in the browser: the turn timer bar, a bot playing for an idle player, "I'm back"
and "a bot played for you" with the moves as sentences (English and Spanish); the page is scanned."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.server import ServerConfig
from tests.server.util import create_room, serve_in_thread
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("shooting-star" not in cosmodeck.list_games(),
                                 reason="Shooting Star is not registered")]

TURN_S = 3.0


@pytest.fixture(scope="module")
def idle_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("idle") / "idle.db"
    cfg = ServerConfig(db=str(db), bot_speed=1.0, grace_s=30.0, room_rate="", turn_s=TURN_S,
                       idle_bot="random:median_s=0.4;sigma=0")
    with serve_in_thread(cfg) as base:
        yield base, db


def seat_moves(db: Path, room: str, seat: int) -> int:
    with sqlite3.connect(db) as con:
        (n,) = con.execute("SELECT count(*) FROM steps WHERE room_id = ? AND seat = ?", (room, seat)).fetchone()
    return int(n)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_turn_timer_bar_a_bot_playing_for_you_and_what_it_did(lang: str, browser: Any,
                                                                    idle_server: tuple[str, Path], shots: Any) -> None:
    base, db = idle_server
    r = create_room(base, "shooting-star", 2, bots={"1": "random"})
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(base + r["links"]["0"][len(base):])
    bar = page.locator(".idle-bar")
    bar.wait_for()
    you = "You have" if lang == "en" else "Tienes"
    text = bar.inner_text()
    assert re.search(rf"{you} [1-3] s", text), text
    width = page.locator(".idle-fill").evaluate("e => parseFloat(e.style.width)")
    assert 0 < width <= 100
    shots(page, "1-timer")
    scan(page, where="with the timer bar")
    # nobody plays: the timer runs out and a bot plays the seat; the page says so and offers "I'm back"
    mine = page.locator(".idle-line.mine")
    mine.wait_for(timeout=(TURN_S + 10) * 1000)
    assert ("A bot is playing for you: the turn timer ran out" if lang == "en"
            else "Un bot juega por ti: se acabó el tiempo del turno") in mine.inner_text()
    page.locator(".idle-bar").wait_for(state="detached", timeout=5000)  # no bar for a seat a bot plays
    deadline = time.monotonic() + 30
    while seat_moves(db, r["room"], 0) < 2:
        assert time.monotonic() < deadline, "the bot did not play for the idle seat"
        time.sleep(0.1)
    shots(page, "2-bot-plays")
    scan(page, where="while a bot plays for the seat")
    page.click("#idle-back")
    report = page.locator(".idle-report:not([hidden])")
    report.wait_for()
    n = seat_moves(db, r["room"], 0)
    said = report.inner_text()
    head = f"A bot played for you: {n} moves." if lang == "en" else f"Un bot jugó por ti: {n} jugadas."
    assert head in said, said
    assert report.locator(".idle-moves li").count() == n  # each move as a sentence
    first = report.locator(".idle-moves li").first.inner_text()
    assert ("column" if lang == "en" else "columna") in first, first
    page.locator(".idle-line.mine").wait_for(state="detached")
    shots(page, "3-played-for-you")
    scan(page, where="after 'a bot played for you'")
    errors.check()
