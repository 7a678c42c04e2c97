"""load_state refuses real-time timers that disagree with the phase (issue 13): the long mutation run found
a countdown with no running call timer (the game stuck: nobody may act and no deadline is pending) and a
decision timer set outside a decision (an AssertionError when it fired)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import IllegalActionError, Rng
from cosmodeck.engine.errors import StateFormatError
from tests.conformance.driver import random_input


def _snapshots() -> list[dict[str, Any]]:
    game = cosmodeck.load_game("blast-off")
    out: list[dict[str, Any]] = []
    for seed in range(6):
        st = game.new_game(players=3, seed=seed)
        rng = Rng(seed)
        for _ in range(400):
            if st.is_over:
                break
            out.append(json.loads(st.to_json()))
            with contextlib.suppress(IllegalActionError):
                random_input(st, rng)
    return out


SNAPS = _snapshots()


def _load(obj: dict[str, Any]) -> None:
    cosmodeck.load_game("blast-off").load_state(json.dumps(obj))


def _first(pred: Any) -> dict[str, Any]:
    found = [o for o in SNAPS if pred(o["core"])]
    assert found, "no such state in the seeded games"
    return found[0]


def test_the_snapshots_load() -> None:
    for o in SNAPS[::20]:
        _load(o)


def test_BLO_10_2_a_real_time_countdown_without_its_call_timer_is_refused() -> None:
    obj = _first(lambda c: c["phase"] == "COUNTDOWN" and c["cd_t"] >= 0)
    obj["core"]["cd_t"] = -1.0
    with pytest.raises(StateFormatError, match="countdown"):
        _load(obj)


@pytest.mark.parametrize("value", [-0.5, "due"])
def test_a_timer_is_minus_one_or_a_future_game_time(value: Any) -> None:
    obj = _first(lambda c: c["phase"] == "COUNTDOWN" and c["cd_t"] >= 0)
    obj["core"]["cd_t"] = -0.5 if value == -0.5 else obj["now"]
    with pytest.raises(StateFormatError):
        _load(obj)


def test_a_decision_timer_outside_a_decision_is_refused() -> None:
    obj = _first(lambda c: c["phase"] == "TURN" and c["dec_t"] < 0)
    obj["core"]["dec_t"] = obj["now"] + 1.0
    with pytest.raises(StateFormatError, match="decision"):
        _load(obj)
