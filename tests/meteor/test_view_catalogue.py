"""MET-D4: the game's catalogue of printed faces comes from the data file, is public, and is sent once.

The catalogue is part of the game (built once per game, served once per room); views name cards by
id and carry no catalogue, so a view stays small and bots and RL encoders never build one.
"""

from __future__ import annotations

import json
from importlib import resources

from cosmodeck.engine.options import TextInput
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.view import build_view
from tests.meteor.helpers import load


def test_MET_D4_the_catalogue_draws_every_resource_card_from_the_data_file() -> None:
    game = load()
    st = game.new_game(players=2, seed=3)
    cat = game.catalogue()
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
    obj["rockets"][0]["damage"] += 1
    game = MeteorGame(TextInput("my-cards.json", json.dumps(obj), lenient=True), {})
    cat = game.catalogue()
    assert cat["texts"]["tech.T02"] == {"en": "Deep Radar"}  # the board shows it, saying it is untranslated
    rocket = obj["rockets"][0]
    assert cat["cards"][rocket["id"]]["damage"] == rocket["damage"]


def test_MET_D4_the_catalogue_is_built_once_per_game_and_no_view_carries_it() -> None:
    game = load(difficulty="advanced")
    st = game.new_game(players=3, seed=1)
    assert game.catalogue() is game.catalogue()
    for seat in (None, 0, 1, 2):
        assert "catalogue" not in build_view(st, seat)
    texts = game.catalogue()["texts"]
    # every Power and Challenge of the file, whichever were dealt (the dealt ones are public anyway)
    assert {k.split(".")[1] for k in texts if k.startswith("power.")} == set(st.data.powers)
    assert {k.split(".")[1] for k in texts if k.startswith("challenge.")} == set(st.data.challenges)
    # every boss name is listed, so the list never tells which bosses lie face down
    assert sum(1 for k in texts if k.startswith("boss.")) == len(st.data.boss_ids)
    # the view names the dealt cards by id; the catalogue has their texts
    assert all(f"power.{p['id']}" in texts for p in build_view(st, 0)["powers"] if p)
