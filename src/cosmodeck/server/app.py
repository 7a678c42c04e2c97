"""The FastAPI application: REST for rooms, one WebSocket per client, and the static web client."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from cosmodeck.api import game_spec, list_games, load_game
from cosmodeck.bots.registry import BOTS, GAME_BOTS, make_bot
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.game import Game
from cosmodeck.server import gcpolicy
from cosmodeck.server.auth import AUTH_TIMEOUT_S, install_log_redaction, parse_auth, same_hash
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.durable import storage_unavailable
from cosmodeck.server.guard import RateLimited, RoomRate, client_address, read_body
from cosmodeck.server.hub import Hub, RoomElsewhere
from cosmodeck.server.protocol import CreateRoom, ProtocolError, parse_client_message, parse_json
from cosmodeck.server.replays import replay_steps
from cosmodeck.server.room import Client, Room
from cosmodeck.server.rooms import ROOM_DEFAULTS
from cosmodeck.server.rules_html import rules_html
from cosmodeck.server.wire import dumps
from cosmodeck.storage.errors import StorageError
from cosmodeck.storage.repository import Store

log = logging.getLogger("cosmodeck.server")

STATUS = {"unknown_room": 404, "unknown_game": 404, "not_over": 409, "too_large": 413, "too_many_rooms": 429,
          "seed_not_allowed": 403, "busy": 503, "room_elsewhere": 409, "storage_unavailable": 503}
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_BAD_TOKEN = 4401  # also: a token in the URL, no auth message in time
CLOSE_TRY_LATER = 1013  # storage unavailable, or the room is run by another server (with no public URL)
CLOSE_REDIRECT = 4302  # after a redirect frame: the room is run by the process it names
# a message past the connection's --message-rate: answered with this and dropped
RATE_LIMITED = dumps(ProtocolError("rate_limited", "too many messages: slow down").to_json())


def web_dir() -> Path:
    return Path(str(resources.files("cosmodeck").joinpath("web")))


def create_app(config: ServerConfig | None = None, store: Store | None = None) -> FastAPI:
    cfg = config or ServerConfig()
    room_rate = RoomRate(cfg.room_rate)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_redaction()  # uvicorn has configured its loggers by now
        hub = Hub(cfg, store)
        app.state.hub = hub
        n = await hub.resume_all()
        if n:
            log.info("resumed %d unfinished room(s)", n)
        hub.start_expiry()
        hub.start_leases()
        # the full collections that the tuned collector leaves to a timer (server.gcpolicy)
        collector = asyncio.get_running_loop().create_task(gcpolicy.full_collections(), name="gc") \
            if gcpolicy.tuned() else None
        try:
            yield
        finally:
            if collector is not None:
                collector.cancel()
                with suppress(asyncio.CancelledError):
                    await collector
            await hub.close()

    app = FastAPI(title="cosmodeck", lifespan=lifespan, docs_url=None, redoc_url=None)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # a person who mistypes an address gets the web client's "page not found", not JSON
        page = request.method == "GET" and not request.url.path.startswith(("/api/", "/static/", "/ws/"))
        if exc.status_code == 404 and page:
            return FileResponse(web_dir() / "index.html", status_code=404, headers={"Cache-Control": "no-cache"})
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, exc: ProtocolError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return JSONResponse(exc.to_json(), status_code=STATUS.get(exc.code, 400), headers=headers)

    @app.exception_handler(StorageError)
    async def storage_error(_request: Request, _exc: StorageError) -> JSONResponse:
        return JSONResponse(storage_unavailable().to_json(), status_code=503)

    # ---- REST ---------------------------------------------------------------------------
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [_game_info(g) for g in list_games()]

    @app.post("/api/rooms")
    async def create_room(request: Request) -> JSONResponse:
        room_rate.check(client_address(request))
        body = parse_json(await read_body(request, cfg.max_body), cfg.max_json_depth, "the body")
        try:
            req = CreateRoom.model_validate(body)
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, x['loc'])) or '(body)'}: {x['msg']}" for x in e.errors())
            raise ProtocolError("bad_request", problems) from None
        room, tokens = await hub_of(request).create(req)
        base = str(request.base_url)
        return JSONResponse({
            "room": room.id,
            "seats": tokens,
            "url": f"{base}room/{room.id}",
            "links": {s: f"{base}room/{room.id}#token={t}" for s, t in tokens.items()},
        }, status_code=201)

    @app.get("/api/rooms")
    async def rooms(request: Request) -> list[dict[str, Any]]:
        return await hub_of(request).recent()

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: str, request: Request) -> dict[str, Any]:
        info = await hub_of(request).info(room_id)
        if info is None:
            raise ProtocolError("unknown_room", f"no room {room_id!r}")
        return info

    @app.get("/api/rooms/{room_id}/catalogue")
    async def room_catalogue(room_id: str, request: Request) -> JSONResponse:
        cat = await hub_of(request).catalogue(room_id)
        if cat is None:
            raise ProtocolError("unknown_room", f"no room {room_id!r}")
        # a room's game never changes: the page keeps it (one fetch per room, not per view)
        return JSONResponse(cat, headers={"Cache-Control": "private, max-age=86400"})

    @app.get("/api/rooms/{room_id}/record")
    async def room_record(room_id: str, request: Request) -> JSONResponse:
        room = await _finished(hub_of(request), room_id)
        return JSONResponse(room.state.record())

    @app.get("/api/rooms/{room_id}/replay")
    async def room_replay(room_id: str, request: Request, seat: int | None = None) -> JSONResponse:
        hub = hub_of(request)
        room = await _finished(hub, room_id)
        if seat is not None and not 0 <= seat < room.state.players:
            raise ProtocolError("bad_seat", f"no seat {seat} in a {room.state.players}-player game")
        loaded = await hub.finished_state(room_id)
        assert loaded is not None
        row, steps = loaded
        return JSONResponse(await asyncio.to_thread(replay_steps, row, steps, seat))  # CPU: off the event loop

    @app.get("/api/rules/{game_id}", response_model=None)
    async def rules(game_id: str, lang: str = "en", format: str = "text") -> PlainTextResponse | HTMLResponse:
        try:
            spec = game_spec(game_id)
        except CosmodeckError as e:
            raise ProtocolError(e.code, e.message) from None
        name = spec.rules_es if lang == "es" else spec.rules_en
        if not name:
            raise ProtocolError("no_rules", f"no rules text for {game_id!r}")
        path = "rules/es/" + name if lang == "es" else "rules/" + name
        text = resources.files("cosmodeck").joinpath(path).read_text(encoding="utf-8")
        if format == "html":  # for the rules page: rendered here, raw HTML in the source is escaped
            return HTMLResponse(rules_html(text, markdown=not name.endswith(".txt")))
        if format != "text":
            raise ProtocolError("bad_format", "format is 'text' or 'html'")
        return PlainTextResponse(text)

    # ---- WebSocket ----------------------------------------------------------------------
    @app.websocket("/ws/{room_id}")
    async def ws(websocket: WebSocket, room_id: str) -> None:
        await websocket.accept()
        if "token" in websocket.query_params:
            await _refuse(websocket, "token_in_url", "a token never goes in the URL (URLs end up in logs): "
                          'connect to /ws/ROOM and send {"type": "auth", "token": ...} first', CLOSE_BAD_TOKEN)
            return
        try:
            auth = await _first_message(websocket, cfg.max_message, cfg.max_json_depth)
        except ProtocolError as e:
            await _refuse(websocket, e.code, e.message, CLOSE_BAD_TOKEN)
            return
        except WebSocketDisconnect:
            return
        hub = hub_of(websocket)
        try:
            room = await hub.get(room_id)
        except RoomElsewhere as e:  # another process runs it: send the client there, or ask it to retry
            owner = await hub.owner_url(room_id)
            if owner is not None:
                await websocket.send_text(dumps({"type": "redirect", "room": room_id, "server": owner}))
                await websocket.close(CLOSE_REDIRECT)
                return
            await _refuse(websocket, e.code, e.message, CLOSE_TRY_LATER)
            return
        except ProtocolError as e:  # storage_unavailable
            await _refuse(websocket, e.code, e.message, CLOSE_TRY_LATER)
            return
        if room is None:
            await _refuse(websocket, "unknown_room", f"no room {room_id!r}", CLOSE_UNKNOWN_ROOM)
            return
        seat: int | None = None
        if auth is not None:
            seat = _seat_for(room, auth)
            if seat is None:
                await _refuse(websocket, "bad_token", "this invite link is not valid for this room", CLOSE_BAD_TOKEN)
                return
        client = Client(seat, websocket.send_text, _closer(websocket), cfg.message_rate)
        await room.join(client)
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if not client.inbound.take(time.monotonic()):  # dropped before it is parsed or queued
                    client.send(RATE_LIMITED)
                    continue
                data = frame.get("text")
                try:
                    msg = parse_client_message(data if data is not None else (frame.get("bytes") or b""),
                                               cfg.max_message, cfg.max_json_depth)
                except ProtocolError as e:
                    client.send(dumps(e.to_json()))
                    continue
                room.deliver(client, msg)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(client)

    if cfg.lab:  # the design lab (docs/LAB.md); without --lab none of its routes exist
        from cosmodeck.server.lab import mount_lab

        mount_lab(app, cfg, web_dir())

    # ---- the web client -----------------------------------------------------------------
    static = web_dir()
    app.mount("/static", StaticFiles(directory=static), name="static")

    async def index() -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    app.add_api_route("/", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/room/{room_id}", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/replay/{room_id}", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/rules/{game_id}", index, methods=["GET"], include_in_schema=False)
    return app


async def _finished(hub: Hub, room_id: str) -> Room:
    room = await hub.get(room_id)
    if room is None:
        raise ProtocolError("unknown_room", f"no room {room_id!r}")
    if room.status != "over":
        raise ProtocolError("not_over", "the record is available once the game is over")
    return room


def _seat_for(room: Room, token: str) -> int | None:
    for i, seat in room.seats.items():
        if seat.token is not None and same_hash(token, seat.token):
            return i
    return None


async def _first_message(websocket: WebSocket, max_bytes: int, max_depth: int) -> str | None:
    """The token of the client's ``auth`` message (None: a spectator); ProtocolError if it sends none in time."""
    try:
        frame = await asyncio.wait_for(websocket.receive(), AUTH_TIMEOUT_S)
    except TimeoutError:
        raise ProtocolError("auth_required", f"no auth message within {AUTH_TIMEOUT_S:g} s") from None
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    return parse_auth(frame.get("text"), max_bytes, max_depth).token


