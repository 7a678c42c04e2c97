"""Storage and resume on a real PostgreSQL server (started by the test session)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cosmodeck.server import ServerConfig
from cosmodeck.storage import RoomRow, Step, Store
from tests.server.util import ServerProcess, Ws, create_room, room_info, serve_in_thread


def test_store_round_trip_on_postgresql(postgres_url: str) -> None:
    store = Store(postgres_url)
    assert store.url.startswith("postgresql+psycopg://")
    row = RoomRow(id="r1", game="toy", players=2, seed=2**62 + 5, header={"game": "toy", "options": {"tick": 1.0}},
                  seats={"0": {"token": "t"}, "1": {"bot": "random"}}, status="waiting", origin=None,
                  created=1.0, result=None, steps=0)
    store.create_room(row)
    store.start("r1", 1234.5)
    store.append("r1", 0, Step(0.25, 0, "add 1"))
    store.append("r1", 1, Step(1.0, None, None), status="over", result={"winners": [0]})
    got = store.room("r1")
    assert got is not None and got.seed == 2**62 + 5 and got.origin == 1234.5 and got.status == "over"
    assert got.result == {"winners": [0]} and got.steps == 2
    assert store.steps("r1") == [Step(0.25, 0, "add 1"), Step(1.0, None, None)]
    assert store.unfinished() == []
    store.close()


@pytest.fixture
def pg_proc(postgres_url: str) -> Iterator[ServerProcess]:
    p = ServerProcess(postgres_url)
    p.start()
    yield p
    p.stop()


def test_server_on_postgresql_resumes_after_kill_9(pg_proc: ServerProcess) -> None:
    r = create_room(pg_proc.base, "toy", 2, options={"tick": 1000})
    a = Ws(pg_proc.base, r["room"], r["seats"]["0"])
    b = Ws(pg_proc.base, r["room"], r["seats"]["1"])
    a.view_at_least(0)
    b.view_at_least(0)
    for i in range(4):
        a.act("add 1")
        a.view_at_least(i + 1)
    acked = a.view
    pg_proc.kill9()
    pg_proc.start()
    assert room_info(pg_proc.base, r["room"])["version"] == 4
    a2 = Ws(pg_proc.base, r["room"], r["seats"]["0"])
    assert acked is not None and a2.view_at_least(4)["view"] == acked["view"]
    a2.act("add 2")
    assert a2.view_at_least(5)["view"]["adds"] == [6, 0]


def test_in_process_server_on_postgresql_restarts_cleanly(postgres_url: str) -> None:
    config = ServerConfig(db=postgres_url, bot_speed=0.02)
    with serve_in_thread(config) as base:
        r = create_room(base, "toy", 2, bots={"1": "random"}, options={"tick": 1000})
        a = Ws(base, r["room"], r["seats"]["0"])
        v = a.view_at_least(1)
        version = room_info(base, r["room"])["version"]
        a.close()
    with serve_in_thread(config) as base:
        info = room_info(base, r["room"])
        assert info["status"] in ("playing", "over") and info["version"] >= version >= v["version"]
