"""Fair bots through the server (issue 12, "Fair bots"): real-time Blast Off! rooms of bots, one per
level; every bot slap comes at least the level's floor after the call was made, and the median is
the level's.

The rooms run with ``bot_speed`` < 1 (every bot time is scaled by it, so the test takes seconds,
not minutes) and quick turn decisions (``median_s``: it does not change the reaction to a call);
the measured times are divided by ``bot_speed``. Times are measured from the stored steps:
from the step that made a call (when the room told everyone) to each bot's slap on it.
"""

from __future__ import annotations

import statistics
import time

import httpx

import cosmodeck
from cosmodeck.bots.reaction import CALL_LEVELS
from cosmodeck.server import ServerConfig
from cosmodeck.storage import Store
from tests.server.util import create_room, room_info, serve_in_thread

SPEED = 0.15
LEVELS = ("easy", "normal", "hard")


def slap_reactions(db: str, room: str) -> tuple[list[float], int]:
    """(seconds from each call to every slap on it, scaled back by ``SPEED``; calls made) in ``room``."""
    store = Store(db)
    try:
        row = store.room(room)
        steps = store.steps(room)
    finally:
        store.close()
    assert row is not None and row.seed is not None
    st = cosmodeck.load_game(row.game, **row.header["options"]).new_game(players=row.players, seed=row.seed)
    samples: list[float] = []
    calls = 0
    called_at: float | None = None
    cue = None
    for step in steps:
        if step.seat is not None and str(step.action).startswith("slap"):
            assert called_at is not None and st.cue() is not None
            samples.append((step.at - called_at) / SPEED)
        if step.seat is None:
            st.advance(step.at)
        else:
            st.apply(step.seat, step.action, at=step.at)
        if st.cue() is not None and st.cue() != cue:
            calls += 1
            called_at = step.at
        cue = st.cue()
    return samples, calls


def test_bots_in_a_real_time_blast_off_room_react_to_each_call_like_people(db_path: str) -> None:
    config = ServerConfig(db=db_path, bot_speed=SPEED, room_rate="")
    samples: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    calls = dict.fromkeys(LEVELS, 0)
    with serve_in_thread(config) as base:
        end = time.monotonic() + 240
        while min(calls.values()) < 200:
            assert time.monotonic() < end, f"not enough calls in time: {calls}"
            rooms = {}
            for lv in LEVELS:
                if calls[lv] < 200:
                    bots = {str(s): f"heuristic:level={lv};median_s=0.2;min_s=0.05" for s in range(4)}
                    rooms[lv] = create_room(base, "blast-off", 4, bots=bots, options={"tick_s": 0.25})["room"]
            while rooms and not all(room_info(base, r)["status"] == "over" for r in rooms.values()):
                assert time.monotonic() < end, "the bot rooms did not finish in time"
                time.sleep(0.2)
            for lv, r in rooms.items():
                got, n = slap_reactions(db_path, r)
                samples[lv] += got
                calls[lv] += n
    for lv in LEVELS:
        model = CALL_LEVELS[lv]
        xs = samples[lv]
        assert len(xs) >= 100, (lv, len(xs))
        assert min(xs) >= model.floor_s, (lv, min(xs))
        lo, hi = model.median_range
        assert lo <= statistics.median(xs) <= hi, (lv, statistics.median(xs))


def test_a_seats_bot_level_is_validated_by_the_server(server: str) -> None:
    body = {"game": "blast-off", "players": 2, "bots": {"1": "heuristic:level=ultra"}, "options": {}}
    r = httpx.post(server + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 400 and r.json()["code"] == "bad_bot"
    assert "easy, normal, hard" in r.json()["message"]
    for level in LEVELS:
        room = create_room(server, "blast-off", 2, bots={"1": f"ismcts:level={level}"})
        assert room["room"]
