"""Issue 15: a step on an SQLite file is committed on the event loop when nothing waits (``Store.append_now``,
``Hub._write``). It must keep every promise of ``Store.append``: committed (seen by another connection)
before it returns, the room's next step only, all or nothing, and never a wait: a lock held elsewhere,
or a step count that moved on answer False with nothing written, and the waiting
path (the writer thread) then decides, in order after any write already on that thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from cosmodeck.server.config import ServerConfig
from cosmodeck.server.hub import SLOW_COMMIT_S, Hub
from cosmodeck.storage import Store
from cosmodeck.storage.errors import RoomLost
from cosmodeck.storage.repository import RoomRow, Step


def _room(store: Store, room_id: str = "r1") -> None:
    store.create_room(RoomRow(room_id, "toy", 2, 1, {}, {}, "playing", 0.0, 0.0, None, 0, {"host": 0}))


def _steps(db: Path, room_id: str = "r1") -> list[tuple[int, float, int | None, str | None]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT seq, at, seat, action FROM steps WHERE room_id = ? ORDER BY seq",
                           (room_id,)).fetchall()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'now.db'}?timeout=2")
    s.claim()
    _room(s)
    return s


def test_a_step_appended_now_is_committed_before_it_returns(store: Store, tmp_path: Path) -> None:
    assert store.append_now("r1", 0, Step(0.5, 0, "add 1"))
    assert _steps(tmp_path / "now.db") == [(0, 0.5, 0, "add 1")]  # another connection sees it at once
    assert store.append_now("r1", 1, Step(1.0, None, None), "over", {"winner": 0}, {"host": 1})
    row = store.room("r1")
    assert row is not None and row.status == "over" and row.result == {"winner": 0} and row.extras == {"host": 1}
    assert [s.to_json() for s in store.steps("r1")] == [[0.5, 0, "add 1"], [1.0, "advance"]]
    store.close()


def test_only_the_next_step_is_appended_now(store: Store, tmp_path: Path) -> None:
    assert store.append_now("r1", 0, Step(0.5, 0, "add 1"))
    assert not store.append_now("r1", 0, Step(0.6, 1, "add 2"))  # step 0 is stored: no overwrite
    assert not store.append_now("r1", 2, Step(0.6, 1, "add 2"))  # no gap
    assert _steps(tmp_path / "now.db") == [(0, 0.5, 0, "add 1")]
    with pytest.raises(RoomLost):  # the waiting path reports it
        store.append("r1", 2, Step(0.6, 1, "add 2"))
    store.close()


def test_a_write_lock_held_elsewhere_is_a_false_at_once_and_nothing_is_written(store: Store, tmp_path: Path) -> None:
    other = sqlite3.connect(tmp_path / "now.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    t0 = time.monotonic()
    assert not store.append_now("r1", 0, Step(0.5, 0, "add 1"))
    assert time.monotonic() - t0 < 1.0  # the URL's busy timeout is 2 s: not waited
    other.execute("ROLLBACK")
    other.close()
    assert _steps(tmp_path / "now.db") == []
    assert store.append_now("r1", 0, Step(0.5, 0, "add 1"))  # free again
    store.checkpoint()
    store.close()


def test_an_unclaimed_store_never_appends_now(tmp_path: Path) -> None:
    s = Store(f"sqlite:///{tmp_path / 'unclaimed.db'}")  # not claimed: no file lock, no fast path
    _room(s)
    assert not s.append_now("r1", 0, Step(0.5, 0, "add 1"))
    s.close()


def test_the_hub_appends_on_the_loop_only_when_the_writer_thread_is_idle(tmp_path: Path) -> None:
    """A step written while another write waits on the writer thread goes to the thread after it,
    never past it (each room's writes stay in order); with the thread idle it is committed at once."""
    db = tmp_path / "hub.db"

    async def main() -> None:
        cfg = ServerConfig(db=f"sqlite:///{db}?timeout=5")
        hub = Hub(cfg)
        try:
            await hub.db("create_room", RoomRow("r1", "toy", 2, 1, {}, {}, "playing", 0.0, 0.0, None, 0, {}))
            busy = threading.Event()
            hub.store.slow_write = lambda: busy.wait(10)  # type: ignore[attr-defined]  # a write taking long
            first = asyncio.ensure_future(hub.db("slow_write"))
            await asyncio.sleep(0.2)
            assert hub._pending == 1
            second = asyncio.ensure_future(hub._write("append", "r1", 0, Step(0.5, 0, "add 1")))
            await asyncio.sleep(0.2)
            assert not second.done() and _steps(db) == []  # queued behind the first, not committed past it
            busy.set()
            await asyncio.gather(first, second)
            assert _steps(db) == [(0, 0.5, 0, "add 1")]
            assert hub._appended_now == 0
            await hub._write("append", "r1", 1, Step(0.7, 1, "add 2"))
            assert hub._appended_now == 1 and len(_steps(db)) == 2
        finally:
            await hub.close()

    asyncio.run(main())


def test_a_slow_commit_on_the_loop_sends_the_next_steps_to_the_writer_thread(tmp_path: Path) -> None:
    """A disk that makes one commit slow must not hold up every room again: for a while, steps wait on
    the writer thread (the event loop stays free), then the loop commits again."""
    db = tmp_path / "slow.db"

    async def main() -> None:
        hub = Hub(ServerConfig(db=f"sqlite:///{db}"))
        try:
            await hub.db("create_room", RoomRow("r1", "toy", 2, 1, {}, {}, "playing", 0.0, 0.0, None, 0, {}))
            fast = hub.store.append_now

            def slow(*args: object) -> bool:
                time.sleep(SLOW_COMMIT_S * 2)
                return fast(*args)  # type: ignore[arg-type]

            hub.store.append_now = slow  # type: ignore[method-assign,assignment]
            await hub._write("append", "r1", 0, Step(0.5, 0, "add 1"))
            assert hub._appended_now == 1 and hub._now_off_until > time.monotonic()
            hub.store.append_now = fast  # type: ignore[method-assign]
            await hub._write("append", "r1", 1, Step(0.6, 1, "add 2"))
            assert hub._appended_now == 1 and len(_steps(db)) == 2  # written by the thread
            hub._now_off_until = 0.0  # the pause is over
            await hub._write("append", "r1", 2, Step(0.7, 0, "add 3"))
            assert hub._appended_now == 2 and len(_steps(db)) == 3
        finally:
            await hub.close()

    asyncio.run(main())
