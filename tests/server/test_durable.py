"""Issue 12 item 2: a step is all-or-nothing. A write that fails (an SQLite lock held past the busy
timeout) changes nothing, tells the mover ``storage_unavailable``, leaves no gap in the stored steps,
and the room goes on once the lock is gone, and after ``kill -9``. A database this server cannot
write, or that another server holds, is refused at start-up."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import cosmodeck
from cosmodeck.server.durable import MAX_DELAY_S, Backoff
from cosmodeck.storage import Store
from tests.server.util import ROOT, ServerProcess, Ws, create_room, free_port, room_info, server_env

BUSY_TIMEOUT_S = 0.3  # the server's SQLite busy timeout in these tests (the URL's ``timeout``)


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "durable.db"


@pytest.fixture
def proc(db_file: Path) -> Iterator[ServerProcess]:
    p = ServerProcess(f"sqlite:///{db_file}?timeout={BUSY_TIMEOUT_S}", grace=30.0)
    p.start()
    yield p
    p.stop()


def stored_seqs(db_file: Path, room: str) -> list[int]:
    with sqlite3.connect(db_file) as con:
        return [s for (s,) in con.execute("SELECT seq FROM steps WHERE room_id = ? ORDER BY seq", (room,))]


class WriteLock:
    """Another connection holding SQLite's write lock (as a slow writer or a backup tool would)."""

    def __init__(self, db_file: Path) -> None:
        self.con = sqlite3.connect(db_file, isolation_level=None, timeout=10)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.con.execute("ROLLBACK")
        self.con.close()


def test_a_move_refused_by_a_locked_database_changes_nothing_and_the_room_goes_on(
        proc: ServerProcess, db_file: Path) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 1000})
    room = r["room"]
    a = Ws(proc.base, room, r["seats"]["0"])
    b = Ws(proc.base, room, r["seats"]["1"])
    a.act("add 1", 0)
    before = a.view_at_least(1)
    b.view_at_least(1)
    lock = WriteLock(db_file)
    try:
        a.act("add 2")  # waits the busy timeout, then fails to store
        err = a.until(lambda m: m["type"] == "error", timeout=20)
        assert err["code"] == "storage_unavailable" and "nothing changed" in err["message"]
        assert room_info(proc.base, room)["version"] == 1
        b.drain(0.5)
        assert max(m["version"] for m in b.messages if m["type"] == "view") == 1  # nothing was broadcast
        assert a.view is not None and a.view["version"] == 1 and a.view["view"] == before["view"]
    finally:
        lock.release()
    a.act("add 2")  # the same move, retried: version 1 is still current
    assert b.view_at_least(2)["view"]["adds"] == [3, 0]
    assert stored_seqs(db_file, room) == [0, 1]

    proc.kill9()
    proc.start()
    assert room_info(proc.base, room)["version"] == 2
    a2 = Ws(proc.base, room, r["seats"]["0"])
    assert a2.view_at_least(2)["view"]["adds"] == [3, 0]
    a2.act("add 1")
    assert a2.view_at_least(3)["view"]["adds"] == [4, 0]
    assert stored_seqs(db_file, room) == [0, 1, 2]


def test_deadlines_due_while_the_database_is_locked_are_stored_later_without_a_gap(
        proc: ServerProcess, db_file: Path) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 0.8})
    room = r["room"]
    a = Ws(proc.base, room, r["seats"]["0"])
    b = Ws(proc.base, room, r["seats"]["1"])
    a.view_at_least(0)
    lock = WriteLock(db_file)
    try:
        # ticks at game time 0.8, 1.6 and 2.4 fall due and cannot be stored meanwhile
        a.drain(3.0)
        assert room_info(proc.base, room)["version"] == 0
        assert all(m["version"] == 0 for m in a.messages if m["type"] == "view")
    finally:
        lock.release()
    end = b.until(lambda m: m["type"] == "view" and m["view"]["over"], timeout=30)
    assert end["view"]["counter"] == 0
    seqs = stored_seqs(db_file, room)
    assert seqs == list(range(len(seqs))) and len(seqs) == end["version"]
    record = httpx.get(f"{proc.base}/api/rooms/{room}/record", timeout=10).json()
    assert cosmodeck.replay(record).view(1) == end["view"]


