"""The data hash covers the rules of a card-data file, never its texts (engine/datahash.py).

The files under before_texts/ were written by earlier versions of the package: records and a saved
Meteor game made with the packaged data before its texts section (data hash ff1be6...), and records
of each game made with the packaged data whose hash was the hash of the whole text (translations
included). They must all still replay on today's packaged data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.api import default_data
from cosmodeck.engine.datahash import rules_hash
from cosmodeck.engine.errors import RecordFormatError, StateFormatError
from cosmodeck.engine.options import TextInput

HERE = Path(__file__).parent / "before_texts"


def _json(name: str) -> Any:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def _packaged(game_id: str) -> Any:
    return json.loads(default_data(game_id).text)


def _hash_of(game_id: str, obj: Any) -> str:
    return cosmodeck.load_game(game_id, data=TextInput("x.json", json.dumps(obj), lenient=True)).data_hash


@pytest.mark.parametrize("name", ["meteor-no-texts", "meteor-text-hash", "shooting-star-text-hash",
                                  "blast-off-text-hash"])
def test_a_record_made_with_earlier_packaged_data_still_replays(name: str) -> None:
    record = _json(f"{name}.record.json")
    game = cosmodeck.load_game(record["game"])
    assert record["data_hash"] != game.data_hash  # written by a version that hashed the whole text
    state = cosmodeck.replay(record, check=True)
    again = state.record()
    assert again["log"] == record["log"] and again["data_hash"] == game.data_hash
    assert cosmodeck.replay(again, check=True).to_json() == state.to_json()


@pytest.mark.parametrize("name", ["meteor-no-texts", "meteor-text-hash"])
def test_a_game_saved_with_earlier_packaged_data_still_loads(name: str) -> None:
    text = (HERE / f"{name}.state.json").read_text(encoding="utf-8")
    game = cosmodeck.load_game("meteor")
    state = game.load_state(text)
    assert state.record()["log"] == _json(f"{name}.record.json")["log"]


def test_the_packaged_meteor_data_before_its_texts_has_todays_rules() -> None:
    old = (HERE / "meteor-no-texts.data.json").read_text(encoding="utf-8")
    game = cosmodeck.load_game("meteor")
    assert "texts" not in json.loads(old) and "texts" in _packaged("meteor")
    assert rules_hash(old, game.text_paths) == game.data_hash
    assert game.previous_data[TextInput("old", old).sha] == game.data_hash


@pytest.mark.parametrize("game_id", ["meteor", "shooting-star", "blast-off"])
def test_every_earlier_hash_names_todays_rules(game_id: str) -> None:
    game = cosmodeck.load_game(game_id)
    assert game.previous_data and set(game.previous_data.values()) == {game.data_hash}
    assert game.accepts_data_hash(game.data_input.sha) and not game.accepts_data_hash("0" * 16)


def _edit_meteor(obj: dict[str, Any], text: bool) -> None:
    if text:
        obj["texts"]["tech.T01"]["es"] = "Otra traducción"
        obj["boss_meteors"][0]["name"] = "Leviathan"
    else:
        obj["setup_chart"]["3"]["start_hand"] += 1


def _edit_shooting_star(obj: dict[str, Any], text: bool) -> None:
    if text:
        obj["missions"][0]["name"]["es"] = "Otro nombre"
        obj["missions"][0]["text"]["en"] = "Another English text"
    else:
        obj["missions"][0]["need"]["planets"] += 1


def _edit_blast_off(obj: dict[str, Any], text: bool) -> None:
    if text:
        obj["missions"][0]["text"] = "Another English text"
        obj["texts"]["mission.M01.name"] = {"es": "Houston (otra)"}
    else:
        obj["deck"]["countdown"] += 1


EDITS = {"meteor": _edit_meteor, "shooting-star": _edit_shooting_star, "blast-off": _edit_blast_off}


@pytest.mark.parametrize("game_id", sorted(EDITS))
def test_a_text_changes_no_hash_and_a_rule_number_does(game_id: str) -> None:
    base = cosmodeck.load_game(game_id).data_hash
    reformatted = json.dumps(_packaged(game_id), indent=4)
    assert cosmodeck.load_game(game_id, data=TextInput("x.json", reformatted)).data_hash == base
    texts = _packaged(game_id)
    EDITS[game_id](texts, True)
    assert _hash_of(game_id, texts) == base
    rules = _packaged(game_id)
    EDITS[game_id](rules, False)
    assert _hash_of(game_id, rules) != base


def test_a_record_of_other_rules_is_refused_and_custom_data_gets_no_earlier_hashes() -> None:
    record = _json("meteor-no-texts.record.json")
    obj = _packaged("meteor")
    _edit_meteor(obj, False)
    custom = TextInput("custom.json", json.dumps(obj))
    with pytest.raises(RecordFormatError, match="card data"):
        cosmodeck.replay({**record, "data": custom.to_json()})
    # custom data embedded in a record: only its own hashes are accepted, not the packaged file's history
    game = cosmodeck.load_game("meteor", data=custom)
    assert not game.accepts_data_hash("ff1be6131dc5c6e8")
    with pytest.raises(StateFormatError, match="different card data"):
        game.load_state((HERE / "meteor-no-texts.state.json").read_text(encoding="utf-8"))
