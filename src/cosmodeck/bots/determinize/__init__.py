"""Determinization: a full state built from one seat's view alone (for search bots).

``determinize(game, view, seat, rng)`` re-draws everything ``seat`` cannot see, uniformly
among the possibilities its view allows, and returns a genuine state of the game's own
classes. Bots never see the real state, so this is how a search bot gets states to search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State

SUPPORTED = ("shooting-star",)


def determinize(game: Game[Any], view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """A state consistent with ``view`` (what ``seat`` sees), its hidden parts drawn with ``rng``."""
    from cosmodeck.games.shooting_star.game import ShootingStarGame

    if isinstance(game, ShootingStarGame):
        from cosmodeck.bots.determinize import shooting_star

        return shooting_star.determinize(game, view, seat, rng)
    raise ValueError(f"no determinization for game {game.id!r}: the ismcts bot cannot play it")


def supported(game_id: str) -> bool:
    return game_id in SUPPORTED
