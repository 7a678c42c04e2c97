"""The omniscient Meteor planner reads the whole state: a bound for simulation, never a player in a room."""

from __future__ import annotations

import httpx
import pytest

import cosmodeck
from cosmodeck.server import ServerConfig
from cosmodeck.server.botlimits import check_bot
from cosmodeck.server.protocol import ProtocolError
from tests.server.util import create_room


@pytest.mark.parametrize("spec", ["omniscient", "omniscient:level=hard", "omniscient:pass_after=5"])
def test_check_bot_refuses_the_omniscient_planner(spec: str) -> None:
    game = cosmodeck.load_game("meteor")
    with pytest.raises(ProtocolError) as err:
        check_bot(game, spec, ServerConfig())
    assert err.value.code == "bad_bot" and "simulation only" in str(err.value)
    assert check_bot(game, "team", ServerConfig()).name == "team"  # the fair team may play in rooms


def test_a_room_with_an_omniscient_bot_is_refused(server: str) -> None:
    r = httpx.post(server + "/api/rooms", json={"game": "meteor", "players": 2, "bots": {"1": "omniscient"}},
                   timeout=10)
    assert r.status_code == 400 and r.json()["code"] == "bad_bot", r.text
    assert "simulation only" in r.json()["message"]
    assert create_room(server, "meteor", 2, bots={"1": "team"})["room"]
