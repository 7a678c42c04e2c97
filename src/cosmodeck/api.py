"""The top-level public API: list, load and replay games.

This module is the host edge for data: it reads card-data files (package resources or a
user's path) and hands their text to the games, which never do I/O themselves.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from cosmodeck.engine.errors import DataError, IllegalActionError, StateFormatError
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
              **options: Any) -> Game[Any]:
    """An immutable game definition: options plus card data (default data, or ``data=PATH``).

    ``lenient=True`` is the design mode: the data file's design invariants (docs/data-files.md) are
    reported in ``game.data.warnings`` instead of refused; what the engine needs is still an error.
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
    return spec.game_cls(data_input, opts)


def game_from_header(header: Mapping[str, Any]) -> Game[Any]:
    """The game a record or state header describes (embedded data and file options included)."""
    try:
        game_id = header["game"]
        options = dict(header.get("options") or {})
    except (KeyError, TypeError) as e:
        raise StateFormatError(f"record header is missing {e}") from None
    data_obj = header.get("data")
    data = TextInput.from_json(data_obj) if data_obj is not None else None
    if data_obj is not None and data is None:
        raise StateFormatError("record header field 'data' is malformed")
    for key, value in list(options.items()):
        restored = TextInput.from_json(value)
        if restored is not None:
            options[key] = restored
    game = load_game(game_id, data=data, **options)
    if "data_hash" in header and header["data_hash"] != game.data_hash:
        raise StateFormatError(
            f"record was made with card data {header['data_hash']}, but this data is {game.data_hash}"
        )
    return game


def replay(record: Mapping[str, Any]) -> State:
    """Rebuild the exact final state of a game record."""
    if not isinstance(record, Mapping) or record.get("format") != "cosmodeck-record/1":
        raise StateFormatError("not a cosmodeck record (format must be 'cosmodeck-record/1')")
    game = game_from_header(record)
    try:
        players, seed = int(record["players"]), int(record["seed"])
        entries = list(record["log"])
    except (KeyError, TypeError, ValueError) as e:
        raise StateFormatError(f"malformed record: {e}") from None
    state: State = game.new_game(players=players, seed=seed)
    for i, entry in enumerate(entries):
        try:
            if len(entry) == 2 and entry[1] == "advance":
                state.advance(float(entry[0]))
            else:
                state.apply(int(entry[1]), str(entry[2]), at=float(entry[0]))
        except IllegalActionError as e:
            raise StateFormatError(f"record entry {i} ({entry!r}) does not replay: {e}") from e
        except (TypeError, ValueError, IndexError) as e:
            raise StateFormatError(f"record entry {i} ({entry!r}) is malformed: {e}") from e
    return state
