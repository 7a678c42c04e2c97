"""Blast Off!'s mission texts per language: the data file's (or mission file's) texts section."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput


def _packaged(name: str = "default.json") -> dict[str, Any]:
    text = resources.files("cosmodeck.games.blast_off.data").joinpath(name).read_text(encoding="utf-8")
    obj: dict[str, Any] = json.loads(text)
    return obj


def test_the_packaged_missions_carry_their_spanish_names_and_texts() -> None:
    texts = cosmodeck.load_game("blast-off").catalogue()["texts"]
    missions = _packaged()["missions"]
    assert len(texts) == 2 * len(missions)
    assert texts["mission.M05.name"] == {"en": "Roger", "es": "Recibido"}
    assert texts["mission.M15.text"]["es"] == "Las cuentas regresivas empiezan en 5: 5-4-3-2-1-¡Despegue!"
    assert all("es" in words for words in texts.values())


def test_a_changed_mission_shows_its_own_text_and_a_new_translation() -> None:
    obj = _packaged()
    obj["missions"][0]["text"] = "Whoever plays a 7 must say \"Mayday!\""
    obj["texts"]["mission.M01.text"] = {"es": "Quien juega un 7 debe decir «¡Mayday!»"}
    del obj["texts"]["mission.M02.name"]
    texts = cosmodeck.load_game("blast-off", data=TextInput("mine.json", json.dumps(obj))).catalogue()["texts"]
    assert texts["mission.M01.text"] == {"en": "Whoever plays a 7 must say \"Mayday!\"",
                                         "es": "Quien juega un 7 debe decir «¡Mayday!»"}
    assert texts["mission.M02.name"] == {"en": "Change Course"}  # no translation: the page says so


def test_a_mission_file_brings_its_own_texts() -> None:
    obj = _packaged("missions.json")
    obj["missions"] = obj["missions"][:3]
    obj["texts"] = {"mission.M02.name": {"es": "Nuevo rumbo"}}
    game = cosmodeck.load_game("blast-off", missions=TextInput("m.json", json.dumps(obj)))
    texts = game.catalogue()["texts"]
    assert set(texts) == {f"mission.M0{i}.{p}" for i in (1, 2, 3) for p in ("name", "text")}
    assert texts["mission.M02.name"] == {"en": "Change Course", "es": "Nuevo rumbo"}
    assert texts["mission.M01.name"] == {"en": "Houston"}


@pytest.mark.parametrize(("texts", "field", "words"), [
    ({"mission.M99.name": {"es": "X"}}, "texts.mission.M99.name", "no mission 'M99' in this file"),
    ({"mission.M01.rules": {"es": "X"}}, "texts.mission.M01.rules", "mission.ID.name or mission.ID.text"),
    ({"card.M01.name": {"es": "X"}}, "texts.card.M01.name", "mission.ID.name or mission.ID.text"),
    ({"mission.M01.name": {"en": "Houston", "es": "X"}}, "texts.mission.M01.name.en", "the card's own"),
    ({"mission.M01.name": {"Spanish": "X"}}, "texts.mission.M01.name.Spanish", "a language is a code"),
    ({"mission.M01.name": {"es": ""}}, "texts.mission.M01.name.es", "non-empty string"),
    ({"mission.M01.text": {"es": "x" * 600}}, "texts.mission.M01.text.es", "at most 500"),
    ({"mission.M01.text": "Houston"}, "texts.mission.M01.text", "one text per language"),
    ("texts", "texts", "must be an object of texts"),
])
def test_a_bad_texts_section_is_a_clear_data_error(texts: Any, field: str, words: str) -> None:
    obj = _packaged()
    obj["texts"] = texts
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", data=TextInput("mine.json", json.dumps(obj)))
    assert e.value.field == field and words in e.value.problem, e.value.problem
    obj = _packaged("missions.json")
    obj["texts"] = texts
    with pytest.raises(DataError) as e:
        cosmodeck.load_game("blast-off", missions=TextInput("m.json", json.dumps(obj)))
    assert e.value.source == "m.json" and e.value.field == field
