"""How long a bot takes to act in a real-time game: decisions, and reactions to a called signal.

Two models, both with the levels ``easy``/``normal``/``hard``:

- ``ReactionTime``: a log-normal *decision* time with a floor (a turn's play, a look again). The
  runner (and the server) plan a bot's next move at ``now + reaction_time(rng)``; a lower median
  is a faster, harder opponent. The ``median_s``, ``sigma`` and ``min_s`` parameters override
  the level's values.
- ``CallReaction``: the reaction to a *go signal*, such as each value a Blast Off! countdown calls
  (``State.cue``). At every new call the runner and the server forget every bot's planned move
  and plan it afresh at ``call time + call_reaction_time(rng)``, so no bot carries a head start
  from one call into the next. Its parameters come from the level only (no spec parameter can
  make it faster than its floor).

The call reaction is a *shifted log-normal*: ``floor_s + LogNormal(median_s - floor_s, sigma)``,
so no sample is below ``floor_s`` and the median is ``median_s`` exactly. The parameters follow
published human data for a visual go signal:

- Simple visual reaction time (press a key when a light appears) of healthy young adults is
  about 0.2-0.25 s on average, with a positively skewed distribution (Woods, Wyma, Yund, Herron
  & Reed 2015, "Factors influencing the latency of simple reaction time", Frontiers in Human
  Neuroscience 9:131, doi:10.3389/fnhum.2015.00131; the long right tail is the reason for the
  skewed model, Luce 1986, "Response Times", Oxford University Press, ch. 1-2). Large online
  samples of clicks on a colour change show a median near 0.27 s (the Human Benchmark reaction
  time test, humanbenchmark.com/tests/reactiontime/statistics). Hence the floors: 0.22 s (hard)
  to 0.30 s (easy), faster than almost any human answer to a *choice*.
- Slapping a called value is a choice, not a simple reaction: read the number, find a matching
  card in the hand, then move to it. Choice reaction time grows with the information to process
  (Hick 1952, "On the rate of gain of information", Q. J. Exp. Psychol. 4:11-26; Hyman 1953,
  J. Exp. Psychol. 45:188-196) by roughly 0.15 s per bit, i.e. 0.2-0.35 s over simple reaction
  time for a hand of several cards. Hence the medians: 0.60 s (easy), 0.50 s (normal) and
  0.42 s (hard), with a log-scale spread (``sigma``) of 0.35-0.45.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
class CallReaction:
    """The reaction to a called signal: ``floor_s + LogNormal(median_s - floor_s, sigma)`` (see the module)."""

    median_s: float
    sigma: float
    floor_s: float
    median_range: tuple[float, float]  # the median this level declares (the server's tests hold it)

    def sample(self, rng: Rng) -> float:
        return self.floor_s + rng.lognormal(self.median_s - self.floor_s, self.sigma)


CALL_LEVELS: dict[str, CallReaction] = {
    "easy": CallReaction(0.60, 0.45, 0.30, (0.55, 0.65)),
    "normal": CallReaction(0.50, 0.40, 0.25, (0.45, 0.55)),
    "hard": CallReaction(0.42, 0.35, 0.22, (0.38, 0.46)),
}
CALL_FLOOR_S = min(c.floor_s for c in CALL_LEVELS.values())  # no bot reacts to a call faster than this


def _normal_call() -> CallReaction:
    return CALL_LEVELS["normal"]


@dataclass(frozen=True, slots=True)
class ReactionTime:
    """Log-normal decision time with a floor (no human reacts in zero seconds), and the level's call reaction."""

    median_s: float = 1.0
    sigma: float = 0.35
    min_s: float = 0.0
    call: CallReaction = field(default_factory=_normal_call)

    def sample(self, rng: Rng) -> float:
        return max(self.min_s, rng.lognormal(self.median_s, self.sigma))

    def sample_call(self, rng: Rng) -> float:
        return self.call.sample(rng)

    @staticmethod
    def from_params(p: Params, default_level: str = "normal") -> ReactionTime:
        level = p.choice("level", default_level, LEVELS)
        median, sigma, floor = LEVELS[level]
        return ReactionTime(
            p.float("median_s", median, lo=1e-3, hi=MAX_REACTION_S),
            p.float("sigma", sigma, lo=0.0, hi=MAX_SIGMA),
            p.float("min_s", floor, lo=0.0, hi=MAX_REACTION_S),
            CALL_LEVELS[level],
        )


class SampledReaction:
    """A bot whose decision time is exactly ``self.reaction.sample(rng)`` and whose call reaction is
    ``self.reaction.sample_call(rng)``. The simulator draws the decision times of such a bot without
    calling it (``sampled_reaction``), so a subclass that overrides ``reaction_time`` is called as usual."""

    reaction: ReactionTime

    def reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample(rng)

    def call_reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample_call(rng)


def sampled_reaction(bot: Any) -> tuple[float, float, float] | None:
    """``(median_s, sigma, min_s)`` when ``bot.reaction_time(rng)`` is exactly
    ``max(min_s, rng.lognormal(median_s, sigma))`` (a ``SampledReaction`` that does not override it, with a
    plain ``ReactionTime``), else ``None``."""
    if getattr(type(bot), "reaction_time", None) is not SampledReaction.reaction_time:
        return None
    if "reaction_time" in getattr(bot, "__dict__", {}):  # replaced on the instance
        return None
    r = getattr(bot, "reaction", None)
    if type(r) is not ReactionTime:
        return None
    return (r.median_s, r.sigma, r.min_s)


def call_reaction(bot: Any, rng: Rng) -> float | None:
    """Seconds from a new call to ``bot``'s first look at it; ``None``: this bot does not react to calls
    (it is not a bot of this package, e.g. a person's input adapter) and keeps its planned moment."""
    fn = getattr(bot, "call_reaction_time", None)
    if fn is None:
        return None
    return max(CALL_FLOOR_S, float(fn(rng)))
