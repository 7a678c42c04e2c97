"""Who may write which room.

- SQLite: one server process per database file. ``FileLock`` (py-filelock: an OS-level lock on
  ``<file>.lock``) is taken at start-up and held until the server stops; a second process cannot take it.
- PostgreSQL: servers may share a database, but each unfinished room is run by one of them. A
  session-level advisory lock per room (``pg_try_advisory_lock``) is held on one dedicated
  connection while the room is loaded. Every step written checks, in its own transaction, that this
  connection still holds the room's lock (see ``PgRoomLocks.fence``), so a server that lost it
  (a PostgreSQL restart ends every session) cannot write the room until it takes the lock again.

Leases (several processes on one database, docs/SERVER.md "Several server processes"): the lock
session is named ``cosmodeck <server id>`` and runs with ``idle_session_timeout`` = the lease, renewed
by the server every third of it. A process that dies (kill -9: its connection closes) or stops
renewing (hung, cut off) loses its session, so every lock it held is free at once or within the lease.
Rooms that are unfinished and whose lock nobody holds are *orphans* (``orphan_rooms``): another process
takes their locks and resumes them from the event log. The owner of a room is whoever holds its lock;
``owner_url`` finds that process's public URL (the ``servers`` table) for a redirect.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

from filelock import FileLock, Timeout
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from cosmodeck.storage.errors import RoomLost, StorageUnavailable, StoreRefused

log = logging.getLogger("cosmodeck.storage")
T = TypeVar("T")


def room_lock_key(room_id: str) -> int:
    """A signed 64-bit advisory-lock key for a room (namespaced so other applications do not collide)."""
    digest = hashlib.sha256(b"cosmodeck-room:" + room_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class SqliteFileLock:
    """The whole database file belongs to one process."""

    def __init__(self, db_file: str) -> None:
        self.path = str(Path(db_file).resolve()) + ".lock"
        self._lock = FileLock(self.path, timeout=0)

    def acquire(self) -> None:
        try:
            self._lock.acquire()
        except Timeout:
            raise StoreRefused(f"another cosmodeck server is already using this database (lock {self.path}); "
                               "run one server per SQLite file, or use PostgreSQL to run several") from None
        except OSError as e:
            raise StoreRefused(f"cannot create the lock file {self.path}: {e.strerror or e}") from None

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release()


def _serialised(method: Callable[..., T]) -> Callable[..., T]:
    """One thread at a time in the lock session's methods (a server's writer threads share it)."""
    @functools.wraps(method)
    def call(self: PgRoomLocks, *args: Any, **kwargs: Any) -> T:
        with self._mutex:
            return method(self, *args, **kwargs)
    return call


class PgRoomLocks:
    """Per-room advisory locks held on one dedicated PostgreSQL session (its methods: one thread at a time)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._conn: Any = None  # a raw DBAPI (psycopg) connection in autocommit mode
        self._pid: int | None = None
        self.held: set[str] = set()
        self.server_id = secrets.token_hex(8)
        self.url: str | None = None  # this process's public URL (redirects), set by ``advertise``
        self.lease_s = 10.0
        self._started = time.time()
        self._mutex = threading.RLock()

    @_serialised
    def advertise(self, url: str | None, lease_s: float) -> None:
        """Where clients reach this process, and its lease (applied to the lock session from now on)."""
        self.url = url
        self.lease_s = lease_s
        if self._conn is not None and not self._conn.closed:
            self._close()  # reopened with the new settings; nothing is held yet at start-up

    @_serialised
    def renew(self) -> None:
        """Renew the lease: any statement on the lock session restarts its idle timeout.

        If the session was lost (its locks with it), a new one is opened; the rooms it held are
        taken again or lost at their next write (``fence``)."""
        self._session()
        self._query("UPDATE servers SET beat = %s WHERE id = %s RETURNING 1", time.time(), self.server_id)

    def _session(self) -> Any:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        self._conn = self._pid = None
        try:
            proxied = self._engine.raw_connection()
            proxied.detach()  # this session lives outside the pool, as long as its locks
            conn: Any = proxied.dbapi_connection
        except SQLAlchemyError as e:
            raise StorageUnavailable(f"the database is unreachable: {db_reason(e)}") from None
        conn.autocommit = True
        self._conn = conn
        self._pid = int(self._query("SELECT pg_backend_pid()"))
        self._query("SELECT set_config('application_name', %s, false)", f"cosmodeck {self.server_id}")
        try:
            with conn.cursor() as cur:  # PostgreSQL 14+: a session idle longer than the lease is ended
                cur.execute(f"SET idle_session_timeout = {int(self.lease_s * 1000)}")
        except Exception as e:
            log.warning("no lease timeout on this PostgreSQL (%s): a hung server keeps its rooms until its "
                        "connection drops", str(e).strip().splitlines()[0])
        now = time.time()
        self._query("INSERT INTO servers (id, url, started, beat) VALUES (%s, %s, %s, %s) ON CONFLICT (id) "
                    "DO UPDATE SET url = EXCLUDED.url, beat = EXCLUDED.beat RETURNING 1",
                    self.server_id, self.url, self._started, now)
        return conn

    def _query(self, sql: str, *args: Any) -> Any:
        assert self._conn is not None
        try:
            with self._conn.cursor() as cur:
                cur.execute(sql, args)
                row = cur.fetchone()
                return None if row is None else row[0]
        except Exception as e:  # psycopg.Error: the session is gone
            self._close()
            raise StorageUnavailable(f"the database is unreachable: {e}") from None

    def _close(self) -> None:
        conn, self._conn, self._pid = self._conn, None, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # already broken
                log.debug("closing a broken lock session failed")

    @_serialised
    def try_take(self, room_id: str) -> bool:
        """Take the room's lock (True), or False if another server holds it."""
        if room_id in self.held and self._conn is not None and not self._conn.closed:
            return True
        self._session()
        got = bool(self._query("SELECT pg_try_advisory_lock(%s)", room_lock_key(room_id)))
        if got:
            self.held.add(room_id)
        else:
            self.held.discard(room_id)
        return got

    @_serialised
    def release(self, room_id: str) -> None:
        if room_id not in self.held:
            return
        self.held.discard(room_id)
        if self._conn is not None and not self._conn.closed:
            with suppress(StorageUnavailable):  # if the session is gone, its locks went with it
                self._query("SELECT pg_advisory_unlock(%s)", room_lock_key(room_id))

    @_serialised
    def holder_pid(self, room_id: str) -> int | None:
        """The lock session's backend pid if this process believes it holds ``room_id``'s lock (for a
        write that checks that belief in its own statement, ``Store.append``); else None."""
        if room_id not in self.held or self._conn is None or self._conn.closed:
            return None
        return self._pid

    def _holds(self, s: Session | Connection, room_id: str) -> bool:
        if self._pid is None:
            return False
        key = room_lock_key(room_id) & 0xFFFFFFFFFFFFFFFF
        found = s.execute(text(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = :pid"
            " AND classid = CAST(:hi AS oid) AND objid = CAST(:lo AS oid) AND objsubid = 1"),
            {"pid": self._pid, "hi": key >> 32, "lo": key & 0xFFFFFFFF}).first()
        return found is not None

    @_serialised
    def fence(self, s: Session | Connection, room_id: str) -> None:
        """Inside a write transaction: go on only while our lock session holds the room's lock.

        After a lost session (a database restart) the lock is taken again; if another server took
        it meanwhile, the room is lost to this server.
        """
        if self._holds(s, room_id):
            return
        self.held.discard(room_id)
        if self._pid is not None and s.execute(text("SELECT 1 FROM pg_stat_activity WHERE pid = :pid"),
                                               {"pid": self._pid}).first() is None:
            self._close()  # our lock session died (a database restart): open a new one
        if not self.try_take(room_id):
            raise RoomLost(f"room {room_id} is now run by another server")
        if not self._holds(s, room_id):
            raise StorageUnavailable("the room's lock could not be confirmed")

    @_serialised
    def owner_url(self, s: Session | Connection, room_id: str) -> str | None:
        """The public URL of the process that holds ``room_id``'s lock (None: nobody, or no URL)."""
        key = room_lock_key(room_id) & 0xFFFFFFFFFFFFFFFF
        row = s.execute(text(
            "SELECT sv.url FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " JOIN servers sv ON a.application_name = 'cosmodeck ' || sv.id"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid = CAST(:hi AS oid) AND l.objid = CAST(:lo AS oid)"),
            {"hi": key >> 32, "lo": key & 0xFFFFFFFF}).first()
        return None if row is None else row[0]

    @_serialised
    def close(self) -> None:
        self.held.clear()
        self._close()


# Unfinished rooms whose advisory lock (``room_lock_key``, computed in SQL) nobody holds.
ORPHANS_SQL = text("""
WITH c AS MATERIALIZED (
  SELECT id, ('x' || left(encode(sha256(convert_to('cosmodeck-room:' || id, 'UTF8')), 'hex'), 16))::bit(64)::bigint
         AS k
  FROM rooms WHERE status IN ('waiting', 'playing'))
SELECT c.id FROM c WHERE NOT EXISTS (
  SELECT 1 FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = ((c.k >> 32) & 4294967295)::oid AND l.objid = (c.k & 4294967295)::oid)
ORDER BY c.id""")


def db_reason(e: SQLAlchemyError) -> str:
    orig = getattr(e, "orig", None)
    return str(orig if orig is not None else e).strip().splitlines()[0]
