"""The other seats of a Gymnasium environment: bot specs, ``Bot`` objects or policies.

``opponents`` takes, for every other seat at once or as a sequence with one entry per opponent
in seat order:

- a bot spec string (``"random"``, ``"heuristic"``, ``"ismcts:iters=50"``; a comma-separated string
  names one per opponent), made by ``cosmodeck.bots.make_bot`` for the environment's own game
  definition (its options and card data);
- a ``Bot`` object (anything with ``act(view, legal, rng)`` and ``reaction_time(rng)``); a single
  object given for several seats is deep-copied for each (sharing only the immutable game
  definition), so no bot's memory spans two seats;
- a policy: any callable ``(observation, action_mask) -> action index`` over the environment's
  own observation vector and catalog (a trained agent, a frozen checkpoint for self-play). It is
  shared, not copied. In a real-time game it decides at every tick its seat may act, and may
  choose the catalog's ``wait`` action.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from cosmodeck.bots import Bot, make_bot
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game

Policy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
Opponent: TypeAlias = "str | Bot | Policy"


class PolicyOpponent:
    """A policy in an opponent's seat: it sees the seat's observation and mask, returns an index."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = getattr(policy, "__name__", type(policy).__name__)

    def choose(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        raw = self.policy(observation, mask)
        try:
            index = int(np.asarray(raw).reshape(()))
        except (TypeError, ValueError):
            raise OptionError(f"opponent policy {self.name!r} returned {raw!r}, not one action index") from None
        if not 0 <= index < len(mask) or not mask[index]:
            raise OptionError(f"opponent policy {self.name!r} chose action {index}, which its mask forbids")
        return index


Seat: TypeAlias = "Bot | PolicyOpponent"


def is_bot(obj: object) -> bool:
    return callable(getattr(obj, "act", None)) and callable(getattr(obj, "reaction_time", None))


def _copy(bot: Bot, game: Game[Any]) -> Bot:
    """A deep copy sharing only the (immutable) game definitions it refers to."""
    memo: dict[int, Any] = {id(game): game}
    for value in vars(bot).values() if hasattr(bot, "__dict__") else ():
        if isinstance(value, Game):
            memo[id(value)] = value
    try:
        return copy.deepcopy(bot, memo)
    except (TypeError, copy.Error):
        raise OptionError(f"bot {bot.name!r} cannot be copied for several seats: give one bot per opponent") from None


def _one(item: object, game: Game[Any], copies: int) -> list[Seat]:
    if isinstance(item, str):
        try:
            return [make_bot(game.id, item.strip(), game) for _ in range(copies)]
        except OptionError:
            raise
        except ValueError as e:
            raise OptionError(f"opponents: {e}") from None
    if is_bot(item):
        bot: Bot = item  # type: ignore[assignment]
        return [bot] if copies == 1 else [_copy(bot, game) for _ in range(copies)]
    if callable(item):
        return [PolicyOpponent(item)] * copies
    raise OptionError(f"an opponent is a bot spec, a Bot or a policy callable, not {type(item).__name__}")


def resolve(opponents: object, game: Game[Any], players: int) -> list[Seat]:
    """One player program per opponent seat, in seat order; see the module docstring."""
    n = players - 1
    if isinstance(opponents, str):
        items: Sequence[object] = [p for p in opponents.split(",") if p.strip()]
        if not items:
            raise OptionError("opponents is empty: name a bot such as 'random'")
    elif isinstance(opponents, Sequence):
        items = list(opponents)
    else:
        items = [opponents]
    if len(items) == 1:
        return _one(items[0], game, n)
    if len(items) != n:
        raise OptionError(f"opponents names {len(items)} players for {n} opponents (give 1 or {n})")
    return [seat for item in items for seat in _one(item, game, 1)]


def copy_bots(opponents: object, game: Game[Any]) -> object:
    """``opponents`` for another environment: ``Bot`` objects copied, specs and policies as they are."""
    if isinstance(opponents, str):
        return opponents
    if isinstance(opponents, Sequence):
        return [copy_bots(item, game) for item in opponents]
    if is_bot(opponents):
        bot: Bot = opponents  # type: ignore[assignment]
        return _copy(bot, game)
    return opponents
