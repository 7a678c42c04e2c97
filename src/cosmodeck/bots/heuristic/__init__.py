"""One heuristic bot per game; each sees only ``(view, legal actions, rng)``."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from cosmodeck.bots.base import Bot
from cosmodeck.bots.params import Params
from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.engine.game import Game


def make_heuristic(game: Game[Any], p: Params) -> Bot:
    from cosmodeck.games.blast_off.game import BlastOffGame
    from cosmodeck.games.meteor.game import MeteorGame
    from cosmodeck.games.shooting_star.game import ShootingStarGame

    reaction = ReactionTime.from_params(p)
    if isinstance(game, ShootingStarGame):
        from cosmodeck.bots.heuristic.shooting_star import ShootingStarHeuristic

        noise = p.float("noise", 0.0, lo=0.0, hi=100.0)
        p.done()
        return ShootingStarHeuristic(game, noise, reaction)
    if isinstance(game, MeteorGame):
        from cosmodeck.bots.heuristic.meteor import MeteorHeuristic

        return MeteorHeuristic.from_params(game, p, reaction)
    if isinstance(game, BlastOffGame):
        from cosmodeck.bots.heuristic.blast_off import BlastOffHeuristic

        return BlastOffHeuristic.from_params(game, p, reaction)
    raise ValueError(f"no heuristic bot for game {game.id!r}")


# the module (under this package) whose ``prior(game)`` gives a game's ISMCTS widening order
PRIORS = {"shooting-star": "shooting_star", "blast-off": "blast_off_prior", "meteor": "meteor_prior"}


def prior_for(game: Game[Any]) -> Any:
    """The game's heuristic as an ISMCTS widening order, or ``None`` when it has none."""
    name = PRIORS.get(game.id)
    if name is None or importlib.util.find_spec(f"{__name__}.{name}") is None:
        return None
    return importlib.import_module(f"{__name__}.{name}").prior(game)
