"""The room repository: create rooms, append steps as they are accepted, load them back.

Every call is one short transaction, committed before it returns, so a step that the
server has acknowledged survives ``kill -9``. Calls are synchronous; the server runs them
on one writer thread, which also keeps each room's steps in order.

A write that fails raises ``StorageUnavailable`` and stores nothing. A step is stored only as the
next one of its room (no gap, no overwrite) and, on PostgreSQL, only while this server holds the
room's lock (``ownership``); otherwise ``RoomLost``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import create_engine, event, func, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import PoolProxiedConnection

from cosmodeck.storage.errors import RoomLost, StorageUnavailable, StoreRefused
from cosmodeck.storage.models import Base, ExtraModel, MetaModel, RoomModel, StepModel
from cosmodeck.storage.ownership import ORPHANS_SQL, PgRoomLocks, SqliteFileLock, db_reason, room_lock_key

DEFAULT_DB = "sqlite:///cosmodeck.db"
SCHEMA_LOCK_KEY = room_lock_key("")  # PostgreSQL: the advisory lock held while the tables are created


def default_url(db: str | None) -> str:
    """``None`` -> the SQLite file ``./cosmodeck.db``; a bare path -> an SQLite file there."""
    if not db:
        return DEFAULT_DB
    if "://" not in db:
        return f"sqlite:///{db}"
    for prefix in ("postgresql://", "postgres://"):
        if db.startswith(prefix):  # psycopg 3 is the driver we ship
            return "postgresql+psycopg://" + db[len(prefix):]
    return db


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted step at game time ``at``: an action of ``seat``, or an advance (``seat`` None)."""

    at: float
    seat: int | None
    action: str | None

    def to_json(self) -> list[Any]:
        return [self.at, "advance"] if self.seat is None else [self.at, self.seat, self.action]


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    game: str
    players: int
    seed: int
    header: dict[str, Any]
    seats: dict[str, dict[str, str]]  # {"0": {"token_sha256": hex} | {"bot": spec}} (old rows: {"token": ...})
    status: str
    origin: float | None
    created: float
    result: dict[str, Any] | None
    steps: int
    extras: dict[str, Any] = field(default_factory=dict)  # host, idle seats, votes, rematch (room_extras)


