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


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[str]:
    from tests.server.toy_game import toy_registered

    with toy_registered(), serve_in_thread(ServerConfig(db=str(tmp_path / "toy.db"), bot_speed=5.0,
                                                        grace_s=30.0, room_rate="", turn_s=60.0)) as base:
        yield base


def test_the_host_kicks_an_idle_seat_and_starts_a_rematch_everyone_gets_their_new_seat(
        browser: Any, toy_server: str, shots: Any) -> None:
    base = toy_server
    r = create_room(base, "toy", 2, options={"data": {"start": 5, "goal": 7}, "tick": 1000})
    host, guest = new_page(browser), new_page(browser, lang="es")
    errors = [watch(host), watch(guest)]
    guest.goto(base + r["links"]["1"][len(base):])
    guest.wait_for_selector(".waiting:not([hidden])")
    assert guest.locator("#start-now").count() == 0  # only the host may start early
    assert "El anfitrión empieza la partida." in guest.locator(".waiting").inner_text()
    host.goto(base + r["links"]["0"][len(base):])
    kick = host.locator(".host-kicks button")
    kick.wait_for()
    assert kick.inner_text() == "Hand Player 2's seat to a bot"
    assert guest.locator(".host-kicks").count() == 0
    kick.click()
    line = guest.locator(".idle-line.mine")
    line.wait_for()
    assert "Un bot juega por ti: el anfitrión pasó el asiento a un bot." in line.inner_text()
    guest.click("#idle-back")
    report = guest.locator(".idle-report:not([hidden])")
    report.wait_for()
    assert "Un bot jugó por ti" in report.inner_text()  # slow bots here (5 s): usually no move yet
    # the host ends the game (one "add 2" does), unless a bot did first
    deadline = time.monotonic() + 30
    while not host.locator("#rematch").count():
        assert time.monotonic() < deadline, "the game did not end"
        add = host.locator(".legal button", has_text="add 2")
        if add.count():
            add.first.click(timeout=2000)
        time.sleep(0.1)
    host.locator("#rematch").click()
    go = host.locator("#rematch-go")
    go.wait_for()
    guest_go = guest.locator("#rematch-go")
    guest_go.wait_for()
    assert guest_go.inner_text() == "Ir a mi asiento en la revancha"
    shots(host, "1-rematch-host")
    shots(guest, "2-rematch-guest")
    guest_go.click()
    guest.wait_for_url(re.compile(r"/room/(?!" + r["room"] + ")"))
    guest.wait_for_selector(".pres")
    assert "(tú)" in guest.locator(".pres[data-seat='1']").inner_text()  # the guest's new seat is theirs
    for e in errors:
        e.check()
