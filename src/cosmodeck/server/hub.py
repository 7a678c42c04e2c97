"""The rooms of one server: create, find, resume after a restart, unload when finished.

Storage calls run on a writer thread (SQLite: one; PostgreSQL: a few, each room always on the same one),
in the order they are made, so a room's steps are stored in order and the event loop never waits on the
database (the periodic scan for orphan rooms, a read, runs on a thread of its own so that the steps never
wait behind it).

A room that is not over is run only after this server has claimed it (``Store.claim_room``: a
PostgreSQL advisory lock; always granted on SQLite, whose file belongs to one server). Seat
tokens are kept as SHA-256 hashes, in memory and in the database.

On PostgreSQL several processes share the database (docs/SERVER.md "Several server processes"):
each renews its lease and, every ``scan_s``, resumes the unfinished rooms that no process runs
(``Store.orphan_rooms``: their process died or stopped) from their event log.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import zlib
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import Any

from cosmodeck.api import game_from_header, replay
from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.server.auth import TOKEN_KEY, hash_token, seat_hashes
from cosmodeck.server.botlimits import check_bot
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.durable import storage_unavailable
from cosmodeck.server.idle import Book
from cosmodeck.server.protocol import CreateRoom, ProtocolError
from cosmodeck.server.replays import replay_tail
from cosmodeck.server.room import Room, Seat
from cosmodeck.server.rooms import Builder, choose_seed, header_info, split_options
from cosmodeck.storage.errors import StorageUnavailable
from cosmodeck.storage.repository import RoomRow, Step, Store

log = logging.getLogger("cosmodeck.server")

PG_WRITERS = 4  # writer threads on PostgreSQL (each room on one of them)
SLOW_COMMIT_S = 0.05  # a step committed on the event loop that takes longer turns that off for a while
SLOW_COMMIT_PAUSE_S = 5.0
CHECKPOINT_EVERY = 500  # steps committed on the event loop between WAL checkpoints on the writer thread
ROOM_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_room_id() -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(8))


def record_of(row: RoomRow, steps: list[Step]) -> dict[str, Any]:
    """The stored steps as a game record (``cosmodeck.replay`` rebuilds the state from it)."""
    return {"format": "cosmodeck-record/1", **row.header, "seed": row.seed, "players": row.players,
            "log": [s.to_json() for s in steps], "result": row.result}


class Hub:
    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store if store is not None else Store(config.db)
        self.store.claim()  # StoreRefused: another server has the file, or the database is read-only
        self.store.advertise(config.public_url, config.lease_s)
        self.rooms: dict[str, Room] = {}
        # SQLite: one writer thread. PostgreSQL: PG_WRITERS, each room's calls always on the same one (so
        # its writes stay in order) and every thread with its own connection, so that the rooms' steps do
        # not all queue behind one statement at a time (each a round trip that, on a busy machine, waits
        # for the database's process to get a core).
        self._writers = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"cosmodeck-db{i}")
                         for i in range(PG_WRITERS if self.store.shared else 1)]
        self._writer = self._writers[0]  # calls that concern no room in particular
        # the periodic scan for rooms no process runs: a read (its own pooled connection) that must not
        # hold up the steps queued on the writer thread (it grows with the rooms of the whole database)
        self._scanner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cosmodeck-db-scan")
        self._pending = 0  # calls submitted to the writer thread and not yet answered
        self._appended_now = 0  # steps committed by Store.append_now (on the event loop)
        self._checkpoint: asyncio.Future[None] | None = None
        self._now_off_until = 0.0  # monotonic time before which steps are not committed on the event loop
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._builder = Builder(config.build_timeout_s)
        self._expiry: asyncio.Task[None] | None = None
        self._leases: asyncio.Task[None] | None = None
        self._broken: set[str] = set()  # rooms that failed to resume here: not retried by every scan

    # ---- storage on the writer thread ------------------------------------------------------
    async def db(self, method: str, *args: Any) -> Any:
        fn = getattr(self.store, method)
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._writer_for(args), fn, *args)
        finally:
            self._pending -= 1

    def _writer_for(self, args: tuple[Any, ...]) -> ThreadPoolExecutor:
        """The writer thread of the room a call is about (its first argument: a room id or a ``RoomRow``)."""
        if len(self._writers) == 1 or not args:
            return self._writer
        key = args[0].id if isinstance(args[0], RoomRow) else args[0]
        if not isinstance(key, str):
            return self._writer
        return self._writers[zlib.crc32(key.encode()) % len(self._writers)]

    async def _write(self, method: str, *args: Any) -> None:
        # A step on an SQLite file is committed here at once when nothing else is being written and
        # the file is free (no thread hand-off: the room's most frequent write); else on the writer
        # thread, in order, waiting for the database as long as its busy timeout.
        # A commit that took long (a slow or busy disk) would have held up every room: the next ones
        # wait on the writer thread for a while instead.
        if method == "append" and self._pending == 0 and time.monotonic() >= self._now_off_until:
            t0 = time.monotonic()
            done = self.store.append_now(*args)
            took = time.monotonic() - t0
            if took > SLOW_COMMIT_S:
                self._now_off_until = t0 + took + SLOW_COMMIT_PAUSE_S
                log.warning("a step took %.0f ms to commit: steps are written on the writer thread for %.0f s",
                            took * 1000, SLOW_COMMIT_PAUSE_S)
            if done:
                self._appended_now += 1
                if self._appended_now % CHECKPOINT_EVERY == 0:  # the WAL copied back, off the event loop
                    self._checkpoint = asyncio.ensure_future(self._quiet_checkpoint())
                return
        await self.db(method, *args)

    async def _quiet_checkpoint(self) -> None:
        try:
            await self.db("checkpoint")
        except Exception as e:  # the database busy or gone, or the server stopping: the next one will do
            log.info("WAL checkpoint not done now: %s", e)

    # ---- lifecycle ---------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Load every unfinished room from storage and restart its actor (timers included).

        Waiting rooms older than ``waiting_ttl_s`` are marked expired instead (never loaded again)."""
        rows: list[RoomRow] = await self.db("unfinished")
        n = 0
        for row in rows:
            if self._expired(row.status, row.created):
                if await self.db("claim_room", row.id):  # not a room another server runs
                    await self.db("expire", row.id)
                    await self.db("release_room", row.id)
                continue
            try:
                await self._load(row)
                n += 1
            except RoomElsewhere:
                log.info("room %s is run by another server: not resumed here", row.id)
            except Exception:
                log.exception("room %s could not be resumed", row.id)
        return n

    def _expired(self, status: str, created: float) -> bool:
        return status == "waiting" and time.time() >= created + self.config.waiting_ttl_s

    def start_expiry(self) -> None:
        """Expire waiting rooms in memory as their time runs out (checked every minute or so)."""
        self._expiry = asyncio.get_running_loop().create_task(self._expire_loop(), name="room-expiry")

    async def _expire_loop(self) -> None:
        period = min(60.0, max(0.05, self.config.waiting_ttl_s / 4))
        while True:
            await asyncio.sleep(period)
            for room in [r for r in self.rooms.values() if self._expired(r.status, r.created)]:
                try:
                    await self._expire(room)
                except Exception:
                    log.exception("room %s could not be expired", room.id)

    async def _expire(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        await room.stop()  # its clients are closed (1001); the actor has finished: the status is final
        if room.status == "waiting":
            await self.db("expire", room.id)
            await self.db("release_room", room.id)
            log.info("room %s expired: nobody started it within %g s", room.id, self.config.waiting_ttl_s)
            return
        row: RoomRow | None = await self.db("room", room.id)  # it started meanwhile: keep it
        if row is not None:
            await self._load(row)

    def start_leases(self) -> None:
        """PostgreSQL: renew this process's lease and resume rooms no process runs."""
        if self.store.shared:
            self._leases = asyncio.get_running_loop().create_task(self._lease_loop(), name="room-leases")

    async def _lease_loop(self) -> None:
        renew_every = max(0.05, self.config.lease_s / 3)
        renewed = 0.0
        while True:
            await asyncio.sleep(min(self.config.scan_s, renew_every))
            try:
                if time.monotonic() - renewed >= renew_every:
                    await self.db("renew_lease")
                    renewed = time.monotonic()
                n = await self.resume_orphans()
                if n:
                    log.info("resumed %d room(s) that no server was running", n)
            except StorageUnavailable as e:
                log.warning("room leases: %s", e.message)
            except Exception:
                log.exception("room leases")

    async def resume_orphans(self) -> int:
        """Resume, from their event log, the unfinished rooms whose lock nobody holds."""
        n = 0
        orphans: list[str] = await asyncio.get_running_loop().run_in_executor(self._scanner,
                                                                              self.store.orphan_rooms)
        for room_id in orphans:
            if room_id in self.rooms or room_id in self._loading or room_id in self._broken:
                continue
            try:
                room = await self.get(room_id)
            except RoomElsewhere:
                continue  # another process was quicker
            except ProtocolError:
                continue  # storage unavailable: the next scan tries again
            except Exception:
                log.exception("room %s could not be resumed", room_id)
                self._broken.add(room_id)
                continue
            if room is not None:
                log.info("room %s: resumed here (no server was running it)", room_id)
                n += 1
        return n

    async def owner_url(self, room_id: str) -> str | None:
        """The public URL of the process that runs ``room_id`` (PostgreSQL), if it is not this one."""
        try:
            url: str | None = await self.db("owner_url", room_id)
        except StorageUnavailable:
            return None
        return None if url == self.config.public_url else url

    async def close(self) -> None:
        if self._leases is not None:
            self._leases.cancel()
        if self._expiry is not None:
            self._expiry.cancel()
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()  # the room locks go with the store's lock session
        for writer in self._writers:
            writer.shutdown(wait=True)
        self._scanner.shutdown(wait=True)
        self.store.close()

    # ---- rooms -------------------------------------------------------------------------
    async def create(self, req: CreateRoom) -> tuple[Room, dict[str, str]]:
        cfg = self.config
        bot_seats = {int(key): spec for key, spec in req.bots.items()}  # keys are ASCII digits (CreateRoom)
        for i in bot_seats:
            if not 0 <= i < req.players:
                raise ProtocolError("bad_seat", f"bot seat {i} is not a seat of a {req.players}-player game")
        seed, fixed_seed = choose_seed(req.seed, req.players - len(bot_seats))
        data, options = split_options(req.game, req.options, cfg.max_data)
        built = await self._builder.build(req.game, data, options, req.players, seed)
        game, state = built.game, built.state
        seats: dict[int, Seat] = {}
        for i, spec in sorted(bot_seats.items()):
            check_bot(game, spec, cfg)
            seats[i] = Seat(token=None, bot_spec=spec)
        tokens: dict[str, str] = {}
        for i in range(req.players):
            if i not in seats:
                tokens[str(i)] = secrets.token_urlsafe(16)
                seats[i] = Seat(token=hash_token(tokens[str(i)]), bot_spec=None)
        host = req.host if req.host is not None else min((int(s) for s in tokens), default=None)
        if host is not None and str(host) not in tokens:
            raise ProtocolError("bad_seat", f"the host seat {host} is not a human seat of this room")
        header = game.header()
        if fixed_seed:
            header["fixed_seed"] = True
        room = await self._open(game.id, req.players, seed, header, state, seats, host)
        return room, tokens

    async def rematch(self, room: Room) -> tuple[str, dict[str, str]]:
        """A new room with the same game, options, card data and seats as ``room`` (bots stay bots,
        every human seat a new token, the same host); a new secret seed drawn by the server."""
        try:
            row: RoomRow | None = await self.db("room", room.id)
        except StorageUnavailable:
            raise storage_unavailable() from None
        if row is None:
            raise ProtocolError("unknown_room", f"no room {room.id!r}")
        header = {k: v for k, v in row.header.items() if k != "fixed_seed"}
        seed, _ = choose_seed(None, sum(1 for s in room.seats.values() if s.token is not None))
        record = {"format": "cosmodeck-record/1", **header, "seed": seed, "players": row.players, "log": []}
        state = await asyncio.to_thread(replay, record)  # game construction: off the event loop
        seats: dict[int, Seat] = {}
        tokens: dict[str, str] = {}
        for i, old in sorted(room.seats.items()):
            if old.bot_spec is not None:
                seats[i] = Seat(token=None, bot_spec=old.bot_spec)
            else:
                tokens[str(i)] = secrets.token_urlsafe(16)
                seats[i] = Seat(token=hash_token(tokens[str(i)]), bot_spec=None)
        new = await self._open(row.game, row.players, seed, header, state, seats, room.book.host)
        log.info("room %s: rematch in room %s", room.id, new.id)
        return new.id, tokens

    async def _open(self, game_id: str, players: int, seed: int, header: dict[str, Any], state: State,
                    seats: dict[int, Seat], host: int | None) -> Room:
        """Store a new waiting room under a fresh id this server claims, and run it."""
        try:
            room_id = new_room_id()
            while (room_id in self.rooms or await self.db("room_exists", room_id)
                   or not await self.db("claim_room", room_id)):
                room_id = new_room_id()
            row = RoomRow(id=room_id, game=game_id, players=players, seed=seed, header=header,
                          seats=_seats_json(seats), status="waiting", origin=None, created=time.time(),
                          result=None, steps=0, extras=Book(host=host).to_json())
            try:
                await self.db("create_room", row)
            except StorageUnavailable:
                await self.db("release_room", room_id)
                raise
        except StorageUnavailable:
            raise storage_unavailable() from None
        return self._make_room(row, state, dict(sorted(seats.items())))

    async def get(self, room_id: str) -> Room | None:
        """The room in memory, or loaded from storage (finished rooms are loaded on demand).

        ``RoomElsewhere`` if another server runs it; ``ProtocolError('storage_unavailable')``.
        """
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if room_id in self._loading:
            return await self._loading[room_id]
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = fut
        try:
            try:
                row: RoomRow | None = await self.db("room", room_id)
                result = None if row is None or row.status == "expired" else await self._load(row)
            except StorageUnavailable:
                raise storage_unavailable() from None
            fut.set_result(result)
            return result
        except Exception as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: waiters re-raise it, nobody else must
            raise
        finally:
            del self._loading[room_id]

    async def rebuild(self, row: RoomRow) -> State:
        steps: list[Step] = await self.db("steps", row.id)
        return await asyncio.to_thread(replay, record_of(row, steps))  # game construction: off the event loop

    async def _load(self, row: RoomRow) -> Room:
        """Run a stored room here: claimed first unless it is over (a finished room never writes)."""
        claimed = row.status in ("waiting", "playing")
        if claimed and not await self.db("claim_room", row.id):
            raise RoomElsewhere(row.id)
        try:
            seats_json, had_plain = seat_hashes(row.seats)
            if had_plain:  # stored by an old version: keep only the hashes from now on
                await self.db("set_seats", row.id, seats_json)
            steps: list[Step] = await self.db("steps", row.id)
            # the last steps are replayed one by one so that their events can be resent (the log on join)
            keep = min(len(steps), self.config.event_history)
            state, history = await asyncio.to_thread(_replay_with_history, row, steps, keep)  # off the event loop
        except BaseException:
            if claimed:
                await self.db("release_room", row.id)
            raise
        seats = {int(k): Seat(token=v.get(TOKEN_KEY), bot_spec=v.get("bot")) for k, v in seats_json.items()}
        first_human = min((i for i, s in seats.items() if s.token is not None), default=None)
        book = Book.load(row.extras, first_human, steps)  # rooms stored by older versions: no extras
        return self._make_room(row, state, dict(sorted(seats.items())), history, book)

    def _make_room(self, row: RoomRow, state: State, seats: dict[int, Seat],
                   history: list[tuple[int, list[Event]]] | None = None, book: Book | None = None) -> Room:
        room = Room(row.id, state.game, state, seats, row.status, row.origin, row.steps, self.config, self._write,
                    on_idle=self._unload, created=row.created, on_lost=self._unload,
                    book=book if book is not None else Book.load(row.extras, None, []), rematcher=self.rematch)
        room.history.extend(history or [])
        room.public = header_info(row.header)
        self.rooms[row.id] = room
        room.start_actor()
        return room

    def _unload(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            asyncio.get_running_loop().create_task(self._stop_and_release(room))

    async def _stop_and_release(self, room: Room) -> None:
        await room.stop()
        if room.id not in self.rooms and room.id not in self._loading:
            with suppress(StorageUnavailable):  # if the lock session is gone, the lock went with it
                await self.db("release_room", room.id)

    async def info(self, room_id: str) -> dict[str, Any] | None:
        room = self.rooms.get(room_id)
        if room is not None:
            return {"room": room.id, "game": room.game.id, "players": room.state.players, "status": room.status,
                    "version": room.version, **room.public}
        row: RoomRow | None = await self.db("room", room_id)
        if row is None:
            return None
        return {"room": row.id, "game": row.game, "players": row.players, "status": row.status, "version": row.steps,
                **header_info(row.header)}

    async def catalogue(self, room_id: str) -> Mapping[str, Any] | None:
        """The room's game catalogue (card faces, texts per language), the same for every seat: a page
        fetches it once, views name cards by id. A room this process does not run is read from storage."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room.game.catalogue()
        row: RoomRow | None = await self.db("room", room_id)
        if row is None or row.status == "expired":
            return None
        game = await asyncio.to_thread(game_from_header, row.header)  # parsing card data: off the event loop
        return game.catalogue()

    async def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        rows: list[RoomRow] = await self.db("recent", limit)
        out = []
        for row in rows:
            live = self.rooms.get(row.id)
            out.append({"room": row.id, "game": row.game, "players": row.players,
                        "status": live.status if live else row.status,
                        "version": live.version if live else row.steps, "created": row.created,
                        "bots": {k: v["bot"] for k, v in row.seats.items() if "bot" in v}})
        return out

    async def finished_state(self, room_id: str) -> tuple[RoomRow, list[Step]] | None:
        row: RoomRow | None = await self.db("room", room_id)
        if row is None:
            return None
        steps: list[Step] = await self.db("steps", room_id)
        return row, steps


def _seats_json(seats: dict[int, Seat]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for i, seat in sorted(seats.items()):
        if seat.bot_spec is not None:
            out[str(i)] = {"bot": seat.bot_spec}
        else:
            assert seat.token is not None
            out[str(i)] = {TOKEN_KEY: seat.token}
    return out


class RoomElsewhere(ProtocolError):
    """Another server runs this room (PostgreSQL: it holds the room's lock)."""

    def __init__(self, room_id: str) -> None:
        super().__init__("room_elsewhere", f"room {room_id} is being run by another server; try again later")


def _replay_with_history(row: RoomRow, steps: list[Step], keep: int) -> tuple[State, list[tuple[int, list[Event]]]]:
    """The room's state, its last ``keep`` steps replayed one by one to keep their events."""
    state = replay(record_of(row, steps[:len(steps) - keep]))
    return state, replay_tail(state, steps[len(steps) - keep:], first_version=len(steps) - keep + 1)
