"""The looks of seats that already waited at an unchanged state, played without asking their bots.

In the real-time loop (``sim/runner.py:_play_realtime``) a ``steady`` bot that waited is not asked again
until the state changes, but every one of its planned looks still draws its next reaction time, so the
generator's stream stays the reference loop's. Between two changes of a state these draws are most of
a Meteor simulation's looks (about 18 a decision with heuristic bots). ``skip_waits`` plays them in one
call: the readable version here, and the same loop compiled (``looks_fast.pyx``), used when it is built.
Both draw ``max(1e-3, max(min_s, rng.lognormal(median_s, sigma)))`` (``ReactionTime.sample`` and the
loop's floor) with the same arithmetic, so the plans, the generator and therefore the games are equal
(``tests/sim/test_looks.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cosmodeck.engine.rng import Rng

IDLE_LIMIT = 100_000  # looks in a row that all wait: the game is stuck (sim/runner.py raises)
Reaction = tuple[float, float, float] | None  # (median_s, sigma, min_s) of a sampled reaction (bots/reaction.py)


def skip_waits_py(plans: dict[int, float], waiting: set[int], deadline: float | None,
                  reactions: Sequence[Reaction], rng: Rng, idle_rounds: int) -> tuple[int, float, int]:
    """Play the earliest looks while they belong to ``waiting`` seats with a sampled reaction, before
    ``deadline``: each plans the seat's next look after a fresh reaction time (at least 1 ms).

    Returns the earliest look left (seat, time; ``(-1, inf)`` when no seat has one) and the count of
    waiting looks in a row; it stops early once that count passes ``IDLE_LIMIT``.
    """
    limit = float("inf") if deadline is None else deadline
    while True:
        seat, t = -1, float("inf")
        for s, when in plans.items():
            if when < t or (when == t and s < seat):
                seat, t = s, when
        if seat < 0 or limit <= t or seat not in waiting:
            return seat, t, idle_rounds
        r = reactions[seat]
        if r is None:
            return seat, t, idle_rounds
        median, sigma, floor = r
        delay = max(floor, rng.lognormal(median, sigma))  # ReactionTime.sample
        plans[seat] = t + max(1e-3, delay)
        idle_rounds += 1
        if idle_rounds > IDLE_LIMIT:
            return seat, t, idle_rounds


def sampled_delay_py(reaction: tuple[float, float, float], rng: Rng) -> float:
    """The loop's next-look delay of a bot with a sampled reaction: ``max(1e-3, reaction_time(rng))``."""
    median, sigma, floor = reaction
    return max(1e-3, max(floor, rng.lognormal(median, sigma)))  # noqa: PLW3301 (ReactionTime.sample, then the floor)