class Store:
    """Rooms and their steps in one SQL database (SQLite file or PostgreSQL)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = default_url(url)
        kwargs: dict[str, Any] = {}
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True  # after a database restart, pooled connections are replaced
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except SQLAlchemyError as e:  # an unknown driver or a malformed URL
            raise StoreRefused(f"cannot use the database URL: {db_reason(e)}") from None
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._file_lock: SqliteFileLock | None = None
        self._now: PoolProxiedConnection | None = None  # SQLite file: append_now's connection, kept checked out
        # PostgreSQL: the one-statement writes' connections (psycopg, autocommit), one per calling thread
        self._pg_local = threading.local()
        self._pg_conns: set[Any] = set()
        self._pg_conns_lock = threading.Lock()
        self.locks: PgRoomLocks | None = None if self.sqlite else PgRoomLocks(self.engine)
        try:
            if self.sqlite:
                Base.metadata.create_all(self.engine)
            else:  # servers started together on a new database: one creates the tables, the others wait
                with self.engine.begin() as c:
                    c.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK_KEY})
                    Base.metadata.create_all(c)
        except SQLAlchemyError as e:
            self.engine.dispose()
            raise StoreRefused(f"cannot open the database {self.safe_url}: {db_reason(e)}") from None
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        return self.engine.url.render_as_string(hide_password=True)

    def claim(self) -> None:
        """Make this process the database's server: SQLite's file lock, then a real write.

        Raises ``StoreRefused`` with a clear reason when another process holds the file or the
        database cannot be written (a read-only file or directory, a read-only PostgreSQL role).
        """
        db_file = self.engine.url.database if self.sqlite else None
        if db_file and db_file.startswith("file:"):  # an SQLite URI filename (?uri=true)
            db_file = db_file[len("file:"):].split("?", 1)[0]
        if db_file and db_file != ":memory:" and self._file_lock is None:
            lock = SqliteFileLock(db_file)
            lock.acquire()
            self._file_lock = lock
        try:
            with self._tx() as s:
                s.merge(MetaModel(key="last_start", value=repr(time.time())))
        except StorageUnavailable as e:
            self.close()
            raise StoreRefused(f"cannot write the database {self.safe_url}: {e.message}") from None

    def close(self) -> None:
        if self.locks is not None:
            self.locks.close()
        if self._now is not None:
            self._now.invalidate()  # closed, never back in the pool (its busy timeout is zero)
            self._now = None
        self._close_pg_once(every=True)
        self.engine.dispose()
        if self._file_lock is not None:
            self._file_lock.release()
            self._file_lock = None

    @contextmanager
    def _read(self) -> Iterator[Session]:
        try:
            with self._session() as s:
                yield s
        except SQLAlchemyError as e:
            raise StorageUnavailable(f"the database could not be read: {db_reason(e)}") from None

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        try:
            with self._session() as s, s.begin():
                yield s
        except SQLAlchemyError as e:
            raise StorageUnavailable(f"the database did not take the write: {db_reason(e)}") from None

    @contextmanager
    def _core_tx(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as c:
                yield c
        except SQLAlchemyError as e:
            raise StorageUnavailable(f"the database did not take the write: {db_reason(e)}") from None

    # ---- room ownership (PostgreSQL; one SQLite file has one server) -------------------------
    def claim_room(self, room_id: str) -> bool:
        """Take the right to run ``room_id`` (False: another server runs it)."""
        return True if self.locks is None else self.locks.try_take(room_id)

    def release_room(self, room_id: str) -> None:
        if self.locks is not None:
            self.locks.release(room_id)

    @property
    def shared(self) -> bool:
        """Several servers may share this database (PostgreSQL); an SQLite file has one."""
        return self.locks is not None

    def advertise(self, url: str | None, lease_s: float) -> None:
        """PostgreSQL: this process's public URL (for redirects) and its lease."""
        if self.locks is not None:
            self.locks.advertise(url, lease_s)

    def renew_lease(self) -> None:
        if self.locks is not None:
            self.locks.renew()

    def owner_url(self, room_id: str) -> str | None:
        """PostgreSQL: the public URL of the process that runs ``room_id`` (None: none, or it has no URL)."""
        if self.locks is None:
            return None
        with self._read() as s:
            return self.locks.owner_url(s, room_id)

    def orphan_rooms(self) -> list[str]:
        """PostgreSQL: unfinished rooms no process runs (their process died or stopped), to resume."""
        if self.locks is None:
            return []
        with self._read() as s:
            return [str(r[0]) for r in s.execute(ORPHANS_SQL).all()]

    # ---- writes ------------------------------------------------------------------------
    def create_room(self, room: RoomRow) -> None:
        values = {"id": room.id, "game": room.game, "players": room.players, "seed": room.seed,
                  "header": json.dumps(room.header), "seats": json.dumps(room.seats), "status": room.status,
                  "origin": room.origin, "created": room.created,
                  "result": None if room.result is None else json.dumps(room.result)}
        if self.locks is not None:  # PostgreSQL: the room and its extras in one statement first
            sql = _PG_CREATE_EXTRAS if room.extras else _PG_CREATE
            done, row = self._pg_once_run(sql, {**values, "d": json.dumps(room.extras)})
            if done and row is not None and row[0] == 1:
                return
        with self._core_tx() as c:  # plain SQL: rooms are created in bursts (e.g. many games ending at once)
            c.execute(_INSERT_ROOM, values)
            if room.extras:
                c.execute(_INSERT_EXTRAS, {"r": room.id, "d": json.dumps(room.extras)})

    def room_exists(self, room_id: str) -> bool:
        if self.locks is not None:
            done, row = self._pg_once_run(_PG_ROOM_EXISTS, {"r": room_id})
            if done:
                return row is not None
        with self._read() as s:
            return s.execute(_ROOM_EXISTS, {"r": room_id}).first() is not None

    def set_extras(self, room_id: str, extras: dict[str, Any]) -> None:
        """Replace a room's extras (idle seats, votes, rematch): one write, all or nothing."""
        with self._tx() as s:
            if self.locks is not None:
                self.locks.fence(s, room_id)
            s.merge(ExtraModel(room_id=room_id, data=json.dumps(extras)))

    def append(self, room_id: str, seq: int, step: Step, status: str | None = None,
               result: dict[str, Any] | None = None, extras: dict[str, Any] | None = None) -> None:
        """Append step number ``seq`` (0-based); optionally update the status (and result) and the
        room's extras too, in the same transaction.

        Only as the room's next step: if the stored steps are not exactly ``seq``, nothing is
        written and ``RoomLost`` says the caller's copy of the room is out of date.

        The hottest write of a server (one per accepted step): plain SQL statements on one
        connection, without the ORM's unit of work. On PostgreSQL it is first tried as one statement
        (``_append_pg_once``: one round trip instead of six); anything short of that statement
        writing the step falls through to the transaction below, which decides and reports.
        """
        if self.locks is not None and self._append_pg_once(room_id, seq, step, status, result, extras):
            return
        with self._core_tx() as c:
            if self.locks is not None:
                self.locks.fence(c, room_id)
            stored = c.execute(_COUNT_STEPS, {"r": room_id}).scalar() or 0
            if stored != seq:
                raise RoomLost(f"room {room_id} has {stored} stored steps, not {seq}: reload it")
            c.execute(_INSERT_STEP, {"r": room_id, "q": seq, "at": step.at, "seat": step.seat, "a": step.action})
            if status is not None:
                values: dict[str, Any] = {"status": status}
                if result is not None:
                    values["result"] = json.dumps(result)
                c.execute(update(RoomModel).where(RoomModel.id == room_id).values(**values))
            if extras is not None:
                data = json.dumps(extras)
                if c.execute(_UPDATE_EXTRAS, {"r": room_id, "d": data}).rowcount == 0:
                    c.execute(_INSERT_EXTRAS, {"r": room_id, "d": data})

    def _append_pg_once(self, room_id: str, seq: int, step: Step, status: str | None,
                        result: dict[str, Any] | None, extras: dict[str, Any] | None) -> bool:
        """PostgreSQL: ``append`` as one statement in autocommit (so one round trip, all or nothing):
        the step is inserted only if, at that statement, this process's lock session holds the room's
        advisory lock (the fence) and the room has exactly ``seq`` stored steps; the status, result and
        extras only with it. True: committed. False: nothing was written (the lock is not known to be
        held, the fence or the count said no, or any error): ``append``'s transaction then decides.
        """
        args: dict[str, Any] = {"q": seq, "at": step.at, "seat": step.seat, "a": step.action}
        sql = _PG_ONCE_HEAD
        if status is not None:
            args["status"] = status
            if result is not None:
                args["result"] = json.dumps(result)
                sql += _PG_ONCE_STATUS_RESULT
            else:
                sql += _PG_ONCE_STATUS
        if extras is not None:
            args["d"] = json.dumps(extras)
            sql += _PG_ONCE_EXTRAS
        return self._pg_once_fenced(room_id, sql + _PG_ONCE_TAIL, args)

    def _pg_once_fenced(self, room_id: str, sql: str, args: dict[str, Any]) -> bool:
        """Run ``sql`` (one statement that checks the fence itself: parameters ``pid``, ``hi``, ``lo``,
        ``r`` are added here) in autocommit on this store's own connection. True if its one row says 1
        (it wrote); False if it wrote nothing, the room's lock is not known to be held, or on any error."""
        assert self.locks is not None
        pid = self.locks.holder_pid(room_id)
        if pid is None:
            return False
        key = room_lock_key(room_id) & 0xFFFFFFFFFFFFFFFF
        done, row = self._pg_once_run(sql, {**args, "pid": pid, "hi": key >> 32, "lo": key & 0xFFFFFFFF,
                                             "r": room_id})
        return done and row is not None and row[0] == 1

    def _pg_once_run(self, sql: str, args: dict[str, Any]) -> tuple[bool, Any]:
        """PostgreSQL: one statement in autocommit on this store's own connection (no pool check-out, no
        ping, no BEGIN/COMMIT: one round trip). (True, its first row or None), or (False, None) on any
        error (the connection is then closed; the caller's transaction path reports the error)."""
        try:
            conn = self._pg_once
            if conn is None or conn.closed:
                proxied = self.engine.raw_connection()
                proxied.detach()  # kept by this store, outside the pool
                conn = cast(Any, proxied.dbapi_connection)
                conn.autocommit = True
                self._pg_local.conn = conn
                with self._pg_conns_lock:
                    self._pg_conns.add(conn)
            with conn.cursor() as cur:
                cur.execute(sql, args)
                return True, cur.fetchone()
        except Exception:  # psycopg.Error, a broken connection
            self._close_pg_once()
            return False, None

    @property
    def _pg_once(self) -> Any:
        """This thread's one-statement connection (None before the first)."""
        return getattr(self._pg_local, "conn", None)

    def _close_pg_once(self, every: bool = False) -> None:
        """Close this thread's one-statement connection (``every``: every thread's, when the store closes)."""
        with self._pg_conns_lock:
            conns = list(self._pg_conns) if every else [c for c in [self._pg_once] if c is not None]
            self._pg_conns.difference_update(conns)
        self._pg_local.conn = None
        for conn in conns:
            with suppress(Exception):
                conn.close()

    def append_now(self, room_id: str, seq: int, step: Step, status: str | None = None,
                   result: dict[str, Any] | None = None, extras: dict[str, Any] | None = None) -> bool:
        """``append`` at once if it needs no waiting: True if step ``seq`` is committed; False if nothing
        was written (call ``append``, which waits for the database and reports every failure).

        An SQLite file only (one server per file): one connection of the caller's, a busy timeout of
        zero (a write lock held elsewhere is a False, never a wait) and no automatic WAL checkpoint
        (its fsync could take long; ``checkpoint`` does it on the writer thread). The same commit as
        ``append``: in the WAL before this returns. Any error (locked, read-only, full disk, a stored
        step count other than ``seq``) rolls back and answers False; ``append`` then gives the error.
        The caller must not run this while a write of its own may be running on another thread.
        """
        if not self.sqlite or self._file_lock is None:
            return False
        try:
            if self._now is None:
                self._now = self.engine.raw_connection()
                setup = cast(sqlite3.Connection, self._now.driver_connection)
                setup.execute("PRAGMA busy_timeout = 0")
                setup.execute("PRAGMA wal_autocheckpoint = 0")
            con = cast(sqlite3.Connection, self._now.driver_connection)
            try:
                con.execute("BEGIN IMMEDIATE")
                if (con.execute(_COUNT_STEPS_SQL, (room_id,)).fetchone()[0] or 0) != seq:
                    con.rollback()
                    return False
                con.execute(_INSERT_STEP_SQL, (room_id, seq, step.at, step.seat, step.action))
                if status is not None:
                    if result is not None:
                        con.execute(_STATUS_RESULT_SQL, (status, json.dumps(result), room_id))
                    else:
                        con.execute(_STATUS_SQL, (status, room_id))
                if extras is not None:
                    data = json.dumps(extras)
                    if con.execute(_UPDATE_EXTRAS_SQL, (data, room_id)).rowcount == 0:
                        con.execute(_INSERT_EXTRAS_SQL, (room_id, data))
                con.commit()
            except BaseException:
                if con.in_transaction:
                    con.rollback()
                raise
        except Exception:  # sqlite3.Error, or anything else: the waiting path decides and reports
            return False
        return True

    def checkpoint(self) -> None:
        """Copy the WAL back into the database file (SQLite; ``append_now`` leaves this to the writer thread)."""
        if not self.sqlite:
            return
        with self._core_tx() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def start(self, room_id: str, origin: float) -> None:
        # PostgreSQL: one statement under the fence first (see ``append``), else the transaction decides
        if self.locks is not None and self._pg_once_fenced(room_id, _PG_ONCE_START, {"o": origin}):
            return
        with self._core_tx() as c:
            if self.locks is not None:
                self.locks.fence(c, room_id)
            c.execute(_START_ROOM, {"r": room_id, "o": origin})

    def set_seats(self, room_id: str, seats: dict[str, dict[str, str]]) -> None:
        """Rewrite a room's seats (used once to replace the plain tokens of rooms stored by old versions)."""
        with self._tx() as s:
            s.execute(update(RoomModel).where(RoomModel.id == room_id).values(seats=json.dumps(seats)))

    def expire(self, room_id: str) -> None:
        """A waiting room nobody started in time: never resumed again (its row stays, status ``expired``)."""
        with self._tx() as s:
            s.execute(update(RoomModel).where(RoomModel.id == room_id, RoomModel.status == "waiting")
                      .values(status="expired"))

    # ---- reads -------------------------------------------------------------------------
    def _row(self, s: Session, m: RoomModel) -> RoomRow:
        n = s.scalar(select(func.count()).select_from(StepModel).where(StepModel.room_id == m.id)) or 0
        extra = s.get(ExtraModel, m.id)
        return RoomRow(
            id=m.id, game=m.game, players=m.players, seed=m.seed, header=json.loads(m.header),
            seats=json.loads(m.seats), status=m.status, origin=m.origin, created=m.created,
            result=None if m.result is None else json.loads(m.result), steps=int(n),
            extras={} if extra is None else json.loads(extra.data),
        )

    def room(self, room_id: str) -> RoomRow | None:
        with self._read() as s:
            m = s.get(RoomModel, room_id)
            return None if m is None else self._row(s, m)

    def steps(self, room_id: str) -> list[Step]:
        with self._read() as s:
            rows = s.execute(
                select(StepModel.at, StepModel.seat, StepModel.action)
                .where(StepModel.room_id == room_id).order_by(StepModel.seq)
            ).all()
            return [Step(float(at), seat, action) for at, seat, action in rows]

    def unfinished(self) -> list[RoomRow]:
        """Every room waiting or playing, oldest first (resumed on start-up; finished and expired rooms are not)."""
        with self._read() as s:
            ms = s.scalars(select(RoomModel).where(RoomModel.status.in_(("waiting", "playing")))
                           .order_by(RoomModel.created)).all()
            return [self._row(s, m) for m in ms]

    def recent(self, limit: int = 20, status: str | None = None) -> list[RoomRow]:
        with self._read() as s:
            q = select(RoomModel).order_by(RoomModel.created.desc()).limit(limit)
            if status is not None:
                q = q.where(RoomModel.status == status)
            return [self._row(s, m) for m in s.scalars(q).all()]


