"""The uniform random bot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.reaction import CALL_LEVELS, CallReaction
from cosmodeck.engine.rng import Rng


class RandomBot:
    """Picks a legal action uniformly at random; reacts after a log-normal delay."""

    def __init__(self, median_s: float = 1.0, sigma: float = 0.35, min_s: float = 0.0,
                 call: CallReaction | None = None) -> None:
        if median_s <= 0 or sigma < 0:
            raise ValueError("random bot: median_s must be > 0 and sigma >= 0")
        self.name = "random"
        self.median_s = median_s
        self.sigma = sigma
        self.min_s = min_s
        self.call = call or CALL_LEVELS["normal"]

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if not legal:
            return None
        return legal[rng.randbelow(len(legal))]

    def reaction_time(self, rng: Rng) -> float:
        return max(self.min_s, rng.lognormal(self.median_s, self.sigma))

    def call_reaction_time(self, rng: Rng) -> float:
        return self.call.sample(rng)
