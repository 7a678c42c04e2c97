"""MET-D4: the view's catalogue of printed faces comes from the data file and shows only public text."""

from __future__ import annotations

import json
from importlib import resources

from cosmodeck.engine.options import TextInput
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.view import build_view
from tests.meteor.helpers import load


def test_MET_D4_the_catalogue_draws_every_resource_card_from_the_data_file() -> None:
    st = load().new_game(players=2, seed=3)
    cat = build_view(st, 0)["catalogue"]
    bases = {c.base for c in st.data.resources.values()}
    assert set(cat["cards"]) == bases
    assert cat["cards"]["R10"] == {"kind": "rocket", "cost": "FS", "damage": 3}
    assert cat["cards"]["T02"]["key"] == "tracking_station" and cat["cards"]["T02"]["cost"] == "AS"
    assert cat["cards"]["F"] == {"kind": "energy", "key": "fuel"}
    assert [e["colour"] for e in cat["energy"]] == ["red", "yellow", "green", "blue"]
    assert cat["texts"]["tech.T02"]["es"] == "Estación de seguimiento"
    assert cat["texts"]["zone.5"] == {"en": "Exosphere", "es": "Exosfera"}


def test_MET_D4_a_changed_data_file_changes_the_faces_and_a_missing_translation_stays_english() -> None:
    text = resources.files("cosmodeck.games.meteor.data").joinpath("default.json").read_text(encoding="utf-8")
    obj = json.loads(text)
    obj["texts"]["tech.T02"] = {"en": "Deep Radar"}
    game = MeteorGame(TextInput("my-cards.json", json.dumps(obj)), {})
    cat = build_view(game.new_game(players=2, seed=3), 1)["catalogue"]
    assert cat["texts"]["tech.T02"] == {"en": "Deep Radar"}  # the board shows it, saying it is untranslated


def test_MET_D4_power_and_challenge_texts_are_those_of_the_cards_dealt() -> None:
    st = load(difficulty="advanced").new_game(players=3, seed=1)
    texts = build_view(st, None)["catalogue"]["texts"]
    dealt = {c for c in (*st.powers, *st.challenges) if c}
    shown = {k.split(".")[1] for k in texts if k.startswith(("power.", "challenge."))}
    assert shown == dealt and len(dealt) == 6
    assert not any(k.startswith(("power.", "challenge.")) for k in build_view(load().new_game(players=3, seed=1), 0)
                   ["catalogue"]["texts"])
    # every boss name is listed, so the list never tells which bosses lie face down
    assert sum(1 for k in texts if k.startswith("boss.")) == len(st.data.boss_ids)
