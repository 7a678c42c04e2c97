"""How long a bot takes to act in a real-time game: a log-normal reaction time with levels.

The runner (and the server) plan a bot's next move at ``now + reaction_time(rng)``; a lower
median is a faster, harder opponent. ``easy``/``normal``/``hard`` are presets that the
``median_s``, ``sigma`` and ``min_s`` parameters override.
"""

from __future__ import annotations

from dataclasses import dataclass

from cosmodeck.bots.params import Params
from cosmodeck.engine.rng import Rng

MAX_REACTION_S = 60.0  # median_s and min_s are at most this (a larger value would freeze a room)
MAX_SIGMA = 3.0

LEVELS: dict[str, tuple[float, float, float]] = {
    # level: (median seconds, log-normal sigma, floor seconds)
    "easy": (2.0, 0.45, 0.4),
    "normal": (1.0, 0.35, 0.25),
    "hard": (0.5, 0.25, 0.15),
}


@dataclass(frozen=True, slots=True)
class ReactionTime:
    """Log-normal reaction time with a floor (no human reacts in zero seconds)."""

    median_s: float = 1.0
    sigma: float = 0.35
    min_s: float = 0.0

    def sample(self, rng: Rng) -> float:
        return max(self.min_s, rng.lognormal(self.median_s, self.sigma))

    @staticmethod
    def from_params(p: Params, default_level: str = "normal") -> ReactionTime:
        level = p.choice("level", default_level, LEVELS)
        median, sigma, floor = LEVELS[level]
        return ReactionTime(
            p.float("median_s", median, lo=1e-3, hi=MAX_REACTION_S),
            p.float("sigma", sigma, lo=0.0, hi=MAX_SIGMA),
            p.float("min_s", floor, lo=0.0, hi=MAX_REACTION_S),
        )
