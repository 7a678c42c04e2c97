"""Fair bots in real-time Blast Off! countdowns (issue 12, "Fair bots"), on the simulator's virtual clock.

Every bot reacts to each newly called value afresh: its slap comes at least its level's floor after
the call, and the median over >= 200 calls lies in the level's declared range.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots import make_bots
from cosmodeck.bots.reaction import CALL_FLOOR_S, CALL_LEVELS, CallReaction
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.sim.runner import bot_rng, play_game

SLAPS = ("slap_accepted", "slap_bounced")


class SlapClock:
    """A simulator sink: the seconds from the call standing to each slap, and the calls made."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.called: float | None = None  # the cue standing before the step the sink hears of
        self.samples: list[float] = []
        self.calls = 0

    def __call__(self, seat: int | None, events: list[Event]) -> None:
        self.calls += sum(1 for e in events if e.type == "countdown_called")
        if seat is not None and any(e.type in SLAPS for e in events):
            assert self.called is not None, "a slap with no call standing"
            self.samples.append(self.st.now - self.called)
        self.called = self.st.cue()


def slap_reactions(spec: str, min_calls: int, players: int = 4, **options: Any) -> tuple[list[float], int]:
    """Seconds from each call to every bot slap on it, and the number of calls, over seeded games."""
    game = cosmodeck.load_game("blast-off", **options)
    samples: list[float] = []
    calls = 0
    seed = 0
    while calls < min_calls:
        st = game.new_game(players=players, seed=seed)
        clock = SlapClock(st)
        play_game(st, make_bots("blast-off", spec, players, game), bot_rng(seed), sink=clock)
        samples += clock.samples
        calls += clock.calls
        seed += 1
    return samples, calls


def test_call_levels_are_human_like() -> None:
    for level in CALL_LEVELS.values():
        lo, hi = level.median_range
        assert 0.2 <= level.floor_s < lo <= level.median_s <= hi <= 0.7
    assert CALL_FLOOR_S == CALL_LEVELS["hard"].floor_s == 0.22
    assert CALL_LEVELS["hard"].median_s < CALL_LEVELS["normal"].median_s < CALL_LEVELS["easy"].median_s
    rng = Rng(7)
    for level in CALL_LEVELS.values():
        xs = [level.sample(rng) for _ in range(4000)]
        assert min(xs) >= level.floor_s
        assert abs(statistics.median(xs) - level.median_s) < 0.02


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("bot", ["heuristic", "random", "ismcts:iters=5"])
def test_BLO_10_2_bots_react_to_each_call_afresh_with_a_floor(bot: str, level: str) -> None:
    spec = f"{bot};level={level}" if ":" in bot else f"{bot}:level={level}"
    model: CallReaction = CALL_LEVELS[level]
    samples, calls = slap_reactions(spec, 200)
    assert calls >= 200 and len(samples) >= 40
    assert min(samples) >= model.floor_s - 1e-9, (min(samples), model.floor_s)
    if bot == "heuristic":  # it slaps on its first look: the median is the model's
        lo, hi = model.median_range
        assert lo <= statistics.median(samples) <= hi, statistics.median(samples)


def test_the_old_carry_over_is_gone_a_plan_made_before_a_call_does_not_count() -> None:
    """A bot planned to look late in one call (a slow decision time) still looks at the next call
    only after its call reaction: with a 20 s decision time and 0.25 s calls, no slap comes before
    the floor, and slaps still happen (the plan is remade at each call)."""
    samples, _calls = slap_reactions("heuristic:level=hard;median_s=20;min_s=0.001", 60, tick_s=0.6)
    assert samples and min(samples) >= CALL_LEVELS["hard"].floor_s - 1e-9


def test_the_simulator_is_still_deterministic() -> None:
    a, ca = slap_reactions("heuristic:level=normal", 30)
    b, cb = slap_reactions("heuristic:level=normal", 30)
    assert (a, ca) == (b, cb)
