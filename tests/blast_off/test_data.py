"""BLO-0.1, BLO-1 components, the data file (§6.4, I1-I7) and the mission language (§6.3)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.blast_off.cards import COLOURS, TYPE_COL, TYPE_KIND, TYPE_NAME, TYPE_VAL
from cosmodeck.games.blast_off.loader import kind_counts
from tests.blast_off.helpers import game

DEFAULT = json.loads(resources.files("cosmodeck.games.blast_off.data").joinpath("default.json").read_text())


def _data(**changes: Any) -> TextInput:
    obj = json.loads(json.dumps(DEFAULT))
    for path, value in changes.items():
        node = obj
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[int(k)] if isinstance(node, list) else node[k]
        last = keys[-1]
        if value is ...:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return TextInput("my.json", json.dumps(obj))


def _error(**changes: Any) -> DataError:
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=_data(**changes))
    assert e.value.source == "my.json" and e.value.code == "bad_data"
    return e.value


def test_BLO_0_1_deck_and_missions_come_from_editable_data() -> None:
    g = cosmodeck.load_game("blast-off", data=_data(deck__wild=8))
    assert g.deck_size == 72 and len(g.new_game(4, seed=1).census()) == 72 + 16
    g = cosmodeck.load_game("blast-off", data=_data(missions__0__text="Say it!"))
    assert g.missions[0].text == "Say it!"


def test_BLO_1_1_I1_main_deck_has_68_cards_50_8_4_6() -> None:
    g = game()
    assert g.deck_size == 68 and kind_counts(g.ctype) == {0: 50, 1: 8, 2: 4, 3: 6}


def test_BLO_1_2_I4_sixteen_mission_cards_kept_apart() -> None:
    g = game()
    assert [m.id for m in g.missions] == [f"M{i:02}" for i in range(1, 17)]
    census = g.new_game(4, seed=1).census()
    assert sum(v for k, v in census.items() if k.startswith("M")) == 16


def test_BLO_1_3_I2_I3_colours_and_faces_of_each_kind() -> None:
    g = game()
    colours = Counter(COLOURS[TYPE_COL[t]] for t in g.ctype if TYPE_KIND[t] == 0)
    numbers = Counter(TYPE_VAL[t] for t in g.ctype if TYPE_KIND[t] == 0)
    assert colours == {"ORANGE": 13, "GREEN": 13, "PURPLE": 12, "RED": 12}
    assert set(numbers.values()) == {5} and len(numbers) == 10
    assert Counter(TYPE_NAME[t] for t in g.ctype if TYPE_KIND[t] == 1) == {"BO-O": 2, "BO-G": 2, "BO-P": 2, "BO-R": 2}
    assert {(TYPE_COL[t], TYPE_VAL[t]) for t in g.ctype if TYPE_KIND[t] >= 2} == {(-1, 0)}


def test_BLO_1_4_the_leaflet_is_not_a_game_object() -> None:
    census = game().new_game(3, seed=2).census()
    assert sum(census.values()) == 68 + 16 and all(k[0] in "cM" for k in census)


def test_BLO_1_5_two_to_six_players_data_drives_the_distribution() -> None:
    g = cosmodeck.load_game("blast-off", data=_data(deck__planet__1=[5, 0, 0, 0]))
    assert Counter(TYPE_NAME[t] for t in g.ctype)["O1"] == 5
    for n in (2, 6):
        assert len(g.new_game(n, seed=0).hands) == n


def test_BLO_I5_ids_unique_one_part_when_iff_obligation_or_effect() -> None:
    e = _error(missions__1__id="M01")
    assert e.field == "missions[1].id" and "duplicate" in e.problem
    e = _error(missions__0__effect={"type": "reverse"})
    assert e.field.startswith("missions[0] (M01)") and "exactly one" in e.problem
    e = _error(missions__0__when=...)
    assert "'when' is required" in e.problem


def test_BLO_I6_effects_need_phase_turn_and_only_mdl_keys_and_enums() -> None:
    e = _error(missions__1__phase=...)
    assert e.field == "missions[1] (M02)" and 'phase": "turn"' in e.problem
    e = _error(missions__1__when__colour=["BLUE"])
    assert e.field == "missions[1] (M02).when.colour" and "'BLUE' is not a colour" in e.problem
    e = _error(missions__0__obligation__shout=True)
    assert e.field == "missions[0] (M01).obligation.shout" and "unknown key" in e.problem
    e = _error(missions__14__modifier__countdown_from=11)
    assert e.field == "missions[14] (M15).modifier.countdown_from"


def test_BLO_I7_deck_needs_six_per_player_plus_two() -> None:
    small = {str(n): [1, 0, 0, 0] for n in range(1, 11)}
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=_data(deck__planet=small, deck__wild=0, deck__countdown=0))
    assert e.value.field == "deck" and "I7" in e.value.problem and "38" in e.value.problem


def test_data_file_errors_name_file_field_problem() -> None:
    assert _error(schema="x").field == "schema"
    assert _error(deck__blast_off=[2, 2]).field == "deck.blast_off"
    assert _error(deck__planet__3=...).field == "deck.planet"
    assert _error(colours=["ORANGE", "BLUE"]).field == "colours"
    with pytest.raises(DataError) as err:
        cosmodeck.load_game("blast-off", data=TextInput("bad.json", "{not json"))
    assert err.value.source == "bad.json" and "JSON" in err.value.problem


def test_BLO_9_2_missions_file_option_replaces_the_missions(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    mine = [{"id": "Z1", "name": "Zap", "text": "Whoever plays a 2 must say Zap.",
             "when": {"event": "card_played", "value": 2}, "obligation": {"who": "actor", "do": "announce",
                                                                      "token": "ZAP"}}]
    path.write_text(json.dumps({"schema": "cosmodeck/blast_off/missions@1", "missions": mine}))
    g = cosmodeck.load_game("blast-off", missions=str(path))
    assert [m.id for m in g.missions] == ["Z1"] and g.missions[0].cond is not None
    st = g.new_game(3, seed=1)
    assert st.census()["Z1"] == 1 and g.load_state(st.to_json()).to_json() == st.to_json()
    rec = json.loads(json.dumps(st.record()))
    assert cosmodeck.replay(rec).to_json() == st.to_json()
    path.write_text(json.dumps([{**mine[0], "when": {"event": "card_played", "value": 12}}]))
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", missions=str(path))
    assert e.value.source == str(path) and e.value.field == "missions[0] (Z1).when.value"
    assert "not a card value" in e.value.problem


def test_default_missions_file_matches_the_data_file() -> None:
    text = resources.files("cosmodeck.games.blast_off.data").joinpath("missions.json").read_text()
    assert json.loads(text)["missions"] == DEFAULT["missions"]
    g = cosmodeck.load_game("blast-off", missions=TextInput("missions.json", text))
    assert [m.source for m in g.missions] == [m.source for m in game().missions]
