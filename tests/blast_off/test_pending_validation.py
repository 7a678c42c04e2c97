"""load_state refuses a step's hidden choices that the rules would not have accepted (issue 13): a pending
catch of an absent seat loaded and crashed in play with an IndexError (found by the long mutation run)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import StateFormatError


def _response_state() -> tuple[Any, Any]:
    game = cosmodeck.load_game("blast-off", timing="steps")
    for seed in range(200):
        st = game.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if st.is_over:
                break
            if json.loads(st.to_json())["core"]["phase"] == "RESPONSE":
                return game, st
            seat = sorted(st.to_act)[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
    raise AssertionError("no RESPONSE step in 200 games")


@pytest.mark.parametrize("pending", [["catch 7"], ["catch 0"], ["catch 1 M99"],
                                     ["announce HOUSTON", "announce HOUSTON"], ["done"], "catch 1"])
def test_BLO_12_3_a_response_step_loads_only_choices_the_rules_accept(pending: Any) -> None:
    game, st = _response_state()
    obj = json.loads(st.to_json())
    obj["core"]["pend"][0][1] = pending  # seat 0's hidden list
    with pytest.raises(StateFormatError) as e:
        game.load_state(json.dumps(obj))
    assert e.value.code.startswith("state_"), e.value.code


def test_BLO_12_3_a_response_step_with_legal_choices_loads_and_plays_on() -> None:
    game, st = _response_state()
    st.apply(0, next(a for a in st.legal_actions(0) if str(a) == "catch 1"))
    again = game.load_state(st.to_json())
    for seat in sorted(again.to_act):
        again.apply(seat, next(a for a in again.legal_actions(seat) if str(a) == "done"))
    assert json.loads(again.to_json())["core"]["phase"] != "RESPONSE"
