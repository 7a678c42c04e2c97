"""The card-data file (6.9) and its invariants (6.10): MET-1.1 counts, DataError naming file, field, problem."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from cosmodeck.engine import DataError, OptionError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.loader import parse_data
from tests.meteor.helpers import load

ROOT = Path(__file__).resolve().parent.parent.parent
# The package ships a copy of the spec; the product's shared copy sits beside the project root when present.
SPECS = [ROOT / "src" / "cosmodeck" / "rules" / "meteor.md"] + [
    p for p in [ROOT.parent / "shared" / "rules" / "meteor.md"] if p.exists()]


def default() -> dict[str, Any]:
    text = resources.files("cosmodeck.games.meteor.data").joinpath("default.json").read_text(encoding="utf-8")
    obj: dict[str, Any] = json.loads(text)
    return obj


def parse(obj: dict[str, Any]) -> Any:
    return parse_data(TextInput("my-cards.json", json.dumps(obj)))


def refused(obj: dict[str, Any]) -> DataError:
    with pytest.raises(DataError) as err:
        parse(obj)
    assert err.value.source == "my-cards.json" and err.value.code == "bad_data"
    return err.value


def test_MET_1_1_default_data_is_valid_and_matches_the_spec_block() -> None:
    data = parse(default())
    assert data.warnings == ()
    for spec in SPECS:
        text = spec.read_text(encoding="utf-8")
        start = text.index("```json", text.index("### 6.9")) + len("```json")
        # the data file adds the texts players read (English and Spanish) to the spec's block
        assert json.loads(text[start:text.index("```", start)]) == {k: v for k, v in default().items() if k != "texts"}


def test_MET_1_1_every_zone_trait_card_and_energy_has_english_and_spanish_text() -> None:
    data = parse(default())
    obj = default()
    keys = [f"zone.{z}" for z in obj["altitude_zones"]] + [f"energy.{e['key']}" for e in obj["energy"]]
    keys += [f"trait.{t}" for t in obj["meteor_traits"]] + [f"trait.{t}.text" for t in obj["meteor_traits"]]
    for group, prefix in (("technologies", "tech"),):
        keys += [f"{prefix}.{x['id']}" for x in obj[group]] + [f"{prefix}.{x['id']}.text" for x in obj[group]]
    for group, prefix in (("power_cards", "power"), ("challenge_cards", "challenge")):
        keys += [f"{prefix}.{k}" for k in obj[group]] + [f"{prefix}.{k}.text" for k in obj[group]]
    keys += [f"boss.{b['id']}" for b in obj["boss_meteors"]] + [f"site.{i}" for i in range(len(obj["launch_sites"]))]
    for key in keys:
        assert data.texts[key]["en"] and data.texts[key]["es"], key
        same = key == "energy.solar" or key.startswith("site.")  # spelled alike in both languages
        assert data.texts[key]["en"] != data.texts[key]["es"] or same, key


def test_MET_1_1_a_text_without_english_is_an_error() -> None:
    obj = default()
    obj["texts"]["zone.5"] = {"es": "Exosfera"}
    assert "texts.zone.5" in str(refused(obj))


def test_MET_1_1_a_count_that_breaks_the_component_list_is_an_error() -> None:
    obj = default()
    obj["rockets"][0]["copies"] = 3
    err = refused(obj)
    assert err.field == "rockets" and "31" in err.problem


def test_MET_1_2_green_and_blue_must_be_scarcer() -> None:
    obj = default()
    obj["energy"][2]["count"] = 12
    obj["energy"][0]["count"] = 8
    err = refused(obj)
    assert err.field == "energy" and "scarcer" in err.problem


def test_MET_1_2_schema_errors_name_the_field_path() -> None:
    obj = default()
    obj["rockets"][3]["damage"] = "two"
    err = refused(obj)
    assert err.field == "rockets.3.damage"
    obj = default()
    obj["rockets"][0]["cost"] = "FX"
    assert refused(obj).field == "rockets.0.cost"
    obj = default()
    obj["standard_meteors"][2]["trait"] = "sticky"
    assert refused(obj).field == "standard_meteors.2.trait"
    obj = default()
    obj["unexpected"] = 1
    assert refused(obj).field == "unexpected"
    with pytest.raises(DataError) as broken:
        parse_data(TextInput("broken.json", "{"))
    assert broken.value.field == "(file)" and "JSON" in broken.value.problem


def test_MET_9_2_3_each_retrofit_split_sums_to_five() -> None:
    obj = default()
    obj["setup_chart"]["3"]["retrofit_split"] = [2, 1, 1]
    err = refused(obj)
    assert err.field == "setup_chart.3.retrofit_split"


def test_MET_9_2_5_every_damage_needs_four_copies() -> None:
    obj = default()
    obj["rockets"][16]["copies"] = 0  # R17: damage 5 drops to 3 copies...
    obj["rockets"][0]["copies"] = 6  # ...the total stays 31
    err = refused(obj)
    assert "damage 5" in err.problem


def test_MET_2_2_no_field_larger_than_the_standard_meteors() -> None:
    obj = default()
    obj["setup_chart"]["5"]["meteors"] = 27
    assert refused(obj).field == "setup_chart.5.meteors"


def test_MET_1_1_proposed_invariants_only_warn() -> None:
    obj = default()
    obj["rockets"][0]["damage"] = 2  # R01 (F) worth 1: damage no longer the sum of values
    obj["rockets"][3]["damage"] = 1  # keep at least four copies per damage
    obj["boss_meteors"][0]["size"] = 5
    obj["boss_meteors"][0]["back"] = [5, 8]  # the size stays inside the printed back range
    data = parse(obj)
    assert any("R01" in w for w in data.warnings) and any("B01" in w for w in data.warnings)


def test_MET_D5_card_data_option_loads_a_users_file(tmp_path: Path) -> None:
    obj = default()
    obj["default_options"] = {"zone_timer_s": 45}
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    game = MeteorGame(TextInput(str(path), path.read_text(encoding="utf-8")), {})
    assert game.options["zone_timer_s"] == 45 and game.data_hash != load().data_hash
    state = game.new_game(players=2, seed=1)
    state.apply(0, "start", at=0)
    assert state.next_deadline() == 45.0
    bad = tmp_path / "bad.json"
    obj["rockets"][0]["copies"] = 0
    bad.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(DataError) as err:
        MeteorGame(TextInput(str(bad), bad.read_text(encoding="utf-8")), {})
    assert str(bad) in str(err.value)


def test_MET_D5_options_and_defaults() -> None:
    game = load()
    assert dict(game.options) == {"difficulty": "standard", "first_game": False, "zone_timer_s": 60,
                                  "volley_window_s": 3, "allow_any_timeout": False, "allow_meteor_mulligan": True,
                                  "one_handed_interval_s": 2, "countdown_s": 3}
    for bad in ({"zone_timer_s": 0}, {"volley_window_s": -1}, {"first_game": "yes"}, {"difficulty": "hard"},
                {"colour": "red"}):
        with pytest.raises(OptionError):
            load(**bad)
    info = game.info
    assert (info.min_players, info.max_players, info.real_time, info.cooperative) == (1, 5, True, True)
