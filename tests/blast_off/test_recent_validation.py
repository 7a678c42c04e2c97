"""load_state checks Blast Off!'s public log (BLO-12.10) and the placings (BLO-8.1) as the engine keeps them
(issue 13): numbered without gaps, in game-time order, known event types with flat data; a player with no
card is placed. The long mutation run's one failure was the driver's, not a state's: a random time a few
ulps before a deadline rounded onto it."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import IllegalActionError, Rng
from cosmodeck.engine.errors import StateFormatError
from cosmodeck.games.blast_off.validate import EVENT_TYPES
from tests.conformance.driver import random_input, random_step

SRC = Path(cosmodeck.__file__).parent / "games" / "blast_off"


def _snapshot(min_recent: int = 6) -> dict[str, Any]:
    game = cosmodeck.load_game("blast-off")
    st = game.new_game(players=3, seed=11)
    rng = Rng(11)
    while len(st.recent) < min_recent or st.is_over:
        assert not st.is_over, "the seeded game ended too early"
        with contextlib.suppress(IllegalActionError):
            random_input(st, rng)
    return json.loads(st.to_json())


def _load(obj: dict[str, Any]) -> None:
    cosmodeck.load_game("blast-off").load_state(json.dumps(obj))


def test_the_snapshot_loads() -> None:
    _load(_snapshot())


def test_BLO_12_10_the_event_types_are_those_the_rules_emit() -> None:
    emitted = {m for p in SRC.glob("*.py") for m in re.findall(r'Event\("([a-z_]+)"', p.read_text())}
    assert emitted == set(EVENT_TYPES)


@pytest.mark.parametrize(("field", "value", "match"), [
    ("n", "gap", "without gaps"),
    ("n", "float", "integer"),
    ("t", "later", "outside"),
    ("t", "earlier", "order of the game time"),
    ("t", -1, "outside"),
    ("type", "fireworks", "not one of"),
    ("type", ["played"], "not one of"),
    ("card", {"deep": [1]}, "short list"),
    ("card", [[[1]]], "short list"),
])
def test_BLO_12_10_a_tampered_log_entry_is_refused(field: str, value: Any, match: str) -> None:
    obj = _snapshot()
    rec = obj["core"]["recent"]
    e = rec[3]
    if value == "gap":
        value = e["n"] + 1
    elif value == "float":
        value = float(e["n"])
    elif value == "later":
        value = obj["now"] + 1
    elif value == "earlier" and field == "t":
        rec[2]["t"] = max(rec[2]["t"], 0.5)
        value = rec[2]["t"] - 0.25
    e[field] = value
    with pytest.raises(StateFormatError, match=match) as err:
        _load(obj)
    assert err.value.code and "core.recent[" in str(err.value)


def test_BLO_12_10_more_events_kept_than_ever_logged_is_refused() -> None:
    obj = _snapshot()
    obj["core"]["recent_n"] = len(obj["core"]["recent"]) - 1
    with pytest.raises(StateFormatError, match="ever logged"):
        _load(obj)


def test_BLO_8_1_a_player_without_cards_who_is_not_placed_is_refused() -> None:
    obj = _snapshot()
    core = obj["core"]
    seat = next(s for s in range(3) if s not in core["placings"])
    core["draw"].extend(core["hands"][seat])
    core["hands"][seat] = []
    core["known"][seat] = []
    with pytest.raises(StateFormatError, match="not placed"):
        _load(obj)


def test_the_driver_never_chooses_a_time_that_rounds_onto_the_deadline() -> None:
    st = cosmodeck.load_game("blast-off").new_game(players=3, seed=2)
    rng = Rng(2)
    while st.next_deadline() is None or not st.to_act:
        random_input(st, rng)
    deadline = st.next_deadline()
    assert deadline is not None
    st.advance(deadline - 7e-14)  # two or three ulps before it, as the fuzz run met it
    for _ in range(200):
        kind, _, _, at = random_step(st, Rng(rng.randbelow(10**9)))
        assert at < deadline or kind == "advance"
