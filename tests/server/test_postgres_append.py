"""Issue 15: on PostgreSQL a step is stored by one statement (``Store._append_pg_once``: one round trip).

It must keep every promise of ``Store.append``: the room's next step only, only while this process's
lock session holds the room's lock, the status/result/extras only with the step, all or nothing; and
whenever it writes nothing, the transaction path decides (and raises ``RoomLost`` or stores the step)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from cosmodeck.storage import RoomRow, Step, Store
from cosmodeck.storage.errors import RoomLost
from cosmodeck.storage.ownership import room_lock_key
from cosmodeck.storage.repository import _PG_ONCE_START


def _row(room_id: str, status: str = "playing") -> RoomRow:
    return RoomRow(id=room_id, game="toy", players=2, seed=7, header={"game": "toy"}, seats={}, status=status,
                   origin=None if status == "waiting" else 0.0, created=0.0, result=None, steps=0,
                   extras={"host": 0})


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    s = Store(postgres_url)
    s.claim()
    s.create_room(_row("r1"))
    assert s.claim_room("r1")
    yield s
    s.close()


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _stored(url: str, room_id: str = "r1") -> dict[str, Any]:
    with psycopg.connect(_plain(url)) as con:
        steps = con.execute("SELECT seq, at, seat, action FROM steps WHERE room_id = %s ORDER BY seq",
                            (room_id,)).fetchall()
        status, result = con.execute("SELECT status, result FROM rooms WHERE id = %s", (room_id,)).fetchone() or (
            None, None)
        extra = con.execute("SELECT data FROM room_extras WHERE room_id = %s", (room_id,)).fetchone()
        origin = con.execute("SELECT origin FROM rooms WHERE id = %s", (room_id,)).fetchone()
    return {"steps": steps, "status": status, "result": result, "origin": None if origin is None else origin[0],
            "extras": None if extra is None else json.loads(extra[0])}


class _NoTransactions:
    """Stands in for ``Store._core_tx``: the test fails if the transaction path is used."""

    def __call__(self) -> Any:
        raise AssertionError("the transaction path was used")


def test_a_held_room_s_steps_are_one_statement_each(store: Store, postgres_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_room(_row("w1", "waiting"))
    assert store.claim_room("w1")
    monkeypatch.setattr(store, "_core_tx", _NoTransactions())
    store.start("w1", 1234.5)
    got = _stored(postgres_url, "w1")
    assert got["status"] == "playing" and got["origin"] == 1234.5
    store.append("r1", 0, Step(0.5, 0, "add 1"))
    store.append("r1", 1, Step(0.75, 1, "add 2"), extras={"host": 1})
    store.append("r1", 2, Step(1.0, None, None), status="over", result={"winners": [1]}, extras={"host": 0})
    got = _stored(postgres_url)
    assert got["steps"] == [(0, 0.5, 0, "add 1"), (1, 0.75, 1, "add 2"), (2, 1.0, None, None)]
    assert got["status"] == "over" and json.loads(got["result"]) == {"winners": [1]}
    assert got["extras"] == {"host": 0}


def test_a_step_out_of_order_writes_nothing_and_the_room_is_lost(store: Store, postgres_url: str) -> None:
    store.append("r1", 0, Step(0.5, 0, "add 1"))
    assert not store._append_pg_once("r1", 0, Step(0.6, 1, "add 2"), "over", {"winners": [0]}, {"host": 1})
    assert not store._append_pg_once("r1", 2, Step(0.6, 1, "add 2"), "over", None, None)
    with pytest.raises(RoomLost):
        store.append("r1", 2, Step(0.6, 1, "add 2"), status="over", result={"winners": [0]}, extras={"host": 1})
    got = _stored(postgres_url)
    assert got["steps"] == [(0, 0.5, 0, "add 1")]
    assert got["status"] == "playing" and got["result"] is None and got["extras"] == {"host": 0}


def test_the_fence_is_in_the_statement(store: Store, postgres_url: str) -> None:
    """This process still believes it holds the room (``held``), but its lock session lost the lock and
    another session took it: the one statement writes nothing, and ``append`` (``start``) says the room
    is lost."""
    assert store.locks is not None
    key = room_lock_key("r1")
    store.locks._query("SELECT pg_advisory_unlock(%s)", key)  # lost behind the process's back
    with psycopg.connect(_plain(postgres_url), autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() == (True,)
        assert store.locks.holder_pid("r1") is not None  # the belief the statement must not trust
        assert not store._append_pg_once("r1", 0, Step(0.5, 0, "add 1"), None, None, None)
        with pytest.raises(RoomLost):
            store.append("r1", 0, Step(0.5, 0, "add 1"))
        assert _stored(postgres_url)["steps"] == []
    store.create_room(_row("w1", "waiting"))
    assert store.claim_room("w1")
    key = room_lock_key("w1")
    store.locks._query("SELECT pg_advisory_unlock(%s)", key)
    with psycopg.connect(_plain(postgres_url), autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone() == (True,)
        assert not store._pg_once_fenced("w1", _PG_ONCE_START, {"o": 5.0})
        with pytest.raises(RoomLost):
            store.start("w1", 5.0)
        got = _stored(postgres_url, "w1")
        assert got["status"] == "waiting" and got["origin"] is None


def test_a_room_not_held_goes_through_the_transaction(store: Store, postgres_url: str) -> None:
    """A room this process has not claimed: no one-statement attempt; the transaction's fence takes the lock."""
    store.create_room(_row("r2"))
    assert store.locks is not None and store.locks.holder_pid("r2") is None
    assert not store._append_pg_once("r2", 0, Step(0.5, 0, "add 1"), None, None, None)
    store.append("r2", 0, Step(0.5, 0, "add 1"))
    assert _stored(postgres_url, "r2")["steps"] == [(0, 0.5, 0, "add 1")]
    assert store.locks.holder_pid("r2") is not None