_INSERT_ROOM = text("INSERT INTO rooms (id, game, players, seed, header, seats, status, origin, created, result) "
                    "VALUES (:id, :game, :players, :seed, :header, :seats, :status, :origin, :created, :result)")
_ROOM_EXISTS = text("SELECT 1 FROM rooms WHERE id = :r")
_START_ROOM = text("UPDATE rooms SET status = 'playing', origin = :o WHERE id = :r")
_COUNT_STEPS = text("SELECT count(*) FROM steps WHERE room_id = :r")
_INSERT_STEP = text("INSERT INTO steps (room_id, seq, at, seat, action) VALUES (:r, :q, :at, :seat, :a)")
_UPDATE_EXTRAS = text("UPDATE room_extras SET data = :d WHERE room_id = :r")
_INSERT_EXTRAS = text("INSERT INTO room_extras (room_id, data) VALUES (:r, :d)")
# Store._append_pg_once: the step inserted only under the fence (our lock session holds the room's
# lock) and as the room's next step; the other changes only if the step was inserted. One statement.
_PG_FENCE = """EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = %(pid)s
                         AND classid = CAST(%(hi)s AS oid) AND objid = CAST(%(lo)s AS oid) AND objsubid = 1)"""
_PG_ONCE_HEAD = """WITH ok AS (
  SELECT 1 WHERE """ + _PG_FENCE + """
             AND (SELECT count(*) FROM steps WHERE room_id = %(r)s) = %(q)s),
ins AS (INSERT INTO steps (room_id, seq, at, seat, action)
        SELECT %(r)s, %(q)s, %(at)s, %(seat)s, %(a)s FROM ok RETURNING 1)"""
