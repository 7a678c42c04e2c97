"""SHS-0.1 data files: bounds, nesting depth, warnings and lenient design mode (issue 13)."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput
from cosmodeck.engine.rng import Rng
from cosmodeck.sim.runner import random_playout

TEXT = resources.files("cosmodeck.games.shooting_star.data").joinpath("default.json").read_text(encoding="utf-8")


def _edited(edit: Callable[[dict[str, Any]], None]) -> TextInput:
    obj = json.loads(TEXT)
    edit(obj)
    return TextInput("edited.json", json.dumps(obj))


def _error(edit: Callable[[dict[str, Any]], None], lenient: bool = False) -> DataError:
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("shooting-star", data=_edited(edit), lenient=lenient)
    assert e.value.source == "edited.json" and e.value.code == "bad_data"
    return e.value


def _priorities(o: dict[str, Any]) -> None:
    o["destruction_set"][0]["priority"] = o["destruction_set"][1]["priority"]  # two cards share a priority


def _missions(o: dict[str, Any]) -> None:
    o["missions"].append({**o["missions"][0], "id": "EXTRA"})  # 6 missions worth that value, 16 in all


def test_SHS_0_1_I3_a_hit_offset_outside_every_grid_is_refused() -> None:
    for lenient in (False, True):
        err = _error(lambda o: o["destruction_set"][2].update(hits=[[0, -9]]), lenient)
        assert err.field == "destruction_set[2].hits" and "outside every grid" in err.problem
    err = _error(lambda o: o["grids"].update({"2": ["#" * 40]}))
    assert err.field == "grids.2"


@pytest.mark.parametrize(("edit", "field"), [
    (lambda o: o["rules"].update(debris_bonus=10**9), "rules.debris_bonus"),
    (lambda o: o["planets"][0].update(moons=10**6), "planets[0].moons"),
    (lambda o: o["missions"][0].update(points=10**9), "missions[0].points"),
    (lambda o: o["setup"].update(set_aside_dark=99), "setup.set_aside_dark"),
    (lambda o: o["destruction_set"][0].update(priority=10**9), "destruction_set[0].priority"),
])
def test_SHS_0_1_every_number_is_bounded(edit: Callable[[dict[str, Any]], None], field: str) -> None:
    assert _error(edit, lenient=True).field == field


def test_SHS_0_1_deeply_nested_json_is_a_data_error() -> None:
    deep = TextInput("deep.json", '{"schema": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("shooting-star", data=deep)
    assert e.value.field == "(file)" and "levels deep" in e.value.problem


def test_SHS_0_1_I3_I4_lenient_priorities_and_mission_counts_warn_and_the_game_plays() -> None:
    for edit, field, clause in ((_priorities, "destruction_set", "I3"), (_missions, "missions", "I4")):
        err = _error(edit)
        assert err.field == field and clause in err.problem
        game = cosmodeck.load_game("shooting-star", data=_edited(edit), lenient=True)
        assert game.data.warnings and all(w.startswith(f"{field}: ") and "lenient" in w for w in game.data.warnings)
        for players in (2, 5):
            state = game.new_game(players=players, seed=players)
            random_playout(state, Rng(players))
            assert state.is_over
    assert cosmodeck.load_game("shooting-star").data.warnings == ()


def test_SHS_0_1_I4_lenient_still_needs_a_mission_of_each_value_for_five_players() -> None:
    def four_worth_three(o: dict[str, Any]) -> None:
        o["missions"] = [m for m in o["missions"] if m["points"] != 3][:10] + \
            [m for m in o["missions"] if m["points"] == 3][:4]

    err = _error(four_worth_three, lenient=True)
    assert err.field == "missions" and "5 players" in err.problem
