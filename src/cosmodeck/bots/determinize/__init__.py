"""Determinization: a full state built from one seat's view alone (for search bots).

``determinize(game, view, seat, rng)`` re-draws everything ``seat`` cannot see, uniformly
among the possibilities its view allows, and returns a genuine state of the game's own
classes. Bots never see the real state, so this is how a search bot gets states to search.

Each game's determinizer is the module named after the game id (``shooting-star`` ->
``shooting_star.py``) with a function ``determinize(game, view, seat, rng)``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, cast

from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State


def _module_name(game_id: str) -> str:
    return f"{__name__}.{game_id.replace('-', '_')}"


def supported(game_id: str) -> bool:
    """Whether ``game_id`` has a determinizer (so the ``ismcts`` bot can play it)."""
    if not game_id.replace("-", "_").isidentifier():
        return False
    return importlib.util.find_spec(_module_name(game_id)) is not None


@cache
def _determinizer(game_id: str) -> Callable[..., State]:
    if not supported(game_id):
        raise ValueError(f"no determinization for game {game_id!r}: the ismcts bot cannot play it")
    return cast("Callable[..., State]", importlib.import_module(_module_name(game_id)).determinize)


def determinize(game: Game[Any], view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """A state consistent with ``view`` (what ``seat`` sees), its hidden parts drawn with ``rng``."""
    return _determinizer(game.id)(game, view, seat, rng)


def load_core(game: Game[Any], players: int, now: float, rng_state: int, core: Mapping[str, Any]) -> State:
    """A genuine state of ``game`` from a game's JSON ``core`` (its ``_dump`` format), with no log."""
    obj = {"format": "cosmodeck-state/1", "game": game.id, "options": game.options_json(),
           "data_hash": game.data_hash, "players": players, "seed": 0, "now": now, "rng": str(rng_state),
           "log": [], "core": core}
    # built here from the view, so not validated again (the determinization tests validate what comes out);
    # the determinizer completes it (pending responses)
    # (the JSON round trip gives the state its own lists: nothing it changes is shared with the view)
    state: State = game._load_trusted(json.loads(json.dumps(obj)))
    return state
