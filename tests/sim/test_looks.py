"""The waiting looks played in one call (``sim/looks.py``) are the readable loop's, compiled or not (issue 15).

``skip_waits`` (compiled from ``sim/looks_fast.pyx``) must leave the same plans, the same generator state and
return the same (seat, time, count) as ``skip_waits_py`` on any plans; the games of both real-time loops
are compared in ``test_realtime_loop.py``. A longer run is ``_compare`` over more seeds.
"""

from __future__ import annotations

import importlib

import pytest

from cosmodeck.bots.heuristic.meteor import MeteorHeuristic
from cosmodeck.bots.heuristic.meteor_team import MeteorTeam
from cosmodeck.bots.reaction import ReactionTime, sampled_reaction
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.sim import looks
from cosmodeck.sim.looks import IDLE_LIMIT, Reaction, skip_waits_py


def test_the_compiled_loop_is_built() -> None:
    """CI builds the .pyx files (setup.py): a missing build would silently run the readable loop."""
    fast = importlib.import_module("cosmodeck.sim.looks_fast")
    from cosmodeck.sim import runner

    assert runner.skip_waits is fast.skip_waits
    assert runner.sampled_delay is fast.sampled_delay


def _case(rng: Rng) -> tuple[dict[int, float], set[int], float | None, list[Reaction], int]:
    n = 1 + rng.randbelow(8)
    grid = [0.25 * rng.randbelow(12) for _ in range(3)]  # a few shared times: ties between seats
    plans = {s: (grid[rng.randbelow(3)] if rng.random() < 0.4 else 3.0 * rng.random())
             for s in range(n) if rng.random() < 0.8}
    waiting = {s for s in range(n) if rng.random() < 0.7}
    reactions: list[Reaction] = []
    for _ in range(n):
        kind = rng.randbelow(5)
        if kind == 0:
            reactions.append(None)
        elif kind == 1:  # a tiny median: the 1 ms floor of the loop
            reactions.append((1e-4 * rng.random(), 0.5 * rng.random(), 0.0))
        elif kind == 2:  # a floor above most samples
            reactions.append((0.5, 0.35, 0.6 * rng.random() + 0.3))
        else:
            reactions.append((0.2 + 2.0 * rng.random(), 3.0 * rng.random() if kind == 3 else 0.0, 0.25))
    deadline = None if rng.random() < 0.3 else 20.0 * rng.random()
    # with no deadline only the idle limit stops a run of waits: start near it
    idle = rng.randbelow(50) if deadline is not None and rng.random() < 0.8 else IDLE_LIMIT - rng.randbelow(300)
    return plans, waiting, deadline, reactions, idle


def _compare(seeds: range) -> int:
    fast = importlib.import_module("cosmodeck.sim.looks_fast").skip_waits
    draws = 0
    for seed in seeds:
        plans, waiting, deadline, reactions, idle = _case(Rng(seed))
        state = Rng(seed * 7919 + 1).state
        a_plans, b_plans = dict(plans), dict(plans)
        a_rng, b_rng = Rng(raw_state=state), Rng(raw_state=state)
        a = skip_waits_py(a_plans, set(waiting), deadline, reactions, a_rng, idle)
        b = fast(b_plans, set(waiting), deadline, reactions, b_rng, idle)
        assert a == b, seed
        assert list(a_plans.items()) == list(b_plans.items()), seed  # same values, same order
        assert a_rng.state == b_rng.state, seed
        draws += a[2] - idle
    return draws


def test_compiled_equals_readable() -> None:
    assert _compare(range(3000)) > 20_000  # many draws, not only early stops


