"""The Meteor data file's texts section (datafile.check_texts): known keys, languages, sizes."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.meteor.game import MeteorGame


def _with_texts(texts: Any) -> MeteorGame:
    obj = json.loads(resources.files("cosmodeck.games.meteor.data").joinpath("default.json").read_text("utf-8"))
    obj["texts"] = texts
    return MeteorGame(TextInput("cards.json", json.dumps(obj)), {})


@pytest.mark.parametrize(("texts", "field", "words"), [
    ({"tech.T99": {"en": "X"}}, "texts.tech.T99", "no tech 'T99' in this file"),
    ({"card.R01": {"en": "X"}}, "texts.card.R01", "unknown kind of text 'card'"),
    ({"zone.5.text": {"en": "X"}}, "texts.zone.5.text", "a zone has only a name"),
    ({"power.P01.rules": {"en": "X"}}, "texts.power.P01.rules", "only the suffix '.text'"),
    ({"tech.T01": {"es": "Solo español"}}, "texts.tech.T01", 'needs its English ("en")'),
    ({"tech.T01": {"en": "X", "spanish": "Y"}}, "texts.tech.T01.spanish", "a language is a code"),
    ({"tech.T01": {"en": 3}}, "texts.tech.T01.en", "must be a non-empty string"),
    ({"tech.T01": {"en": "  "}}, "texts.tech.T01.en", "must be a non-empty string"),
    ({"tech.T01": {"en": "x" * 501}}, "texts.tech.T01.en", "501 characters long; at most 500"),
    ({"tech.T01": "Radar"}, "texts.tech.T01", "one text per language"),
    (["tech.T01"], "texts", "must be an object of texts"),
    ({f"boss.B{i:02}": {"en": "X"} for i in range(401)}, "texts", "401 texts; at most 400"),
])
def test_a_bad_texts_section_is_a_clear_data_error(texts: Any, field: str, words: str) -> None:
    with pytest.raises(DataError) as e:
        _with_texts(texts)
    assert e.value.field == field and words in e.value.message


def test_a_texts_section_with_new_texts_and_regional_languages_loads() -> None:
    game = _with_texts({"tech.T01": {"en": "Radar", "es": "Radar", "pt-BR": "Radar"},
                        "site.4": {"en": "Wenchang"}, "project.dead": {"en": "Stuck"}})
    assert game.catalogue()["texts"]["site.4"] == {"en": "Wenchang"}
    assert _with_texts(None).catalogue()["texts"] == {}
