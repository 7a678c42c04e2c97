"""Tables: one row per room, one row per accepted step (action or advance) of its game."""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class RoomModel(Base):
    """A room: its game header (game, options, card data), seats and status.

    The state is never stored: it is rebuilt from ``header``/``seed``/``players`` and the steps.
    """

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    header: Mapped[str] = mapped_column(Text)  # JSON: Game.header()
    seats: Mapped[str] = mapped_column(Text)  # JSON: {"0": {"token": ...} | {"bot": spec}}
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting | playing | over
    origin: Mapped[float | None] = mapped_column(Float, nullable=True)  # wall-clock time of game time 0
    created: Mapped[float] = mapped_column(Float)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, once over


class StepModel(Base):
    """One accepted step: ``seat``/``action`` for an action, both null for an ``advance``."""

    __tablename__ = "steps"

    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str | None] = mapped_column(Text, nullable=True)


class ExtraModel(Base):
    """A room's server-side state beyond its steps (JSON): the host seat, seats handed to a bot while
    their players are idle, votes, the rematch room. A table of its own, so that databases created
    by older versions gain it with ``create_all``."""

    __tablename__ = "room_extras"

    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class MetaModel(Base):
    """Server bookkeeping: ``last_start`` is written at every start-up to prove the database is writable."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ServerModel(Base):
    """A server process sharing a PostgreSQL database (docs/SERVER.md "Several server processes"):
    where clients reach it, and the name of its lock session (``application_name`` in
    ``pg_stat_activity``), through which the owner of a room's advisory lock is found."""

    __tablename__ = "servers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str | None] = mapped_column(Text, nullable=True)  # public base URL, e.g. https://example.org/s1
    started: Mapped[float] = mapped_column(Float)
    beat: Mapped[float] = mapped_column(Float)  # last lease renewal (wall time)