def test_the_retry_back_off_doubles_up_to_a_cap_and_resets_on_success() -> None:
    b = Backoff()
    assert b.not_before(100.0) == 100.0
    assert b.fail(0.0) is True
    delays = [b.delay]
    for _ in range(8):
        assert b.fail(0.0) is False
        delays.append(b.delay)
    assert delays[:5] == [0.25, 0.5, 1.0, 2.0, 4.0] and delays[-1] == MAX_DELAY_S
    assert b.not_before(1.0) == MAX_DELAY_S
    assert b.succeed() is True and b.not_before(1.0) == 1.0 and b.succeed() is False


def run_serve(db: str) -> subprocess.CompletedProcess[str]:
    cmd = ServerProcess(db, port=free_port()).command()
    return subprocess.run(cmd, cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=60, check=False)


def test_a_server_that_cannot_write_its_database_refuses_to_start(db_file: Path) -> None:
    Store(str(db_file)).close()  # an existing cosmodeck database (its tables exist), opened read-only below
    done = run_serve(f"sqlite:///file:{db_file}?mode=ro&uri=true")
    assert done.returncode != 0
    assert "cosmodeck serve: cannot write the database" in done.stderr and "readonly" in done.stderr


def test_a_second_server_on_the_same_sqlite_file_is_refused(proc: ServerProcess, db_file: Path) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 1000})
    done = run_serve(str(db_file))
    assert done.returncode != 0
    assert "another cosmodeck server is already using this database" in done.stderr
    assert room_info(proc.base, r["room"])["status"] == "waiting"  # the first one is unaffected
    proc.stop()
    second = ServerProcess(str(db_file))  # once the first has stopped, the file is free
    second.start()
    try:
        assert room_info(second.base, r["room"])["status"] == "waiting"
    finally:
        second.stop()


def test_a_start_that_cannot_be_stored_leaves_the_room_waiting_until_it_can(
        proc: ServerProcess, db_file: Path) -> None:
    r = create_room(proc.base, "toy", 2, options={"tick": 1000})
    room = r["room"]
    a = Ws(proc.base, room, r["seats"]["0"])
    a.view_at_least(0)
    lock = WriteLock(db_file)
    try:
        b = Ws(proc.base, room, r["seats"]["1"])  # the last player arrives: the start cannot be stored
        assert b.until(lambda m: m["type"] == "error", timeout=20)["code"] == "storage_unavailable"
        assert b.view is not None and b.view["status"] == "waiting"
        assert room_info(proc.base, room)["status"] == "waiting"
    finally:
        lock.release()
    # the scheduler retries the start after its back-off
    assert b.until(lambda m: m["type"] == "view" and m["status"] == "playing", timeout=20)["version"] == 0
    a.until(lambda m: m["type"] == "view" and m["status"] == "playing")
    with sqlite3.connect(db_file) as con:
        status, origin = con.execute("SELECT status, origin FROM rooms WHERE id = ?", (room,)).fetchone()
    assert status == "playing" and origin is not None


def test_a_room_whose_stored_steps_moved_on_is_reloaded_never_overwritten(server: str, db_path: str) -> None:
    """Another writer stored step 1 behind this server's back (as a commit acknowledged too late would):
    the server's next write at step 1 is refused by storage, the room is reloaded from the stored steps."""
    r = create_room(server, "toy", 2, options={"tick": 1000})
    room = r["room"]
    a = Ws(server, room, r["seats"]["0"])
    b = Ws(server, room, r["seats"]["1"])
    a.act("add 1", 0)
    a.view_at_least(1)
    with sqlite3.connect(db_path) as con:
        con.execute("INSERT INTO steps (room_id, seq, at, seat, action) VALUES (?, 1, 0.5, 1, 'add 2')", (room,))
    a.act("add 1")
    assert a.until(lambda m: m["type"] == "error")["code"] == "room_moved"
    assert a.closed_code() == 1012 and b.closed_code() == 1012
    a2 = Ws(server, room, r["seats"]["0"])
    v = a2.view_at_least(2)
    assert v["version"] == 2 and v["view"]["adds"] == [1, 2]
    with sqlite3.connect(db_path) as con:
        rows = con.execute("SELECT seq, seat, action FROM steps WHERE room_id = ? ORDER BY seq", (room,)).fetchall()
    assert rows == [(0, 0, "add 1"), (1, 1, "add 2")]
