"""kill -9 of a real server process: every unfinished room resumes where it was, timers included."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import cosmodeck
from tests.server.util import ServerProcess, Ws, create_room, room_info


@pytest.fixture
def proc(tmp_path: Path) -> Iterator[ServerProcess]:
    p = ServerProcess(str(tmp_path / "crash.db"), grace=30.0)
    p.start()
    yield p
    p.stop()


def test_kill_9_loses_no_accepted_action_and_the_room_continues(proc: ServerProcess) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 1000})
    a = Ws(proc.base, r["room"], r["seats"]["0"])
    b = Ws(proc.base, r["room"], r["seats"]["1"])
    a.view_at_least(0)
    for i in range(5):
        (a if i % 2 == 0 else b).act("add 1" if i % 2 else "add 2")
        a.view_at_least(i + 1)
        b.view_at_least(i + 1)
    acked = a.view
    assert acked is not None and acked["version"] == 5
    # an untouched finished-looking second room: it must resume too
    other = create_room(proc.base, "toy", 2, options={"tick": 1000})
    proc.kill9()
    proc.start()
    info = room_info(proc.base, r["room"])
    assert {k: info[k] for k in ("room", "game", "players", "status", "version")} == {
        "room": r["room"], "game": "toy", "players": 2, "status": "playing", "version": 5}
    assert room_info(proc.base, other["room"])["status"] == "waiting"
    a2 = Ws(proc.base, r["room"], r["seats"]["0"])
    v = a2.view_at_least(5)
    assert v["version"] == 5 and v["view"] == acked["view"]
    b2 = Ws(proc.base, r["room"], r["seats"]["1"])
    b2.view_at_least(5)
    a2.act("add 1")
    assert b2.view_at_least(6)["view"]["adds"] == [7, 2]


def test_kill_9_keeps_the_game_clock_running_from_the_stored_origin(proc: ServerProcess) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 1.0})
    a = Ws(proc.base, r["room"], r["seats"]["0"])
    b = Ws(proc.base, r["room"], r["seats"]["1"])
    a.view_at_least(0)
    b.view_at_least(0)
    a.act("add 2")
    a.view_at_least(1)
    a.act("add 2")
    start_view = a.view_at_least(2)
    assert start_view["view"]["counter"] == 7
    t_kill = time.monotonic()
    proc.kill9()
    time.sleep(1.2)  # the server is down while a tick falls due
    proc.start()
    a2 = Ws(proc.base, r["room"], r["seats"]["0"])
    # the deadlines missed while down fire at once on resume, and the game goes on ticking
    v = a2.view_at_least(3, timeout=40)
    assert v["view"]["counter"] <= 7 - 2
    assert v["view"]["now"] >= time.monotonic() - t_kill - 0.5  # game time went on while the server was down
    end = a2.until(lambda m: m["type"] == "view" and m["view"]["over"], timeout=40)
    assert end["view"]["counter"] == 0
    record = httpx.get(f"{proc.base}/api/rooms/{r['room']}/record").json()
    assert cosmodeck.replay(record).view(0) == end["view"]
