"""Catches that cost (issue 12, item 9): in a room created through the server, a false catch costs its
caller one card unless the creator changes ``false_catch_penalty``; the engine's default stays the spec's."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

import cosmodeck
from tests.server.test_games import pick
from tests.server.util import Ws, create_room

NO_FORGET = "heuristic:p_forget=0;p_catch=0"  # bots that keep every obligation: catching them is mostly false


CATCH_KINDS = {"caught", "catch_duplicate", "catch_failed"}


def _events(ws: Ws, version: int) -> list[str]:
    """The kinds of the events the server sent for ``version``."""
    return [e["type"] for f in ws.messages if f["type"] == "events" and f["version"] == version for e in f["events"]]


def false_catch(base: str, options: dict[str, Any]) -> tuple[int, int]:
    """Seat 0 (a person) plays at random among bots that never break a mission, and catches a bot as
    soon as it may; returns its hand size before and after that (false) catch (in a new game if a
    game ends before a mission that allows catches is in force)."""
    for seed in range(10):
        got = false_catch_in_one_game(base, options, seed)
        if got is not None:
            return got
    raise AssertionError("no catch became possible in 10 games")


def false_catch_in_one_game(base: str, options: dict[str, Any], seed: int) -> tuple[int, int] | None:
    room = create_room(base, "blast-off", 4, bots={str(s): NO_FORGET for s in (1, 2, 3)}, options=options)
    ws = Ws(base, room["room"], room["seats"]["0"])
    rng = random.Random(seed)
    end = time.monotonic() + 90
    try:
        while time.monotonic() < end:
            ws.drain(0.02)
            v = ws.view
            assert v is not None
            if v["view"]["over"]:
                return None
            catches = [a for a in v["legal"] if a.split() == ["catch", "1"]]
            if catches:
                ws.act("catch 1")
                at = v["version"]
                # bots keep playing: wait for the answer to this catch (a refusal, or the version it made)
                msg = ws.until(lambda m, at=at: m["type"] == "error" or (
                    m["type"] == "view" and m["version"] > at and bool(CATCH_KINDS & set(_events(ws, m["version"])))))
                if msg["type"] == "error":
                    assert msg["code"] == "stale_version", msg
                    continue
                if "catch_failed" not in _events(ws, msg["version"]):  # the bot had broken a prohibition
                    continue
                before = [m for m in ws.messages if m["type"] == "view" and m["version"] < msg["version"]][-1]
                return len(before["view"]["hand"]), len(msg["view"]["hand"])
            if v["legal"] and rng.random() < 0.5:
                moves = [a for a in v["legal"] if not a.startswith("catch")]
                if moves:
                    ws.act(pick(moves, rng))
        return None
    finally:
        ws.close()


def test_BLO_R15_a_false_catch_in_a_server_room_costs_one_card_by_default(server: str) -> None:
    before, after = false_catch(server, {})
    assert after == before + 1


def test_BLO_R15_the_room_creator_may_make_false_catches_free_again(server: str) -> None:
    before, after = false_catch(server, {"false_catch_penalty": 0})
    assert after == before


def test_the_lobby_is_told_the_room_default_and_the_engine_keeps_the_spec_default(server: str) -> None:
    games = {g["id"]: g for g in httpx.get(server + "/api/games", timeout=10).json()}
    opts = {o["name"]: o for o in games["blast-off"]["options"]}
    assert opts["false_catch_penalty"]["default"] == 1
    assert cosmodeck.load_game("blast-off").options["false_catch_penalty"] == 0
