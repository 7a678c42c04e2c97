"""The top-level public API: list, load and replay games.

This module is the host edge for data: it reads card-data files (package resources or a
user's path) and hands their text to the games, which never do I/O themselves.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import pkgutil
from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from cosmodeck.engine.errors import DataError, IllegalActionError, NotationError, OptionError, RecordFormatError
from cosmodeck.engine.game import Game
from cosmodeck.engine.options import TextInput
from cosmodeck.engine.registry import GameSpec, get_spec, registered
from cosmodeck.engine.state import State


@functools.cache
def _ensure_games() -> None:
    """Import every game package once; each registers itself."""
    games = importlib.import_module("cosmodeck.games")
    for mod in pkgutil.iter_modules(games.__path__):
        if mod.ispkg:
            importlib.import_module(f"cosmodeck.games.{mod.name}")


def list_games() -> list[str]:
    """Ids of every registered game, sorted."""
    _ensure_games()
    return registered()


def game_spec(game_id: str) -> GameSpec:
    _ensure_games()
    return get_spec(game_id)


def default_data(game_id: str) -> TextInput:
    spec = game_spec(game_id)
    text = resources.files(spec.data_package).joinpath(spec.data_file).read_text(encoding="utf-8")
    return TextInput(f"{spec.data_package}/{spec.data_file}", text, default=True)


def read_input(path: str | os.PathLike[str], field: str = "data") -> TextInput:
    """Read a user's file; a missing or unreadable file is a ``DataError`` naming it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(str(p), field, "file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(str(p), field, f"cannot read file: {e}") from None
    return TextInput(str(p), text)


def load_game(game_id: str, data: str | os.PathLike[str] | TextInput | None = None, *, lenient: bool = False,
              fast: bool = True, **options: Any) -> Game[Any]:
    """An immutable game definition: options plus card data (default data, or ``data=PATH``).

    ``lenient=True`` is the design mode: the data file's design invariants (docs/data-files.md) are
    reported in ``game.data.warnings`` instead of refused; what the engine needs is still an error.
    ``fast=False`` runs the readable reference rules only, never a fast path (docs/ENGINE.md); both give
    identical states, events, views and records.
    """
    spec = game_spec(game_id)
    if data is None:
        data_input = default_data(game_id)
    elif isinstance(data, TextInput):
        data_input = data
    else:
        data_input = read_input(data)
    if lenient and not data_input.lenient:
        data_input = replace(data_input, lenient=True)
    opts = dict(options)
    for name in spec.file_options:
        value = opts.get(name)
        if value is not None and not isinstance(value, TextInput):
            restored = TextInput.from_json(value)
            opts[name] = restored if restored is not None else read_input(value, name)
    game = spec.game_cls(data_input, opts)
    game.fast = fast
    return game


def game_from_header(header: Mapping[str, Any]) -> Game[Any]:
    """The game a record or state header describes (embedded data and file options included).

    A header never names a file on this machine: file options and data must be embedded.
    """
    try:
        game_id = header["game"]
        options = header.get("options") or {}
    except (KeyError, TypeError, AttributeError) as e:
        raise RecordFormatError(f"record header is missing {e}", "record_header", "game") from None
    if not isinstance(game_id, str):
        raise RecordFormatError("record header field 'game' must be a game id", "record_header", "game")
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise RecordFormatError("record header field 'options' must be an object of option values",
                                "record_header", "options")
    options = dict(options)
    data_obj = header.get("data")
    data = TextInput.from_json(data_obj) if data_obj is not None else None
    if data_obj is not None and data is None:
        raise RecordFormatError("record header field 'data' is malformed", "record_header", "data")
    spec = game_spec(game_id)
    for key, value in list(options.items()):
        restored = TextInput.from_json(value)
        if restored is not None:
            options[key] = restored
        elif key in spec.file_options and value is not None:
            raise RecordFormatError(f"record option {key!r} must embed its file (a record never names a path)",
                                    "record_header", f"options.{key}")
    try:
        game = load_game(game_id, data=data, **options)
    except (OptionError, DataError) as e:
        raise RecordFormatError(f"record header: {e.message}", "record_header", "options") from e
    if "data_hash" in header and not game.accepts_data_hash(header["data_hash"]):
        raise RecordFormatError(
            f"record was made with card data {header['data_hash']}, but this data is {game.data_hash}",
            "record_header", "data_hash")
    return game


def _record_log(record: Mapping[str, Any], players: int) -> list[list[Any]]:
    entries = record.get("log")
    if not isinstance(entries, list):
        raise RecordFormatError("record field 'log' must be a list", "record_log", "log")
    last = 0.0
    for i, entry in enumerate(entries):
        f = f"log[{i}]"
        ok = isinstance(entry, list) and (
            (len(entry) == 2 and entry[1] == "advance")
            or (len(entry) == 3 and isinstance(entry[1], int) and not isinstance(entry[1], bool)
                and 0 <= entry[1] < players and isinstance(entry[2], str)))
        if not ok:
            raise RecordFormatError(f"{f}: {str(entry)[:80]} is not [time, seat, action] or [time, 'advance']",
                                    "record_log", f)
        t = entry[0]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < last:
            raise RecordFormatError(f"{f}: time {t!r} must be a finite number, not before {last}", "record_log", f)
        last = float(t)
    return entries


def replay(record: Mapping[str, Any], *, check: bool = False) -> State:
    """Rebuild the exact final state of a game record.

    Raises ``RecordFormatError`` (with ``.code`` and ``.field``) for a malformed header or log, or a log
    that does not replay. ``check=True`` also requires the recorded result and log to be reproduced.
    """
    if not isinstance(record, Mapping) or record.get("format") != "cosmodeck-record/1":
        raise RecordFormatError("not a cosmodeck record (format must be 'cosmodeck-record/1')", "record_header",
                                "format")
    game = game_from_header(record)
    players, seed = record.get("players"), record.get("seed")
    info = game.info
    if isinstance(players, bool) or not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        raise RecordFormatError(f"record field 'players' must be {info.min_players}..{info.max_players}, "
                                f"not {str(players)[:40]}", "record_header", "players")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordFormatError("record field 'seed' must be an integer", "record_header", "seed")
    entries = _record_log(record, players)
    try:
        state: State = game.new_game(players=players, seed=seed)
    except OptionError as e:
        raise RecordFormatError(f"record header: {e.message}", "record_header", "players") from e
    for i, entry in enumerate(entries):
        try:
            if len(entry) == 2:
                state.advance(float(entry[0]))
            else:
                state.apply(entry[1], entry[2], at=float(entry[0]))
        except (IllegalActionError, NotationError) as e:
            raise RecordFormatError(f"record entry {i} ({str(entry)[:80]}) does not replay: {e}", "record_replay",
                                    f"log[{i}]") from e
    if check:
        res = state.result
        if record.get("result") != (None if res is None else res.to_dict()):
            raise RecordFormatError("the replayed result differs from the recorded one", "record_tampered", "result")
        if state.record()["log"] != entries:
            raise RecordFormatError("the replayed log differs from the record", "record_tampered", "log")
    return state
