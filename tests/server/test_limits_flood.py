"""A client cannot flood a room: moves and talk are limited per seat (over all its connections), every
message per connection (dropped before it is parsed or queued), a seat's connections and a room's
spectators are bounded. Without these, one player of a real-time game could send free moves (Blast Off!'s
announcements and gestures are legal at any time) as fast as the socket carries them: a database write
and a view to every client each."""

from __future__ import annotations

import time

import pytest

from cosmodeck.cli.main import build_parser
from cosmodeck.cli.serve_cmd import config_from_args
from cosmodeck.server import ServerConfig
from tests.server.util import Ws, create_room, room_info, serve_in_thread

MANY = {"data": {"start": 3, "goal": 100000}, "tick": 1000}  # the toy game: "add 1" is legal for ages


def _flood_moves(ws: Ws, seconds: float) -> tuple[int, int, int]:
    """Send "add 1" for the newest version as fast as views come back; (version at the start, moves
    accepted, rate refusals)."""
    first = ws.until(lambda m: m["type"] == "view" and m["status"] == "playing")["version"]
    refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert ws.view is not None
        sent = ws.view["version"]
        ws.act("add 1")
        msg = ws.until(lambda m, sent=sent: (m["type"] == "view" and m["version"] > sent) or m["type"] == "error")
        if msg["type"] == "error":
            assert msg["code"] == "rate_limited", msg
            refused += 1
    ws.drain(0.3)
    assert ws.view is not None
    return first, ws.view["version"] - first, refused


def test_moves_are_limited_per_seat_and_a_refused_move_changes_nothing(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="", act_rate=4.0, message_rate=1000.0)) as base:
        r = create_room(base, "toy", 2, options=MANY)
        a = Ws(base, r["room"], r["seats"]["0"])
        Ws(base, r["room"], r["seats"]["1"]).view_at_least(0)
        start = time.monotonic()
        first, accepted, refused = _flood_moves(a, 1.5)
        elapsed = time.monotonic() - start
        # a burst of 8 (twice the rate), then 4 a second
        assert 8 <= accepted <= 8 + 4 * elapsed + 1 and refused > 0
        assert room_info(base, r["room"])["version"] == first + accepted  # refusals changed nothing
        time.sleep(0.6)  # the allowance refills with time: a player who slows down plays on
        a.act("add 1")
        assert a.until(lambda m: m["type"] in ("view", "error"))["type"] == "view"


def test_a_second_connection_of_the_same_seat_shares_its_allowance(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="", talk_rate=2.0, message_rate=1000.0)) as base:
        r = create_room(base, "toy", 2, options=MANY)
        a1 = Ws(base, r["room"], r["seats"]["0"])
        a2 = Ws(base, r["room"], r["seats"]["0"])
        for ws in (a1, a2):
            for i in range(4):
                ws.send({"type": "signal", "kind": f"s{i}"})
        time.sleep(0.5)
        a1.drain(0.3)
        a2.drain(0.3)
        errors = [m for ws in (a1, a2) for m in ws.messages if m["type"] == "error"]
        said = {(m["kind"]) for m in a1.messages if m["type"] == "signal"}
        # 8 sent, a burst of 4 (+1 refilled while they travel) allowed for the seat, not 4 per socket
        assert 2 <= len(errors) <= 4 and all(m["code"] == "rate_limited" for m in errors) and said


def test_a_connection_sending_too_fast_has_its_messages_dropped_unread(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="", message_rate=5.0)) as base:
        r = create_room(base, "toy", 2, options=MANY)
        a = Ws(base, r["room"], r["seats"]["0"])
        a.view_at_least(0)
        for _ in range(30):
            a.send({"type": "ping"})
        a.send("{ not json")  # dropped before parsing: no bad_json answer for it
        time.sleep(0.5)
        a.drain(0.3)
        pongs = sum(m["type"] == "pong" for m in a.messages)
        dropped = [m for m in a.messages if m["type"] == "error"]
        assert 10 <= pongs <= 14 and len(dropped) == 31 - pongs
        assert {m["code"] for m in dropped} == {"rate_limited"}
        time.sleep(0.5)
        a.send({"type": "ping"})
        assert a.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_a_seats_newest_connection_closes_its_oldest_beyond_the_cap(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="", seat_connections=2)) as base:
        r = create_room(base, "toy", 2, options=MANY)
        Ws(base, r["room"], r["seats"]["1"]).view_at_least(0)
        first = Ws(base, r["room"], r["seats"]["0"])
        first.view_at_least(0)
        second = Ws(base, r["room"], r["seats"]["0"])
        second.view_at_least(0)
        third = Ws(base, r["room"], r["seats"]["0"])
        version = third.until(lambda m: m["type"] == "view" and m["status"] == "playing")["version"]
        assert first.closed_code() == 4409
        assert [m["code"] for m in first.messages if m["type"] == "error"] == ["replaced"]
        # the newest one plays; the second one still follows
        third.act("add 1", version)
        assert third.until(lambda m: m["type"] == "view" and m["version"] == version + 1)
        assert second.until(lambda m: m["type"] == "view" and m["version"] == version + 1)


def test_a_room_refuses_spectators_beyond_its_cap_but_never_a_player(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="", spectators=2)) as base:
        r = create_room(base, "toy", 2, options=MANY)
        watchers = [Ws(base, r["room"]) for _ in range(2)]
        for w in watchers:
            w.view_at_least(0)
        extra = Ws(base, r["room"])
        assert extra.closed_code() == 1013
        assert [m["code"] for m in extra.messages if m["type"] == "error"] == ["room_full"]
        player = Ws(base, r["room"], r["seats"]["1"])  # players are not counted with spectators
        player.view_at_least(0)
        assert [m["seat"] for m in player.messages if m["type"] == "hello"] == [1]
        watchers[0].close()
        time.sleep(0.3)
        again = Ws(base, r["room"])
        again.view_at_least(0)
        assert [m["seat"] for m in again.messages if m["type"] == "hello"] == [None]


@pytest.mark.parametrize(("flag", "value"), [("--act-rate", "0"), ("--talk-rate", "nan"), ("--message-rate", "-1"),
                                             ("--seat-connections", "0"), ("--spectators", "-1")])
def test_serve_refuses_a_bad_limit(flag: str, value: str) -> None:
    args = build_parser().parse_args(["serve", flag, value])
    with pytest.raises(SystemExit, match=flag):
        config_from_args(args)


def test_serve_flags_set_the_limits() -> None:
    args = build_parser().parse_args(["serve", "--act-rate", "3", "--talk-rate", "2", "--message-rate", "9",
                                      "--seat-connections", "1", "--spectators", "0"])
    cfg = config_from_args(args)
    assert (cfg.act_rate, cfg.talk_rate, cfg.message_rate, cfg.seat_connections, cfg.spectators) == (3, 2, 9, 1, 0)
    default = config_from_args(build_parser().parse_args(["serve"]))
    assert (default.act_rate, default.message_rate, default.seat_connections) == (10.0, 40.0, 4)