def test_readable_loop_draws_as_the_bot() -> None:
    """skip_waits_py's draw is the bot's own reaction time (floored at 1 ms), look after look."""
    bot = MeteorHeuristic(_game(), reaction=ReactionTime(0.8, 0.4, 0.3))
    r = sampled_reaction(bot)
    assert r == (0.8, 0.4, 0.3)
    plans = {0: 1.0, 1: 50.0}
    rng, mine = Rng(5), Rng(5)
    seat, t, idle = skip_waits_py(plans, {0}, 40.0, [r, r], rng, 0)
    expect = 1.0
    for _ in range(idle):
        expect = expect + max(1e-3, bot.reaction_time(mine))
    assert seat == 0 and idle > 10
    assert plans[0] == expect == t and t >= 40.0 and rng.state == mine.state


def test_only_plain_reactions_are_drawn_by_the_loop() -> None:
    game = _game()
    assert sampled_reaction(MeteorHeuristic(game)) == (1.0, 0.35, 0.0)
    assert sampled_reaction(MeteorTeam(game)) is None  # it adds to its draw: it is called

    class Slow(MeteorHeuristic):
        def reaction_time(self, rng: Rng) -> float:
            return 2.0 * super().reaction_time(rng)

    assert sampled_reaction(Slow(game)) is None

    class OddReaction(ReactionTime):
        pass

    assert sampled_reaction(MeteorHeuristic(game, reaction=OddReaction())) is None
    patched = MeteorHeuristic(game)
    patched.reaction_time = lambda rng: 0.5  # type: ignore[method-assign]
    assert sampled_reaction(patched) is None


def test_stops_at_the_idle_limit() -> None:
    plans = {0: 0.0}
    seat, _, idle = looks.skip_waits_py(plans, {0}, None, [(1e-6, 0.0, 0.0)], Rng(1), IDLE_LIMIT - 3)
    assert (seat, idle) == (0, IDLE_LIMIT + 1)


def _game() -> MeteorGame:
    from cosmodeck.api import load_game

    game = load_game("meteor")
    assert isinstance(game, MeteorGame)
    return game


@pytest.mark.parametrize("n", [17])
def test_many_seats_use_the_readable_loop(n: int) -> None:
    fast = importlib.import_module("cosmodeck.sim.looks_fast").skip_waits
    plans = {s: float(s) for s in range(n)}
    r: Reaction = (1.0, 0.35, 0.0)
    a_plans, b_plans = dict(plans), dict(plans)
    a_rng, b_rng = Rng(3), Rng(3)
    assert skip_waits_py(a_plans, set(range(n)), 9.0, [r] * n, a_rng, 0) == fast(b_plans, set(range(n)), 9.0,
                                                                                  [r] * n, b_rng, 0)
    assert a_plans == b_plans and a_rng.state == b_rng.state


def test_compiled_delay_equals_the_bots_draw() -> None:
    """One look's delay (``sampled_delay``, compiled) is ``max(1e-3, bot.reaction_time(rng))`` draw for draw."""
    fast = importlib.import_module("cosmodeck.sim.looks_fast").sampled_delay
    game = _game()
    case = Rng(99)
    for i in range(3000):
        reaction = ReactionTime(1e-4 + 2.0 * case.random(), 3.0 * case.random() if i % 3 else 0.0,
                                0.6 * case.random() if i % 2 else 0.0)
        bot = MeteorHeuristic(game, reaction=reaction)
        r = sampled_reaction(bot)
        assert r is not None
        a, b, c = Rng(i), Rng(i), Rng(i)
        expect = max(1e-3, bot.reaction_time(a))
        assert looks.sampled_delay_py(r, b) == expect == fast(r, c), i
        assert a.state == b.state == c.state


def test_the_readable_kernels_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled module (a tree built without a C compiler) the loop plays the same games."""
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.sim import runner

    def play() -> tuple[str, int, int]:
        game = load_game("meteor")
        state = game.new_game(players=4, seed=5)
        rng = runner.bot_rng(5)
        decisions = runner.play_game(state, make_bots("meteor", "heuristic", 4, game), rng)
        return str(state.record()), decisions, rng.state

    compiled = play()
    monkeypatch.setattr(runner, "skip_waits", looks.skip_waits_py)
    monkeypatch.setattr(runner, "sampled_delay", looks.sampled_delay_py)
    assert play() == compiled
