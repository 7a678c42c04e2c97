"""Issue 12, item 3: fair seeds. A room with other humans gets a secret seed drawn by the server; a
creator may choose the seed only when every other seat is a bot, and then everyone sees "fixed seed".
The seed shows only in the record, once the game is over."""

from __future__ import annotations

import httpx
import pytest

import cosmodeck
from cosmodeck.storage.repository import Store
from tests.server.util import Ws, create_room, room_info

QUICK = {"data": {"start": 5, "goal": 7}, "tick": 1000}  # one "add 2" ends the toy game


def stored_seed(db_path: str, room: str) -> int:
    store = Store(db_path)
    try:
        row = store.room(room)
    finally:
        store.close()
    assert row is not None
    return row.seed


def test_a_chosen_seed_with_another_human_seat_is_refused_and_creates_nothing(server: str) -> None:
    before = httpx.get(server + "/api/rooms", timeout=5).json()
    for body in ({"game": "toy", "players": 2, "seed": 42},
                 {"game": "toy", "players": 3, "bots": {"2": "random"}, "seed": 0}):
        r = httpx.post(server + "/api/rooms", json=body, timeout=10)
        assert r.status_code == 403 and r.json()["code"] == "seed_not_allowed"
        assert "hidden cards" in r.json()["message"]
    assert httpx.get(server + "/api/rooms", timeout=5).json() == before


def test_a_chosen_seed_against_bots_is_shown_to_everyone_as_fixed(server: str, db_path: str) -> None:
    r = create_room(server, "toy", 3, bots={"1": "random:median_s=30", "2": "random:median_s=30"},
                    options={"tick": 1000}, seed=42)
    assert stored_seed(db_path, r["room"]) == 42
    player = Ws(server, r["room"], r["seats"]["0"])
    spectator = Ws(server, r["room"])
    for ws in (player, spectator):
        assert ws.until(lambda m: m["type"] == "hello")["fixed_seed"] is True
    assert room_info(server, r["room"])["fixed_seed"] is True
    player.close()
    spectator.close()


def test_the_server_drawn_seed_is_secret_until_the_game_is_over(server: str, db_path: str) -> None:
    r = create_room(server, "toy", 2, options=QUICK)
    seed = stored_seed(db_path, r["room"])
    a, b = Ws(server, r["room"], r["seats"]["0"]), Ws(server, r["room"], r["seats"]["1"])
    spectator = Ws(server, r["room"])
    assert a.until(lambda m: m["type"] == "hello")["fixed_seed"] is False
    a.view_at_least(0)
    b.view_at_least(0)
    early = httpx.get(f"{server}/api/rooms/{r['room']}/record", timeout=5)
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    assert str(seed) not in httpx.get(f"{server}/api/rooms/{r['room']}", timeout=5).text
    assert str(seed) not in httpx.get(f"{server}/api/rooms", timeout=5).text
    a.act("add 2")
    for ws in (a, b, spectator):
        ws.until(lambda m: m["type"] == "view" and m["status"] == "over")
        assert not any(str(seed) in frame for frame in ws.frames)  # no hello, view, event or presence frame
    record = httpx.get(f"{server}/api/rooms/{r['room']}/record", timeout=5).json()
    assert record["seed"] == seed  # revealed after the game, in the record
    assert cosmodeck.replay(record).is_over
    for ws in (a, b, spectator):
        ws.close()


def test_two_rooms_without_a_chosen_seed_get_different_seeds(server: str, db_path: str) -> None:
    seeds = {stored_seed(db_path, create_room(server, "toy", 2)["room"]) for _ in range(3)}
    assert len(seeds) == 3


@pytest.mark.parametrize("game", ["meteor", "blast-off", "shooting-star"])
def test_no_frame_of_a_real_game_carries_its_seed(server: str, db_path: str, game: str) -> None:
    r = create_room(server, game, 2)
    seed = stored_seed(db_path, r["room"])
    clients = [Ws(server, r["room"], r["seats"][s]) for s in ("0", "1")]
    for ws in clients:
        hello = ws.until(lambda m: m["type"] == "hello")
        assert hello["fixed_seed"] is False and "seed" not in hello
        ws.until(lambda m: m["type"] == "view" and m["status"] == "playing")
        assert not any(str(seed) in frame for frame in ws.frames)
        ws.close()
