"""Issue 12 items 2 and 5 on PostgreSQL: a database restart mid-game changes nothing that was not
stored, and servers sharing one database never run the same room (per-room advisory locks)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cosmodeck.storage import Store
from tests.pg import postgres_down
from tests.server.util import ServerProcess, Ws, create_room, room_info


@pytest.fixture
def pg_proc(postgres_url: str) -> Iterator[ServerProcess]:
    p = ServerProcess(postgres_url)
    p.start()
    yield p
    p.stop()


def stored_seqs(url: str, room: str) -> int:
    store = Store(url)
    try:
        return len(store.steps(room))
    finally:
        store.close()


def test_a_postgresql_restart_mid_game_refuses_the_move_then_the_room_goes_on(
        pg_proc: ServerProcess, postgres_url: str) -> None:
    r = create_room(pg_proc.base, "toy", 2, options={"tick": 1000})
    room = r["room"]
    a = Ws(pg_proc.base, room, r["seats"]["0"])
    b = Ws(pg_proc.base, room, r["seats"]["1"])
    a.act("add 1", 0)
    a.view_at_least(1)
    b.view_at_least(1)
    with postgres_down(postgres_url):
        a.act("add 2")
        err = a.until(lambda m: m["type"] == "error", timeout=30)
        assert err["code"] == "storage_unavailable"
        assert room_info(pg_proc.base, room)["version"] == 1
        b.drain(0.3)
        assert max(m["version"] for m in b.messages if m["type"] == "view") == 1
    a.act("add 2")  # PostgreSQL is back: the same move, retried, is stored
    assert b.view_at_least(2)["view"]["adds"] == [3, 0]
    assert stored_seqs(postgres_url, room) == 2

    pg_proc.kill9()
    pg_proc.start()
    a2 = Ws(pg_proc.base, room, r["seats"]["0"])
    assert a2.view_at_least(2)["view"]["adds"] == [3, 0]
    a2.act("add 1")
    assert a2.view_at_least(3)["view"]["adds"] == [4, 0]
    assert stored_seqs(postgres_url, room) == 3


def refused_code(base: str, room: str, token: str) -> str | None:
    ws = Ws(base, room, token)
    first = ws.recv()
    ws.close()
    return first["code"] if first["type"] == "error" else None


def test_two_servers_on_one_postgresql_database_never_run_the_same_room(postgres_url: str, tmp_path: Path) -> None:
    one = ServerProcess(postgres_url)
    two = ServerProcess(postgres_url, log_level="info", log_path=tmp_path / "two.log")
    one.start()
    two.start()  # a second server on the same database starts
    try:
        r = create_room(one.base, "toy", 2, options={"tick": 1000})
        room, t0, t1 = r["room"], r["seats"]["0"], r["seats"]["1"]
        a = Ws(one.base, room, t0)
        b = Ws(one.base, room, t1)
        a.act("add 1", 0)
        a.view_at_least(1)
        b.view_at_least(1)
        assert refused_code(two.base, room, t0) == "room_elsewhere"
        own = create_room(two.base, "toy", 2, options={"tick": 1000})  # it runs rooms of its own
        assert refused_code(one.base, own["room"], own["seats"]["0"]) == "room_elsewhere"

        two.stop()
        two.start()  # its start-up resume skips the room the first server runs
        assert f"room {room} is run by another server: not resumed here" in (tmp_path / "two.log").read_text()
        assert refused_code(two.base, room, t0) == "room_elsewhere"
        a.act("add 2")
        assert b.view_at_least(2)["view"]["adds"] == [3, 0]
        assert stored_seqs(postgres_url, room) == 2

        one.kill9()  # the first server dies: its locks go with its sessions, and the second may take over
        end = time.monotonic() + 30
        while refused_code(two.base, room, t0) == "room_elsewhere":
            assert time.monotonic() < end, "the room was never released"
            time.sleep(0.2)
        c = Ws(two.base, room, t0)
        assert c.view_at_least(2)["view"]["adds"] == [3, 0]
        c.act("add 1")
        assert c.view_at_least(3)["view"]["adds"] == [4, 0]
        assert stored_seqs(postgres_url, room) == 3
    finally:
        one.stop()
        two.stop()
