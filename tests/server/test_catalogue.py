"""A room's catalogue (card faces, texts per language) is served once per room, not in every view."""

from __future__ import annotations

import json
from importlib import resources

import httpx

import cosmodeck
from cosmodeck.server.config import ServerConfig
from tests.server.util import Ws, create_room, serve_in_thread


def _catalogue(base: str, room: str) -> httpx.Response:
    return httpx.get(f"{base}/api/rooms/{room}/catalogue", timeout=10)


def test_a_meteor_room_serves_its_catalogue_once_and_its_views_carry_none(server: str) -> None:
    r = create_room(server, "meteor", 2, bots={"1": "heuristic"})
    got = _catalogue(server, r["room"])
    assert got.status_code == 200 and "max-age" in got.headers["cache-control"]
    assert got.json() == json.loads(json.dumps(cosmodeck.load_game("meteor").catalogue()))
    assert got.json()["texts"]["tech.T02"]["es"] == "Estación de seguimiento"
    ws = Ws(server, r["room"], r["seats"]["0"])
    frame = ws.until(lambda m: m["type"] == "view")
    assert "catalogue" not in frame["view"] and frame["view"]["techs"] is not None
    ws.close()


def test_a_room_with_custom_data_serves_the_texts_of_that_data(server: str) -> None:
    text = resources.files("cosmodeck.games.blast_off.data").joinpath("default.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    doc["missions"][0]["name"] = "Mayday"
    doc["texts"]["mission.M01.name"] = {"es": "Socorro"}
    del doc["texts"]["mission.M02.text"]
    r = create_room(server, "blast-off", 2, bots={"1": "random"}, options={"data": doc})
    texts = _catalogue(server, r["room"]).json()["texts"]
    assert texts["mission.M01.name"] == {"en": "Mayday", "es": "Socorro"}
    assert texts["mission.M02.text"] == {"en": "When a red or green card is played, the direction of play reverses."}


def test_an_unknown_room_has_no_catalogue(server: str) -> None:
    got = _catalogue(server, "nosuchroom")
    assert got.status_code == 404 and got.json()["code"] == "unknown_room"


def test_a_stored_room_serves_its_catalogue_after_a_restart(db_path: str) -> None:
    config = ServerConfig(db=db_path, bot_speed=0.02)
    with serve_in_thread(config) as base:
        room = create_room(base, "shooting-star", 2, bots={"1": "random"})["room"]
        before = _catalogue(base, room).json()
    with serve_in_thread(config) as base:
        assert _catalogue(base, room).json() == before
    assert before["texts"]["mission.M1-A.name"] == {"en": "Explorer", "es": "Exploradora"}
