"""The room repository: create rooms, append steps as they are accepted, load them back.

Every call is one short transaction, committed before it returns, so a step that the
server has acknowledged survives ``kill -9``. Calls are synchronous; the server runs them
on one writer thread, which also keeps each room's steps in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import create_engine, event, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from cosmodeck.storage.models import Base, RoomModel, StepModel

DEFAULT_DB = "sqlite:///cosmodeck.db"


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
    seats: dict[str, dict[str, str]]
    status: str
    origin: float | None
    created: float
    result: dict[str, Any] | None
    steps: int


class Store:
    """Rooms and their steps in one SQL database (SQLite file or PostgreSQL)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = default_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._session() as s, s.begin():
            yield s

    # ---- writes ------------------------------------------------------------------------
    def create_room(self, room: RoomRow) -> None:
        with self._tx() as s:
            s.add(RoomModel(
                id=room.id, game=room.game, players=room.players, seed=room.seed,
                header=json.dumps(room.header), seats=json.dumps(room.seats), status=room.status,
                origin=room.origin, created=room.created,
                result=None if room.result is None else json.dumps(room.result),
            ))

    def append(self, room_id: str, seq: int, step: Step, status: str | None = None,
               result: dict[str, Any] | None = None) -> None:
        """Append step number ``seq`` (0-based); optionally update the status (and result) too."""
        with self._tx() as s:
            s.add(StepModel(room_id=room_id, seq=seq, at=step.at, seat=step.seat, action=step.action))
            if status is not None:
                values: dict[str, Any] = {"status": status}
                if result is not None:
                    values["result"] = json.dumps(result)
                s.execute(update(RoomModel).where(RoomModel.id == room_id).values(**values))

    def start(self, room_id: str, origin: float) -> None:
        with self._tx() as s:
            s.execute(update(RoomModel).where(RoomModel.id == room_id).values(status="playing", origin=origin))

    def expire(self, room_id: str) -> None:
        """A waiting room nobody started in time: never resumed again (its row stays, status ``expired``)."""
        with self._tx() as s:
            s.execute(update(RoomModel).where(RoomModel.id == room_id, RoomModel.status == "waiting")
                      .values(status="expired"))

    # ---- reads -------------------------------------------------------------------------
    def _row(self, s: Session, m: RoomModel) -> RoomRow:
        n = s.scalar(select(func.count()).select_from(StepModel).where(StepModel.room_id == m.id)) or 0
        return RoomRow(
            id=m.id, game=m.game, players=m.players, seed=m.seed, header=json.loads(m.header),
            seats=json.loads(m.seats), status=m.status, origin=m.origin, created=m.created,
            result=None if m.result is None else json.loads(m.result), steps=int(n),
        )

    def room(self, room_id: str) -> RoomRow | None:
        with self._session() as s:
            m = s.get(RoomModel, room_id)
            return None if m is None else self._row(s, m)

    def steps(self, room_id: str) -> list[Step]:
        with self._session() as s:
            rows = s.execute(
                select(StepModel.at, StepModel.seat, StepModel.action)
                .where(StepModel.room_id == room_id).order_by(StepModel.seq)
            ).all()
            return [Step(float(at), seat, action) for at, seat, action in rows]

    def unfinished(self) -> list[RoomRow]:
        """Every room waiting or playing, oldest first (resumed on start-up; finished and expired rooms are not)."""
        with self._session() as s:
            ms = s.scalars(select(RoomModel).where(RoomModel.status.in_(("waiting", "playing")))
                           .order_by(RoomModel.created)).all()
            return [self._row(s, m) for m in ms]

    def recent(self, limit: int = 20, status: str | None = None) -> list[RoomRow]:
        with self._session() as s:
            q = select(RoomModel).order_by(RoomModel.created.desc()).limit(limit)
            if status is not None:
                q = q.where(RoomModel.status == status)
            return [self._row(s, m) for m in s.scalars(q).all()]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: a committed step is in the log file before the call returns, so kill -9 keeps it.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
