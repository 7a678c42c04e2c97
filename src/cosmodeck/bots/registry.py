"""Bot names and the ``--bots`` syntax: one name for every seat, or one per seat.

Names (DESIGN.md): ``random``, ``heuristic``, ``ismcts``; Meteor only: ``team`` (the stronger fair
team) and ``omniscient`` (reads the whole state: simulation only, a perfect-information bound).
Parameters follow a colon and are separated by ``;`` (or ``+``), e.g. ``ismcts:iters=200;c=0.7``
or ``heuristic:level=hard``.
A bot is built for a game *definition* (options and card data are public knowledge): pass
``game=`` when the game is not the default one, so that search bots plan with the right rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cosmodeck.bots.base import Bot, parse_bot_spec
from cosmodeck.bots.params import Params
from cosmodeck.bots.random_bot import RandomBot
from cosmodeck.bots.reaction import LEVELS, MAX_REACTION_S, MAX_SIGMA, ReactionTime
from cosmodeck.engine.game import Game

BotFactory = Callable[[Game[Any], Params], Bot]
MAX_SEARCH_ITERS = 1_000_000  # ismcts iters=...: a server caps it lower (ServerConfig.bot_max_iters)
MAX_SEARCH_MS = 600_000.0  # ismcts ms=... per decision (10 minutes)


@functools.lru_cache(maxsize=8)
def _default_game(game_id: str) -> Game[Any]:
    from cosmodeck.api import load_game

    return load_game(game_id)


def _random(game: Game[Any], p: Params) -> Bot:
    if "level" in p.raw:
        reaction = ReactionTime.from_params(p)
        p.done()
        return RandomBot(reaction.median_s, reaction.sigma, reaction.min_s, reaction.call)
    median = p.float("median_s", 1.0, lo=1e-3, hi=MAX_REACTION_S)
    sigma = p.float("sigma", 0.35, lo=0.0, hi=MAX_SIGMA)
    p.done()
    return RandomBot(median, sigma)


def _heuristic(game: Game[Any], p: Params) -> Bot:
    from cosmodeck.bots.heuristic import make_heuristic

    return make_heuristic(game, p)


def _meteor_only(name: str, game: Game[Any]) -> None:
    if game.id != "meteor":
        raise ValueError(f"{name} bot: plays Meteor only, not {game.id!r}")


def _team(game: Game[Any], p: Params) -> Bot:
    _meteor_only("team", game)
    from cosmodeck.bots.heuristic.meteor_team import MeteorTeam

    return MeteorTeam.from_params(game, p, ReactionTime.from_params(p))  # type: ignore[arg-type]


def _omniscient(game: Game[Any], p: Params) -> Bot:
    """Simulation only: it reads the whole state (``sees_state``), so rooms refuse it."""
    _meteor_only("omniscient", game)
    from cosmodeck.bots.heuristic.meteor_team import MeteorOmniscient

    return MeteorOmniscient.from_params(game, p, ReactionTime.from_params(p))  # type: ignore[arg-type]


def sees_state(bot: Bot) -> bool:
    """Whether ``bot`` reads the whole state instead of its player view (a simulation-only bound)."""
    return bool(getattr(bot, "sees_state", False))


def _ismcts(game: Game[Any], p: Params) -> Bot:
    from cosmodeck.bots.determinize import determinize, supported
    from cosmodeck.bots.heuristic import prior_for
    from cosmodeck.bots.ismcts import ISMCTSBot

    if not supported(game.id):
        raise ValueError(f"ismcts bot: no determinization for game {game.id!r}")
    ms = p.float("ms", -1.0, hi=MAX_SEARCH_MS)
    iters = p.int("iters", None, lo=1, hi=MAX_SEARCH_ITERS)
    if ms <= 0 and iters is None:
        iters = 200
    prior = p.choice("prior", "heuristic", ("heuristic", "none"))
    reaction = ReactionTime.from_params(p)
    bot = ISMCTSBot(
        game, determinize, iters=iters, ms=ms if ms > 0 else None,
        c=p.float("c", 0.7, lo=0.0, hi=100.0), widen=p.float("widen", 2.0, lo=0.1, hi=1000.0),
        alpha=p.float("alpha", 0.5, lo=0.0, hi=1.0),
        prior=prior_for(game) if prior == "heuristic" else None, reaction=reaction,
        shaping=p.float("shaping", 0.25, lo=0.0, hi=1.0),
    )
    p.done()
    return bot


BOTS: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic, "ismcts": _ismcts}
# bots for one game only (Meteor's fair team): rooms list them for the games they can play
GAME_BOTS: dict[str, BotFactory] = {"team": _team}
# bots that read the whole state: the simulator runs them, rooms never list them and refuse them
SIMULATION_ONLY: dict[str, BotFactory] = {"omniscient": _omniscient}
LEVEL_NAMES = tuple(LEVELS)


def make_bot(game_id: str, spec: str, game: Game[Any] | None = None) -> Bot:
    """A bot from its spec, for ``game`` (default: the game ``game_id`` with default data and options)."""
    name, params = parse_bot_spec(spec)
    factory = BOTS.get(name) or GAME_BOTS.get(name) or SIMULATION_ONLY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; available: {', '.join(sorted([*BOTS, *GAME_BOTS]))} "
                         f"(simulation only: {', '.join(sorted(SIMULATION_ONLY))})")
    if game is None:
        game = _default_game(game_id)
    elif game.id != game_id:
        raise ValueError(f"bot for game {game_id!r} given a {game.id!r} definition")
    return factory(game, Params(name, params))


def split_bots(spec: str, players: int) -> list[str]:
    """``"random"`` -> one per seat; ``"random,heuristic"`` -> as given (must match ``players``)."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        raise ValueError("--bots is empty")
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise ValueError(f"--bots names {len(parts)} bots for {players} players (give 1 or {players})")
    return parts


def make_bots(game_id: str, spec: str, players: int, game: Game[Any] | None = None) -> list[Bot]:
    """``"random"`` for every seat, or ``"random,random,ismcts:ms=50"`` one per seat."""
    return [make_bot(game_id, p, game) for p in split_bots(spec, players)]