_PG_ONCE_STATUS = """,
st AS (UPDATE rooms SET status = %(status)s WHERE id = %(r)s AND EXISTS (SELECT 1 FROM ins) RETURNING 1)"""
_PG_ONCE_STATUS_RESULT = """,
st AS (UPDATE rooms SET status = %(status)s, result = %(result)s WHERE id = %(r)s AND EXISTS (SELECT 1 FROM ins)
       RETURNING 1)"""
_PG_ONCE_EXTRAS = """,
ex AS (INSERT INTO room_extras (room_id, data) SELECT %(r)s, %(d)s FROM ins
       ON CONFLICT (room_id) DO UPDATE SET data = EXCLUDED.data RETURNING 1)"""
_PG_ONCE_TAIL = """
SELECT count(*) FROM ins"""
_PG_ONCE_START = """WITH st AS (UPDATE rooms SET status = 'playing', origin = %(o)s
            WHERE id = %(r)s AND """ + _PG_FENCE + """ RETURNING 1)
SELECT count(*) FROM st"""
_PG_CREATE_ROOM = """INSERT INTO rooms (id, game, players, seed, header, seats, status, origin, created, result)
  VALUES (%(id)s, %(game)s, %(players)s, %(seed)s, %(header)s, %(seats)s, %(status)s, %(origin)s, %(created)s,
          %(result)s) RETURNING id"""