def test_a_broken_connection_falls_back_to_the_transaction(store: Store, postgres_url: str) -> None:
    store.append("r1", 0, Step(0.5, 0, "add 1"))
    assert store._pg_once is not None
    store._pg_once.close()  # e.g. the database restarted
    store.append("r1", 1, Step(0.75, 1, "add 2"))
    store.append("r1", 2, Step(1.0, 0, "add 3"))  # a new one-statement connection
    assert [s[0] for s in _stored(postgres_url)["steps"]] == [0, 1, 2]


def test_the_scan_for_orphan_rooms_does_not_wait_behind_the_steps(postgres_url: str) -> None:
    """The periodic scan (a read over every unfinished room of the database) runs on a thread of its own:
    a write stuck on the writer thread does not hold it up, and it still finds a room nobody runs."""
    import asyncio
    import threading

    from cosmodeck.server import ServerConfig
    from cosmodeck.server.hub import Hub

    other = Store(postgres_url)
    other.create_room(_row("o1"))  # unfinished, and nobody holds its lock
    other.close()

    async def main() -> list[str]:
        hub = Hub(ServerConfig(db=postgres_url))
        release = threading.Event()
        stuck = asyncio.get_running_loop().run_in_executor(hub._writer, release.wait, 30)
        seen: list[str] = []
        real = hub.store.orphan_rooms

        def scan() -> list[str]:
            seen.extend(real())
            return []  # found, not resumed: resuming would queue on the stuck writer thread

        hub.store.orphan_rooms = scan  # type: ignore[method-assign]
        try:
            await asyncio.wait_for(hub.resume_orphans(), 10)
        finally:
            release.set()
            await stuck
            await hub.close()
        return seen

    assert asyncio.run(main()) == ["o1"]


def test_a_room_is_created_by_one_statement_and_a_duplicate_changes_nothing(store: Store, postgres_url: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from cosmodeck.storage.errors import StorageUnavailable

    with monkeypatch.context() as m:
        m.setattr(store, "_core_tx", _NoTransactions())
        m.setattr(store, "_read", _NoTransactions())
        store.create_room(_row("c1", "waiting"))
        store.create_room(RoomRow(id="c2", game="toy", players=2, seed=7, header={}, seats={}, status="waiting",
                                  origin=None, created=0.0, result=None, steps=0))  # no extras
        assert store.room_exists("c1") and store.room_exists("c2") and not store.room_exists("c3")
    assert _stored(postgres_url, "c1")["extras"] == {"host": 0}
    assert _stored(postgres_url, "c2")["extras"] is None
    dup = RoomRow(id="c1", game="other", players=3, seed=8, header={}, seats={}, status="playing", origin=1.0,
                  created=1.0, result=None, steps=0, extras={"host": 2})
    with pytest.raises(StorageUnavailable):
        store.create_room(dup)
    got = store.room("c1")
    assert got is not None and got.game == "toy" and got.status == "waiting" and got.extras == {"host": 0}


def test_servers_started_together_on_a_new_database_all_start(postgres_admin: str) -> None:
    """Several stores opened at once on an empty database: one creates the tables (under an advisory
    lock), the others wait for it, instead of failing on PostgreSQL's catalogue (a duplicate type name)."""
    import threading

    from tests.pg import fresh_database

    def open_store(url: str, start: threading.Barrier, stores: list[Store], errors: list[BaseException]) -> None:
        start.wait()
        try:
            stores.append(Store(url))
        except BaseException as e:
            errors.append(e)

    for _ in range(3):
        url = fresh_database(postgres_admin)
        start = threading.Barrier(6)
        errors: list[BaseException] = []
        stores: list[Store] = []
        threads = [threading.Thread(target=open_store, args=(url, start, stores, errors)) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for s in stores:
            s.close()
        assert errors == [] and len(stores) == 6


def test_on_postgresql_rooms_are_written_on_several_threads_each_room_on_one(postgres_url: str) -> None:
    """A room's calls always go to the same writer thread (its writes stay in order); a call stuck on one
    writer thread does not hold up the rooms of the others."""
    import asyncio
    import threading

    from cosmodeck.server import ServerConfig
    from cosmodeck.server.hub import PG_WRITERS, Hub

    async def main() -> None:
        hub = Hub(ServerConfig(db=postgres_url))
        assert len(hub._writers) == PG_WRITERS > 1
        ids = [f"room{i:04d}" for i in range(200)]
        assert all(hub._writer_for((i,)) is hub._writer_for((_row(i),)) is hub._writer_for((i, 0)) for i in ids)
        stuck_id = ids[0]
        free_id = next(i for i in ids if hub._writer_for((i,)) is not hub._writer_for((stuck_id,)))
        release = threading.Event()
        stuck = asyncio.get_running_loop().run_in_executor(hub._writer_for((stuck_id,)), release.wait, 30)
        try:
            await asyncio.wait_for(hub.db("create_room", _row(free_id)), 10)
            assert await asyncio.wait_for(hub.db("claim_room", free_id), 10)
            await asyncio.wait_for(hub.db("append", free_id, 0, Step(0.5, 0, "add 1")), 10)
            assert not stuck.done()
        finally:
            release.set()
            await stuck
            await hub.close()

    asyncio.run(main())
