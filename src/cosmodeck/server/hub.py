"""The rooms of one server: create, find, resume after a restart, unload when finished.

Storage calls run on one writer thread, in the order they are made, so a room's steps are
stored in order and the event loop never waits on the database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cosmodeck.api import load_game, replay
from cosmodeck.bots.registry import make_bot
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.protocol import CreateRoom, ProtocolError
from cosmodeck.server.replays import replay_tail
from cosmodeck.server.room import Room, Seat
from cosmodeck.storage.repository import RoomRow, Step, Store

log = logging.getLogger("cosmodeck.server")

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
        self.rooms: dict[str, Room] = {}
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cosmodeck-db")
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    # ---- storage on the writer thread ------------------------------------------------------
    async def db(self, method: str, *args: Any) -> Any:
        fn = getattr(self.store, method)
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    async def _write(self, method: str, *args: Any) -> None:
        await self.db(method, *args)

    # ---- lifecycle ---------------------------------------------------------------------
    async def resume_all(self) -> int:
        """Load every unfinished room from storage and restart its actor (timers included)."""
        rows: list[RoomRow] = await self.db("unfinished")
        n = 0
        for row in rows:
            try:
                await self._load(row)
                n += 1
            except Exception:
                log.exception("room %s could not be resumed", row.id)
        return n

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        self._writer.shutdown(wait=True)
        self.store.close()

    # ---- rooms -------------------------------------------------------------------------
    async def create(self, req: CreateRoom) -> tuple[Room, dict[str, str]]:
        try:
            game = load_game(req.game, **req.options)
            seed = req.seed if req.seed is not None else secrets.randbits(62)
            if not 0 <= seed < 2**63:
                raise ProtocolError("bad_seed", "seed must be between 0 and 2**63 - 1")
            state = game.new_game(players=req.players, seed=seed)
        except CosmodeckError as e:
            raise ProtocolError(e.code, e.message) from None
        seats: dict[int, Seat] = {}
        for key, spec in req.bots.items():
            if not key.isdigit() or not 0 <= int(key) < req.players:
                raise ProtocolError("bad_seat", f"bot seat {key!r} is not a seat of a {req.players}-player game")
            try:
                make_bot(game.id, spec, game)
            except ValueError as e:
                raise ProtocolError("bad_bot", str(e)) from None
            seats[int(key)] = Seat(token=None, bot_spec=spec)
        tokens: dict[str, str] = {}
        for i in range(req.players):
            if i not in seats:
                tokens[str(i)] = secrets.token_urlsafe(16)
                seats[i] = Seat(token=tokens[str(i)], bot_spec=None)
        room_id = new_room_id()
        while room_id in self.rooms or await self.db("room", room_id) is not None:
            room_id = new_room_id()
        row = RoomRow(id=room_id, game=game.id, players=req.players, seed=seed, header=game.header(),
                      seats=_seats_json(seats), status="waiting", origin=None, created=time.time(),
                      result=None, steps=0)
        await self.db("create_room", row)
        room = self._make_room(row, state, dict(sorted(seats.items())))
        return room, tokens

    async def get(self, room_id: str) -> Room | None:
        """The room in memory, or loaded from storage (finished rooms are loaded on demand)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if room_id in self._loading:
            return await self._loading[room_id]
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = fut
        try:
            row: RoomRow | None = await self.db("room", room_id)
            result = None if row is None else await self._load(row)
            fut.set_result(result)
            return result
        except Exception as e:
            fut.set_exception(e)
            raise
        finally:
            del self._loading[room_id]

    async def rebuild(self, row: RoomRow) -> State:
        steps: list[Step] = await self.db("steps", row.id)
        return replay(record_of(row, steps))

    async def _load(self, row: RoomRow) -> Room:
        steps: list[Step] = await self.db("steps", row.id)
        # the last steps are replayed one by one so that their events can be resent (the log on join)
        keep = min(len(steps), self.config.event_history)
        state = replay(record_of(row, steps[:len(steps) - keep]))
        history = replay_tail(state, steps[len(steps) - keep:], first_version=len(steps) - keep + 1)
        seats = {int(k): Seat(token=v.get("token"), bot_spec=v.get("bot")) for k, v in row.seats.items()}
        return self._make_room(row, state, dict(sorted(seats.items())), history)

    def _make_room(self, row: RoomRow, state: State, seats: dict[int, Seat],
                   history: list[tuple[int, list[Event]]] | None = None) -> Room:
        room = Room(row.id, state.game, state, seats, row.status, row.origin, row.steps, self.config, self._write,
                    on_idle=self._unload, created=row.created)
        room.history.extend(history or [])
        self.rooms[row.id] = room
        room.start_actor()
        return room

    def _unload(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            asyncio.get_running_loop().create_task(room.stop())

    async def info(self, room_id: str) -> dict[str, Any] | None:
        room = self.rooms.get(room_id)
        if room is not None:
            return {"room": room.id, "game": room.game.id, "players": room.state.players, "status": room.status,
                    "version": room.version}
        row: RoomRow | None = await self.db("room", room_id)
        if row is None:
            return None
        return {"room": row.id, "game": row.game, "players": row.players, "status": row.status, "version": row.steps}

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
            out[str(i)] = {"token": seat.token}
    return out

