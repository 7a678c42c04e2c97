"""BLO-0.1 data files: bounds, nesting depth and warnings; lenient mode relaxes nothing the engine needs
(I5-I7 are what the engine needs; I1-I4 describe the default file and only give warnings)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput

DEFAULT: dict[str, Any] = json.loads(
    resources.files("cosmodeck.games.blast_off.data").joinpath("default.json").read_text(encoding="utf-8"))


def _input(obj: dict[str, Any]) -> TextInput:
    return TextInput("my.json", json.dumps(obj))


def _copy() -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(DEFAULT))
    return out


def test_BLO_0_1_the_default_data_has_no_warnings() -> None:
    assert cosmodeck.load_game("blast-off").data.warnings == ()


def test_BLO_0_1_I1_I2_a_deck_that_strays_from_the_design_loads_with_warnings() -> None:
    obj = _copy()
    obj["deck"]["countdown"] = 0
    obj["deck"]["planet"]["7"] = [3, 3, 3, 3]  # 12 sevens, 5 of every other number
    warnings = cosmodeck.load_game("blast-off", data=_input(obj)).data.warnings
    assert any(w.startswith("deck.countdown: no Countdown card") for w in warnings)
    assert any(w.startswith("deck.planet: numbers have different copy counts") and "7: 12" in w for w in warnings)


def test_BLO_I7_lenient_relaxes_nothing_the_engine_needs() -> None:
    obj = _copy()
    obj["deck"]["planet"] = {str(n): [0, 0, 0, 0] for n in range(1, 11)}
    for lenient in (False, True):
        with pytest.raises(DataError) as e:
            cosmodeck.load_game("blast-off", data=_input(obj), lenient=lenient)
        assert e.value.field == "deck" and "I7" in e.value.problem


def test_BLO_I5_the_mission_list_and_the_counts_are_bounded() -> None:
    obj = _copy()
    obj["missions"] = [{**m, "id": f"M{i:03d}"} for i, m in enumerate(DEFAULT["missions"] * 5)]
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=_input(obj))
    assert e.value.field == "missions"
    obj = _copy()
    obj["deck"]["wild"] = 10**9
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=_input(obj))
    assert e.value.field == "deck.wild"


def test_BLO_I6_deeply_nested_json_is_a_data_error_in_data_and_mission_files() -> None:
    deep = '{"missions": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=TextInput("deep.json", deep))
    assert e.value.field == "(file)" and "levels deep" in e.value.problem
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", missions=TextInput("deep-missions.json", deep))
    assert e.value.source == "deep-missions.json" and "levels deep" in e.value.problem
