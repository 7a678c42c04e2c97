"""Issue 12 item 10: idle seats (a turn timer, votes, a bot playing until the person is back) and the
host's controls (start, kick, rematch); both survive a restart (kill -9)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cosmodeck.server import ServerConfig
from tests.server.util import ServerProcess, Ws, create_room, room_info, serve_in_thread

FAST = "random:median_s=0.02;sigma=0"  # an opponent bot that moves at once
SLOW_IDLE = "random:median_s=0.4;sigma=0"  # an idle bot slow enough for its person to act between its moves
QUICK_TOY = {"data": {"start": 5, "goal": 7}, "tick": 1000}  # one "add 2" ends the toy game


def presence(ws: Ws) -> dict[str, Any]:
    return [m for m in ws.messages if m["type"] == "presence"][-1]


def until_presence(ws: Ws, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "presence" and pred(m), timeout)


def error(ws: Ws) -> str:
    code: str = ws.until(lambda m: m["type"] == "error")["code"]
    return code


def stored_moves(db: str, room: str, seat: int, since: int = 0) -> list[str]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT action FROM steps WHERE room_id = ? AND seat = ? AND seq >= ? ORDER BY seq",
                           (room, seat, since)).fetchall()
    return [a for (a,) in rows]


def playing(*clients: Ws) -> None:
    for ws in clients:
        ws.until(lambda m: m["type"] == "view" and m["status"] == "playing")


@pytest.fixture
def timed(db_path: str) -> Iterator[str]:
    cfg = ServerConfig(db=db_path, bot_speed=1.0, grace_s=30.0, room_rate="", turn_s=0.5, idle_bot=SLOW_IDLE)
    with serve_in_thread(cfg) as base:
        yield base


@pytest.fixture
def untimed(db_path: str) -> Iterator[str]:
    cfg = ServerConfig(db=db_path, bot_speed=0.02, grace_s=30.0, room_rate="", turn_s=60.0)
    with serve_in_thread(cfg) as base:
        yield base


def test_turn_timer_runs_out_a_bot_plays_the_seat_and_the_person_takes_it_back_by_acting(
        timed: str, db_path: str) -> None:
    r = create_room(timed, "shooting-star", 2, bots={"1": FAST})
    a = Ws(timed, r["room"], r["seats"]["0"])
    # seat 0's first placement (the bot opponent moves at once when it places first)
    first = a.until(lambda m: m["type"] == "view" and m["status"] == "playing" and bool(m["legal"]))
    # everyone sees the timer: seat 0 has 0.5 s from now (game time)
    assert set(first["turns"]) == {"0"} and first["turn_s"] == 0.5
    assert 0 < first["turns"]["0"] - first["time"] <= 0.5
    pres = until_presence(a, lambda m: m["seats"]["0"]["idle"] == "timeout", timeout=5)
    assert pres["seats"]["0"]["bot"] == SLOW_IDLE
    taken_at = a.view["version"] if a.view else 0
    # the game goes on: the bot plays seat 0 (twice), the opponent answers
    deadline = time.monotonic() + 30
    while len(stored_moves(db_path, r["room"], 0)) < 2:
        assert time.monotonic() < deadline, "the bot did not play for the idle seat"
        a.drain(0.1)
    assert a.view is not None and a.view["version"] > taken_at
    # the person acts again (whenever it is their turn): the seat is theirs, with what the bot did
    report = None
    while report is None:
        v = a.until(lambda m: m["type"] == "view" and m["legal"])
        a.act(v["legal"][0], v["version"])
        m = a.until(lambda m: m["type"] in ("idle_report", "error"))
        if m["type"] == "idle_report":
            report = m
        else:
            assert m["code"] in ("stale_version", "not_your_turn", "illegal_action")
    assert report["seat"] == 0 and report["reason"] == "timeout"
    bot_moves = stored_moves(db_path, r["room"], 0)[:-1]  # every seat-0 move but the person's own
    assert report["count"] == len(bot_moves) >= 2 and report["moves"] == bot_moves
    until_presence(a, lambda m: m["seats"]["0"]["idle"] is None and m["seats"]["0"]["bot"] is None)


def test_every_other_human_votes_and_a_bot_plays_the_seat_until_its_person_says_back(untimed: str) -> None:
    r = create_room(untimed, "shooting-star", 3)
    a, b, c = (Ws(untimed, r["room"], r["seats"][str(i)]) for i in range(3))
    playing(a, b, c)
    b.send({"type": "vote_bot", "seat": 0})
    pres = until_presence(c, lambda m: m["votes"] == {"0": [1]})
    assert pres["seats"]["0"]["idle"] is None  # one of two voters: not yet
    c.send({"type": "vote_bot", "seat": 0})
    pres = until_presence(a, lambda m: m["seats"]["0"]["idle"] == "vote")
    assert pres["votes"] == {} and pres["seats"]["0"]["bot"] == "heuristic:level=normal"
    a.send({"type": "back"})
    report = a.until(lambda m: m["type"] == "idle_report")
    assert report["seat"] == 0 and report["reason"] == "vote" and report["count"] == len(report["moves"])
    until_presence(b, lambda m: m["seats"]["0"]["idle"] is None)
    assert not any(m["type"] == "idle_report" for m in b.messages + c.messages)  # only the person is told
    a.send({"type": "back"})
    assert error(a) == "not_replaced"


@pytest.mark.parametrize("msg,code", [
    ({"type": "vote_bot", "seat": 7}, "bad_seat"),
    ({"type": "vote_bot", "seat": 2}, "bad_seat"),  # a bot seat
    ({"type": "vote_bot", "seat": 1}, "vote_self"),
    ({"type": "vote_bot", "seat": "0"}, "bad_message"),
    ({"type": "vote_bot", "seat": 0.0}, "bad_message"),
    ({"type": "vote_bot"}, "bad_message"),
    ({"type": "vote_bot", "seat": 0, "extra": 1}, "bad_message"),
    ({"type": "kick", "seat": True}, "bad_message"),
])
def test_bad_votes_are_refused_and_change_nothing(untimed: str, msg: dict[str, Any], code: str) -> None:
    r = create_room(untimed, "shooting-star", 3, bots={"2": "random"})
    a, b = Ws(untimed, r["room"], r["seats"]["0"]), Ws(untimed, r["room"], r["seats"]["1"])
    playing(a, b)
    before = presence(b)
    b.send(msg)
    assert error(b) == code
    b.send({"type": "ping"})
    b.until(lambda m: m["type"] == "pong")  # the socket stays open
    b.drain(0.2)
    after = presence(b)
    assert after["votes"] == {} and after["seats"] == before["seats"]


def test_a_spectator_cannot_vote_kick_or_rematch(untimed: str) -> None:
    r = create_room(untimed, "shooting-star", 2)
    a, b = Ws(untimed, r["room"], r["seats"]["0"]), Ws(untimed, r["room"], r["seats"]["1"])
    playing(a, b)
    s = Ws(untimed, r["room"], None)
    for msg in ({"type": "vote_bot", "seat": 0}, {"type": "kick", "seat": 1}, {"type": "rematch"},
                {"type": "back"}):
        s.send(msg)
        assert error(s) == "spectator"
    a.drain(0.2)
    assert presence(a)["votes"] == {} and all(x["idle"] is None for x in presence(a)["seats"].values())


def test_only_the_host_starts_and_kicks(untimed: str) -> None:
    r = create_room(untimed, "shooting-star", 3, options={})
    a, b = Ws(untimed, r["room"], r["seats"]["0"]), Ws(untimed, r["room"], r["seats"]["1"])
    a.view_at_least(0)
    b.view_at_least(0)
    assert presence(b)["host"] == 0
    b.send({"type": "start"})
    assert error(b) == "not_host"
    b.send({"type": "kick", "seat": 0})
    assert error(b) == "not_host"
    a.send({"type": "kick", "seat": 1})
    assert error(a) == "not_started"
    assert room_info(untimed, r["room"])["status"] == "waiting"
    a.send({"type": "start"})  # seat 2 never came: a bot plays it until its person arrives
    playing(a, b)
    b.send({"type": "kick", "seat": 0})
    assert error(b) == "not_host"
    a.send({"type": "kick", "seat": 0})
    assert error(a) == "kick_self"
    a.send({"type": "rematch"})
    assert error(a) == "not_over"
    a.send({"type": "kick", "seat": 1})
    until_presence(b, lambda m: m["seats"]["1"]["idle"] == "kick")
    a.send({"type": "kick", "seat": 1})
    assert error(a) == "already_bot"
    b.send({"type": "back"})  # a kicked person keeps their link and may come back
    assert b.until(lambda m: m["type"] == "idle_report")["reason"] == "kick"


def test_the_creator_may_name_another_host_seat(untimed: str) -> None:
    import httpx

    ok = httpx.post(untimed + "/api/rooms", json={"game": "toy", "players": 2, "host": 1}, timeout=10)
    assert ok.status_code == 201
    a = Ws(untimed, ok.json()["room"], ok.json()["seats"]["0"])
    assert a.until(lambda m: m["type"] == "presence")["host"] == 1
    bad = httpx.post(untimed + "/api/rooms", json={"game": "toy", "players": 2, "bots": {"1": "random"}, "host": 1},
                     timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_seat"


def test_rematch_gives_every_seat_a_new_room_with_the_same_seats(untimed: str) -> None:
    r = create_room(untimed, "toy", 3, bots={"2": "random"}, options=QUICK_TOY)
    a, b = Ws(untimed, r["room"], r["seats"]["0"]), Ws(untimed, r["room"], r["seats"]["1"])
    playing(a, b)
    a.act("add 2")  # or the bot's first add ends the game
    for ws in (a, b):
        ws.until(lambda m: m["type"] == "view" and m["status"] == "over")
    b.send({"type": "rematch"})
    assert error(b) == "not_host"
    s = Ws(untimed, r["room"], None)
    s.drain(0.2)
    a.send({"type": "rematch"})
    ma = a.until(lambda m: m["type"] == "rematch")
    mb = b.until(lambda m: m["type"] == "rematch")
    ms = s.until(lambda m: m["type"] == "rematch")
    new = ma["room"]
    assert new != r["room"] and mb["room"] == ms["room"] == new
    assert ma["seat"] == 0 and mb["seat"] == 1 and "link" not in ms and ma["links"] == {}
    assert ma["link"] != mb["link"]
    info = room_info(untimed, new)
    assert info["game"] == "toy" and info["players"] == 3 and info["status"] == "waiting"
    a2 = Ws(untimed, new, ma["link"].split("#token=")[1])
    b2 = Ws(untimed, new, mb["link"].split("#token=")[1])
    assert a2.recv()["seat"] == 0 and b2.recv()["seat"] == 1
    pres = until_presence(a2, lambda m: m["status"] == "playing")
    assert pres["host"] == 0 and pres["seats"]["2"] == {"kind": "bot", "bot": "random", "connected": True}
    v = a2.view_at_least(0)
    assert v["view"]["counter"] == 5  # the same options and card data
    a.send({"type": "rematch"})
    assert error(a) == "already_rematched"
    # the old tokens do not open the new room
    old = Ws(untimed, new, r["seats"]["0"])
    assert old.recv()["code"] == "bad_token"


def test_a_rematch_sends_the_host_the_links_of_seats_nobody_is_connected_to(untimed: str) -> None:
    r = create_room(untimed, "toy", 2, options=QUICK_TOY)
    a, b = Ws(untimed, r["room"], r["seats"]["0"]), Ws(untimed, r["room"], r["seats"]["1"])
    playing(a, b)
    a.act("add 2")
    a.until(lambda m: m["type"] == "view" and m["status"] == "over")
    b.close()
    until_presence(a, lambda m: not m["seats"]["1"]["connected"])
    a.send({"type": "rematch"})
    m = a.until(lambda m: m["type"] == "rematch")
    assert set(m["links"]) == {"1"} and m["links"]["1"].startswith(f"/room/{m['room']}#token=")


class TimedServer(ServerProcess):
    def command(self) -> list[str]:
        return [*super().command(), "--turn-timer", "60"]


def test_a_restarted_server_resumes_the_idle_seat_votes_and_timers(tmp_path: Path) -> None:
    db = str(tmp_path / "idle.db")
    proc = TimedServer(db, grace=30.0, bot_speed=0.05)
    proc.start()
    try:
        r = create_room(proc.base, "shooting-star", 3)
        room = r["room"]
        a, b, c = (Ws(proc.base, room, r["seats"][str(i)]) for i in range(3))
        playing(a, b, c)
        b.send({"type": "vote_bot", "seat": 0})
        c.send({"type": "vote_bot", "seat": 0})
        until_presence(a, lambda m: m["seats"]["0"]["idle"] == "vote")
        since = a.view["version"] if a.view else 0
        # b and c play their turns; the bot plays seat 0's
        deadline = time.monotonic() + 30
        while len(stored_moves(db, room, 0, since)) < 2:
            assert time.monotonic() < deadline
            for ws in (b, c):
                ws.drain(0.05)
                if ws.view and ws.view["legal"]:
                    ws.act(ws.view["legal"][0], ws.view["version"])
        # a pending vote (seat 0's person is connected and has not voted; an action by seat 2 would void it)
        b.send({"type": "vote_bot", "seat": 2})
        until_presence(a, lambda m: m["votes"] == {"2": [1]})
        proc.kill9()
        proc.start()
        a2 = Ws(proc.base, room, r["seats"]["0"])
        pres = until_presence(a2, lambda m: True)
        assert pres["seats"]["0"]["idle"] == "vote" and pres["votes"] == {"2": [1]} and pres["host"] == 0
        v = a2.view_at_least(0)
        timed_humans = {str(i) for i in (1, 2) if i in _to_act(v)}
        assert set(v["turns"]) == timed_humans  # the turn timers resumed (seat 0 is the bot's)
        for end in v["turns"].values():
            assert v["time"] < end <= v["time"] + 60
        a2.send({"type": "back"})
        report = a2.until(lambda m: m["type"] == "idle_report")
        bot_moves = stored_moves(db, room, 0, since)
        assert report["reason"] == "vote" and report["count"] == len(bot_moves) >= 2
        assert report["moves"] == bot_moves
    finally:
        proc.stop()


def _to_act(v: dict[str, Any]) -> set[int]:
    """The seats Shooting Star waits for, from a view (its ``to_act`` key)."""
    raw = v["view"].get("to_act", [])
    return {int(x) for x in raw}


def test_the_turn_timer_runs_in_turn_based_steps_only() -> None:
    """Shooting Star placements and Blast Off! turns are timed; a Blast Off! countdown (the game's own
    deadline) and Meteor (real time, its own sand timer) are not."""
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bot
    from cosmodeck.engine.rng import Rng
    from cosmodeck.server.idle import timed_seats

    ss = load_game("shooting-star").new_game(players=2, seed=3)
    assert timed_seats(ss) == ss.to_act and ss.to_act
    assert timed_seats(load_game("meteor").new_game(players=2, seed=3)) == frozenset()
    game = load_game("blast-off")
    st = game.new_game(players=2, seed=3)
    assert timed_seats(st) == st.to_act and st.to_act
    bot, rng, seen_countdown = make_bot("blast-off", "random", game), Rng(1), False
    for _ in range(400):
        if st.is_over:
            break
        d = st.next_deadline()
        if d is not None:
            assert timed_seats(st) == frozenset()  # the countdown race runs on the game's clock
            seen_countdown = True
        acting = sorted(st.to_act)
        action = bot.act(st.view(acting[0]), st.legal_actions(acting[0]), rng) if acting else None
        if action is None:
            assert d is not None
            st.advance(d)
        else:
            st.apply(acting[0], action, at=st.now + 0.01 if d is None else min(st.now + 0.01, d))
    assert seen_countdown


def test_idle_seats_and_votes_are_stored_on_postgresql_too(postgres_url: str) -> None:
    proc = ServerProcess(postgres_url, grace=30.0, bot_speed=0.05)
    proc.start()
    try:
        r = create_room(proc.base, "toy", 3, options={"tick": 1000, "data": {"start": 3, "goal": 100000}})
        a, b, c = (Ws(proc.base, r["room"], r["seats"][str(i)]) for i in range(3))
        playing(a, b, c)
        b.send({"type": "vote_bot", "seat": 0})
        c.send({"type": "vote_bot", "seat": 0})
        until_presence(a, lambda m: m["seats"]["0"]["idle"] == "vote")
        b.send({"type": "vote_bot", "seat": 2})
        until_presence(a, lambda m: m["votes"] == {"2": [1]})
        # seat 2's person acts: the vote against it lapses, stored with the step (the bot keeps the
        # version moving, so an action may arrive stale: it is sent again)
        for _ in range(50):
            c.drain(0.05)
            assert c.view is not None
            c.act("add 1", c.view["version"])
            if c.until(lambda m: m["type"] in ("presence", "error"))["type"] == "presence":
                break
        until_presence(a, lambda m: m["votes"] == {})
        b.send({"type": "vote_bot", "seat": 2})
        until_presence(a, lambda m: m["votes"] == {"2": [1]})
        proc.kill9()
        proc.start()
        a2 = Ws(proc.base, r["room"], r["seats"]["0"])
        pres = until_presence(a2, lambda m: True)
        assert pres["seats"]["0"]["idle"] == "vote" and pres["votes"] == {"2": [1]} and pres["host"] == 0
        a2.send({"type": "back"})
        report = a2.until(lambda m: m["type"] == "idle_report")
        assert report["reason"] == "vote" and report["count"] == len(report["moves"]) >= 1
        assert set(report["moves"]) <= {"add 1", "add 2"}
    finally:
        proc.stop()


def test_the_turn_timer_is_a_serve_flag_with_a_generous_default() -> None:
    from cosmodeck.cli.main import build_parser
    from cosmodeck.cli.serve_cmd import config_from_args

    assert config_from_args(build_parser().parse_args(["serve"])).turn_s == 60.0 == ServerConfig().turn_s
    assert config_from_args(build_parser().parse_args(["serve", "--turn-timer", "90"])).turn_s == 90.0
    assert config_from_args(build_parser().parse_args(["serve", "--turn-timer", "0"])).turn_s == 0.0  # off
    for bad in ("-1", "nan", "inf"):
        with pytest.raises(SystemExit, match="--turn-timer"):
            config_from_args(build_parser().parse_args(["serve", "--turn-timer", bad]))
