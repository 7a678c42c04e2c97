"""Data-file bounds, warnings and lenient design mode (MET-D5, 6.10; issue 13)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.cli.main import main
from cosmodeck.engine import DataError
from cosmodeck.engine.options import TextInput
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.loader import parse_data
from cosmodeck.sim.runner import random_playout


def default() -> dict[str, Any]:
    text = resources.files("cosmodeck.games.meteor.data").joinpath("default.json").read_text(encoding="utf-8")
    obj: dict[str, Any] = json.loads(text)
    return obj


def refused(obj: Any, lenient: bool = False) -> DataError:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with pytest.raises(DataError) as err:
        parse_data(TextInput("cards.json", text, lenient=lenient))
    assert err.value.code == "bad_data" and err.value.source == "cards.json"
    return err.value


def _design_file() -> dict[str, Any]:
    """Breaks two design invariants: one more rocket (MET-1.1) and green as common as red (MET-1.2)."""
    obj = default()
    obj["rockets"][0]["copies"] += 1
    green = next(e for e in obj["energy"] if e["colour"] == "green")
    red = next(e for e in obj["energy"] if e["colour"] == "red")
    green["count"], red["count"] = 10, 10  # 12 + 8 = 20 cards still: the MET-1.1 energy count holds
    return obj


@pytest.mark.parametrize(("path", "value"), [
    (("setup_chart", "2", "start_hand"), 10**9), (("setup_chart", "3", "draw_per_change"), 10**9),
    (("constants", "retrofit_draw"), 10**6), (("constants", "retrofit_cards"), 40),
    (("constants", "max_cost_cards"), 99), (("difficulty", "expert", "bosses"), 10**9),
])
def test_MET_D5_every_number_is_bounded_by_what_a_table_holds(path: tuple[str, ...], value: int) -> None:
    obj = default()
    node = obj
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    for lenient in (False, True):  # an engine bound: never relaxed
        err = refused(obj, lenient)
        assert err.field == ".".join(path), err


def test_MET_D5_a_cost_too_long_to_match_is_refused() -> None:
    obj = default()
    obj["rockets"][0]["cost"] = "F" * 9
    assert refused(obj, lenient=True).field == "rockets.0.cost"


def test_MET_D5_deep_or_huge_json_is_a_data_error_not_a_crash() -> None:
    err = refused('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert err.field == "(file)" and "levels deep" in err.problem
    err = refused('{"provenance": "' + "x" * 2_000_000 + '"}')
    assert err.field == "(file)" and "characters" in err.problem
    text = json.dumps({**default(), "provenance": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ brackets in a string"})
    assert parse_data(TextInput("cards.json", text)).warnings == ()


def test_MET_D5_a_meteor_size_outside_its_printed_back_is_refused() -> None:
    obj = default()
    obj["standard_meteors"][0]["size"] = obj["standard_meteors"][0]["back"][1] + 1
    err = refused(obj, lenient=True)
    assert err.field == "standard_meteors.0.size" and "outside the back" in err.problem
    obj = default()
    ablating = next(i for i, m in enumerate(obj["boss_meteors"]) if m.get("size_by_zone"))
    obj["boss_meteors"][ablating]["size_by_zone"]["1"] = 1
    assert refused(obj).field == f"boss_meteors.{ablating}.size_by_zone.1"
    obj = default()
    obj["standard_meteors"][0]["back"] = [1, 99]
    assert refused(obj).field == "standard_meteors.0.back"


def test_MET_D5_lenient_turns_design_invariants_into_warnings_and_the_game_plays(tmp_path: Path) -> None:
    path = tmp_path / "design.json"
    path.write_text(json.dumps(_design_file()), encoding="utf-8")
    with pytest.raises(DataError) as err:
        cosmodeck.load_game("meteor", data=path)
    assert err.value.field == "rockets"
    game = cosmodeck.load_game("meteor", data=path, lenient=True)
    warnings = game.data.warnings
    assert any(w.startswith("rockets: MET-1.1") and "lenient" in w for w in warnings)
    assert any(w.startswith("energy: MET-1.2") for w in warnings)
    state = game.new_game(players=3, seed=4)
    random_playout(state, Rng(4))
    assert state.is_over
    again = cosmodeck.replay(state.record())  # the record's header carries the design mode
    assert again.to_json() == state.to_json()


def test_MET_D5_lenient_never_relaxes_what_the_engine_needs() -> None:
    obj = default()
    obj["launch_sites"] = obj["launch_sites"][:3]
    assert refused(obj, lenient=True).field == "launch_sites"
    obj = default()
    obj["setup_chart"]["3"]["retrofit_split"] = [5, 0]
    assert refused(obj, lenient=True).field == "setup_chart.3.retrofit_split"
    obj = default()
    obj["setup_chart"]["3"]["retrofit_split"] = [3, 1, 0]  # sums to 4, not 5: a design choice
    assert refused(obj).field == "setup_chart.3.retrofit_split"
    data = parse_data(TextInput("cards.json", json.dumps(obj), lenient=True))
    assert any(w.startswith("setup_chart.3.retrofit_split") for w in data.warnings)


def test_MET_D5_the_cli_prints_data_warnings_and_takes_lenient(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "design.json"
    path.write_text(json.dumps(_design_file()), encoding="utf-8")
    base = ["meteor", "--players", "2", "--games", "2", "--data", str(path)]
    assert main(["simulate", *base]) == 2
    assert "MET-1.1" in capsys.readouterr().err
    assert main(["simulate", *base, "--lenient", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2
    assert f"cosmodeck simulate: warning: {path}: rockets: MET-1.1" in err
    assert main(["compare", "meteor", "--players", "2", "--games", "2", "--b-data", str(path), "--lenient",
                 "--json"]) == 0
    assert f"cosmodeck compare: warning: B: {path}: rockets: MET-1.1" in capsys.readouterr().err