def _closer(websocket: WebSocket) -> Any:
    async def close(code: int) -> None:
        with suppress(Exception):
            await websocket.close(code)

    return close


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_text(dumps(ProtocolError(code, message).to_json()))
    await websocket.close(close_code)


def _bots_for(game: Game[Any]) -> list[str]:
    """The bot names that can play this game (e.g. ISMCTS needs a determinization for it; ``team`` is Meteor's).

    Simulation-only bounds (``omniscient``) are never listed: they are not in these tables."""
    names = []
    for name in [*sorted(BOTS), *sorted(GAME_BOTS)]:
        try:
            make_bot(game.id, name, game)
        except ValueError:
            continue
        names.append(name)
    return names


@functools.cache
def _game_info(game_id: str) -> dict[str, Any]:
    spec = game_spec(game_id)
    info = spec.game_cls.info
    game = load_game(game_id)
    options = []
    for opt in spec.game_cls.option_specs:
        if opt.name in spec.file_options:
            continue
        value = ROOM_DEFAULTS.get(game_id, {}).get(opt.name, game.options.get(opt.name, opt.default))
        try:
            json.dumps(value)
        except TypeError:
            continue
        options.append({"name": opt.name, "default": value,
                        "choices": list(opt.choices) if opt.choices is not None else None, "doc": opt.doc})
    return {"id": info.id, "name": info.name, "min_players": info.min_players, "max_players": info.max_players,
            "real_time": info.real_time, "cooperative": info.cooperative, "hidden_info": info.hidden_info,
            "options": options, "bots": _bots_for(game),
            "rules": {"en": bool(spec.rules_en), "es": bool(spec.rules_es)}}