_PG_CREATE = "WITH r AS (" + _PG_CREATE_ROOM + ") SELECT count(*) FROM r"
_PG_CREATE_EXTRAS = ("WITH r AS (" + _PG_CREATE_ROOM + "),\n"
                     "e AS (INSERT INTO room_extras (room_id, data) SELECT id, %(d)s FROM r RETURNING 1)\n"
                     "SELECT count(*) FROM r")
_PG_ROOM_EXISTS = "SELECT 1 FROM rooms WHERE id = %(r)s"
# the same statements for sqlite3 itself (Store.append_now)
_COUNT_STEPS_SQL = "SELECT count(*) FROM steps WHERE room_id = ?"
_INSERT_STEP_SQL = "INSERT INTO steps (room_id, seq, at, seat, action) VALUES (?, ?, ?, ?, ?)"
_STATUS_SQL = "UPDATE rooms SET status = ? WHERE id = ?"
_STATUS_RESULT_SQL = "UPDATE rooms SET status = ?, result = ? WHERE id = ?"
_UPDATE_EXTRAS_SQL = "UPDATE room_extras SET data = ? WHERE room_id = ?"
_INSERT_EXTRAS_SQL = "INSERT INTO room_extras (room_id, data) VALUES (?, ?)"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: a committed step is in the log file before the call returns, so kill -9 keeps it.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
