"""kill -9 in the middle of a game of each kind: no accepted action is lost, the room goes on."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from tests.server.util import ServerProcess, Ws, create_room, room_info

GAMES = cosmodeck.list_games()
# Turn-based timing for Blast Off and long timers for Meteor, so no deadline falls due while the
# server is down and every view can be compared exactly (the clock-resume test uses a timer game).
OPTIONS: dict[str, dict[str, Any]] = {"blast-off": {"timing": "steps"},
                                      "meteor": {"zone_timer_s": 600, "volley_window_s": 0}}
TALK = ("emote", "signal", "chat", "time_out", "show_hand")


@pytest.fixture
def proc(tmp_path: Path) -> Iterator[ServerProcess]:
    p = ServerProcess(str(tmp_path / "crash.db"), grace=60.0)
    p.start()
    yield p
    p.stop()


def _without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "now"}


def _act_once(base: str, room: str, clients: list[Ws], rng: random.Random) -> None:
    """One seat that may act plays a random legal game action (talk only if nothing else).

    Every client first catches up with the room's version, so the action is never stale.
    """
    end = time.monotonic() + 20
    while time.monotonic() < end:
        version = room_info(base, room)["version"]
        for c in clients:
            c.drain(0)  # the newest frames (a waiting room sends a view with no legal actions first)
        views = [c.view_at_least(version) for c in clients]
        movers = [(c, v) for c, v in zip(clients, views, strict=True) if v["version"] == version and v["legal"]]
        if movers:
            mover, view = movers[rng.randrange(len(movers))]
            legal = [a for a in view["legal"] if not a.startswith(TALK)] or view["legal"]
            mover.act(rng.choice(legal), version)
            mover.view_at_least(version + 1)
            return
        time.sleep(0.05)
    raise AssertionError("nobody could act")


@pytest.mark.parametrize("game", GAMES)
def test_kill_9_mid_game_of_each_kind_loses_no_accepted_action(proc: ServerProcess, game: str) -> None:
    r = create_room(proc.base, game, 2, options=OPTIONS.get(game, {}))  # the server draws the seed (two humans)
    clients = [Ws(proc.base, r["room"], r["seats"][str(s)]) for s in (0, 1)]
    for c in clients:
        c.view_at_least(0)
    rng = random.Random(7)
    for _ in range(6):
        _act_once(proc.base, r["room"], clients, rng)
    version = room_info(proc.base, r["room"])["version"]
    assert version == 6  # six accepted actions, no timer in between
    before = [c.view_at_least(version) for c in clients]

    proc.kill9()
    proc.start()

    info = room_info(proc.base, r["room"])
    assert info["version"] == version and info["status"] == "playing"
    again = [Ws(proc.base, r["room"], r["seats"][str(s)]) for s in (0, 1)]
    for seat, c in enumerate(again):
        v = c.view_at_least(version)
        assert v["version"] == version
        assert _without_clock(v["view"]) == _without_clock(before[seat]["view"])
        assert v["legal"] == before[seat]["legal"]
    _act_once(proc.base, r["room"], again, rng)
    assert room_info(proc.base, r["room"])["version"] == version + 1
