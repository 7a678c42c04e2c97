"""One encoder per game: ``make_encoder(game, players)`` (see ``base`` for the contract)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game
from cosmodeck.rl.encoders.base import Encoder, Feature

EncoderFactory = Callable[[Game[Any], int], Encoder]


def _shooting_star(game: Game[Any], players: int) -> Encoder:
    from cosmodeck.rl.encoders.shooting_star import ShootingStarEncoder

    return ShootingStarEncoder(game, players)


def _blast_off(game: Game[Any], players: int) -> Encoder:
    from cosmodeck.rl.encoders.blast_off import BlastOffEncoder

    return BlastOffEncoder(game, players)


def _meteor(game: Game[Any], players: int) -> Encoder:
    from cosmodeck.rl.encoders.meteor import MeteorEncoder

    return MeteorEncoder(game, players)


ENCODERS: dict[str, EncoderFactory] = {"shooting-star": _shooting_star, "blast-off": _blast_off, "meteor": _meteor}


def make_encoder(game: Game[Any], players: int) -> Encoder:
    """The encoder of ``game`` (a loaded definition) for ``players`` seats."""
    try:
        factory = ENCODERS[game.id]
    except KeyError:
        raise OptionError(f"no RL encoder for game {game.id!r}; available: {', '.join(sorted(ENCODERS))}",
                          "rl_unsupported_game") from None
    return factory(game, players)


__all__ = ["ENCODERS", "Encoder", "Feature", "make_encoder"]
