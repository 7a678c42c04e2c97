"""Building a room's game from a client's request: names and documents, never server files.

A client names a game and gives option values. A game's card data (``options.data``) and its
file-valued options (``GameSpec.file_options``, e.g. Blast Off's ``missions``) are *documents*
sent in the request: the text itself, or a JSON object. Nothing a client sends is ever opened
as a path, so ``"/dev/stdin"`` is just text that fails to parse as card data, and no error can
tell whether a server file exists. The document's text is stored with the room (in the record
header) and every player sees "custom data" with its hash.

Parsing the documents and building the game run in a worker thread with a timeout, a few at a
time, so a large or slow document never stalls the event loop (every other room keeps playing).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cosmodeck.api import game_spec, load_game
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.game import Game
from cosmodeck.engine.options import TextInput
from cosmodeck.engine.state import State
from cosmodeck.server.protocol import ProtocolError

log = logging.getLogger("cosmodeck.server")

DATA = "data"
SEED_LIMIT = 2**63
BUILDS_AT_ONCE = 2  # concurrent game builds (uploaded documents are parsed in these threads)
# Option values a room created through the server starts from unless its creator sets them (the engine's
# and the simulator's defaults stay the spec's): in a room a false catch costs its caller one card, so
# calling "catch" at random does not pay (Blast Off! R15, ``false_catch_penalty``).
ROOM_DEFAULTS: dict[str, dict[str, Any]] = {"blast-off": {"false_catch_penalty": 1}}


@dataclass(frozen=True, slots=True)
class Built:
    game: Game[Any]
    state: State


def document(name: str, value: Any, max_bytes: int) -> TextInput:
    """A document option's value as text: a string is the text itself, an object is JSON."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False)
    else:
        raise ProtocolError("bad_data", f"option {name!r} is a document: send its text (a string) or a JSON "
                                        f"object, not a {type(value).__name__}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ProtocolError("too_large", f"option {name!r}: a document may be at most {max_bytes} bytes")
    if "\x00" in text:
        raise ProtocolError("bad_data", f"option {name!r}: the document contains a NUL character")
    return TextInput(f"uploaded {name}", text)


def split_options(game_id: str, options: Mapping[str, Any], max_bytes: int) -> tuple[TextInput | None,
                                                                                   dict[str, Any]]:
    """``(data, options)`` with every document option turned into a ``TextInput`` (never a path)."""
    try:
        spec = game_spec(game_id)
    except CosmodeckError as e:
        raise ProtocolError(e.code, e.message) from None
    opts = dict(options)
    for name, value in ROOM_DEFAULTS.get(game_id, {}).items():
        if opts.get(name) is None:
            opts[name] = value
    data = None
    if DATA in opts:
        raw = opts.pop(DATA)
        data = None if raw is None else document(DATA, raw, max_bytes)
    for name in spec.file_options:
        if name in opts and opts[name] is not None:
            opts[name] = document(name, opts[name], max_bytes)
    return data, opts


@functools.lru_cache(maxsize=64)
def _packaged_game(game_id: str, options_json: str) -> Game[Any]:
    """A game on its packaged card data (an immutable definition, shared by the rooms that use it):
    parsing and checking the data file again was most of the CPU of creating a room (profiled at 256 rooms)."""
    return load_game(game_id, **json.loads(options_json))


def _game(game_id: str, data: TextInput | None, options: dict[str, Any]) -> Game[Any]:
    if data is None and not any(isinstance(v, TextInput) for v in options.values()):
        try:
            key = json.dumps(options, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return load_game(game_id, data, **options)
        if json.loads(key) == options:  # the options survive JSON unchanged (no tuples, no int keys...)
            return _packaged_game(game_id, key)
    return load_game(game_id, data, **options)


def build_game(game_id: str, data: TextInput | None, options: dict[str, Any], players: int, seed: int) -> Built:
    """Load the game and deal a new state (run in a worker thread). Bad input -> ``ProtocolError``."""
    try:
        game = _game(game_id, data, options)
        state = game.new_game(players=players, seed=seed)
    except CosmodeckError as e:
        raise ProtocolError(e.code, e.message) from None
    except RecursionError:
        raise ProtocolError("bad_data", "the uploaded document is nested too deeply") from None
    except Exception as e:  # a malformed document must never become a 500
        log.warning("building a %s room failed: %s: %s", game_id, type(e).__name__, e)
        raise ProtocolError("bad_data", "the uploaded document or options could not be used") from None
    return Built(game, state)


class Builder:
    """Runs ``build_game`` off the event loop, at most ``BUILDS_AT_ONCE`` at a time, with a timeout.

    A thread cannot be killed: a build past the timeout is answered at once and finishes in the
    background (its input is size-capped, so it ends).
    """

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._slots = asyncio.Semaphore(BUILDS_AT_ONCE)

    async def build(self, game_id: str, data: TextInput | None, options: dict[str, Any], players: int,
                    seed: int) -> Built:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        try:
            async with asyncio.timeout_at(deadline):
                await self._slots.acquire()
        except TimeoutError:
            raise ProtocolError("busy", "the server is building other rooms; try again shortly") from None
        work = asyncio.ensure_future(asyncio.to_thread(build_game, game_id, data, options, players, seed))
        work.add_done_callback(self._finished)  # the slot is freed when the thread ends, not before
        try:
            async with asyncio.timeout_at(deadline):
                return await asyncio.shield(work)
        except TimeoutError:
            raise ProtocolError("build_timeout", f"the game could not be built within {self.timeout_s:g} s; "
                                                 "send smaller data") from None

    def _finished(self, work: asyncio.Future[Built]) -> None:
        self._slots.release()
        if not work.cancelled():
            work.exception()  # retrieved: a build answered by its timeout logs no "never retrieved" warning


def choose_seed(seed: int | None, humans: int) -> tuple[int, bool]:
    """``(seed, fixed)``: the server draws a secret seed unless the creator may and does choose one.

    A chosen seed lets whoever knows it compute every hidden card, so it is allowed only when the
    creator is the only human (every other seat is a bot); the room then shows "fixed seed".
    """
    if seed is None:
        return secrets.randbits(62), False
    if not 0 <= seed < SEED_LIMIT:
        raise ProtocolError("bad_seed", "seed must be between 0 and 2**63 - 1")
    if humans > 1:
        raise ProtocolError("seed_not_allowed", "a chosen seed would reveal the other players' hidden cards: "
                                                "a seed may be chosen only when every other seat is a bot")
    return seed, True


def header_info(header: Mapping[str, Any]) -> dict[str, Any]:
    """What every player is told about a room's setup, from its record header: its options (documents
    by hash only, never their text), its card data (packaged, or custom with its hash), and whether
    the creator chose its seed ("fixed seed"). Never the seed itself."""
    options: dict[str, Any] = {}
    for name, value in dict(header.get("options") or {}).items():
        doc = TextInput.from_json(value)
        options[name] = {"custom": True, "hash": doc.sha} if doc is not None else value
    return {"options": options, "data": {"custom": "data" in header, "hash": header.get("data_hash")},
            "fixed_seed": bool(header.get("fixed_seed"))}
