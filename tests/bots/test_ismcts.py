"""ISMCTS: legal, deterministic under an iteration budget, and stronger than chance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots import make_bot
from cosmodeck.bots.ismcts import WAIT, ISMCTSBot, rewards
from cosmodeck.engine.game import Game
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import simulate
from tests.engine.toy import TOY_DATA, ToyGame, ToyState


def test_rewards_share_wins_and_stay_in_range() -> None:
    solo = Result.ranked("end", {0: 10.0, 1: 4.0})
    r = rewards(solo, 2)
    assert r[0] > 0.75 and r[1] < 0.25 and all(0.0 <= x <= 1.0 for x in r)
    assert rewards(solo, 2, shaping=0.0) == [1.0, 0.0]
    tie = Result.ranked("end", {0: 5.0, 1: 5.0, 2: 1.0})
    assert rewards(tie, 3, shaping=0.0) == [0.5, 0.5, 0.0]
    team = Result("won", frozenset({0, 1}), ((0, 1),), None, True, {})
    assert rewards(team, 2) == [1.0, 1.0]


def test_an_iteration_budget_is_deterministic_and_legal() -> None:
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=3, seed=4)
    seat = min(st.to_act)
    legal = st.legal_actions(seat)
    picks = []
    for _ in range(2):
        bot = make_bot("shooting-star", "ismcts:iters=25", game)
        assert isinstance(bot, ISMCTSBot)
        picks.append(bot.act(st.view(seat), legal, Rng(9)))
        assert bot.last_iterations == 25
    assert picks[0] == picks[1] and picks[0] in legal


def test_a_millisecond_budget_runs_at_least_one_iteration() -> None:
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=2, seed=4)
    seat = min(st.to_act)
    bot = make_bot("shooting-star", "ismcts:ms=1", game)
    assert isinstance(bot, ISMCTSBot)
    assert bot.act(st.view(seat), st.legal_actions(seat), Rng(1)) in st.legal_actions(seat)
    assert bot.last_iterations >= 1


def test_search_without_the_heuristic_prior_still_beats_random() -> None:
    """Plain ISMCTS (random widening order) must beat uniform random play: a broken search would not."""
    bot = "ismcts:iters=40;prior=none"
    wins = 0
    for seats, seed in (((bot, "random"), 1), (("random", bot), 2)):
        s = simulate(SimSpec("shooting-star", 2, 3, seed=seed, bots=",".join(seats)))
        wins += s["wins_by_seat"][seats.index(bot)]
    assert wins >= 5  # of 6


def _toy_determinizer(game: Game[Any], view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    """The toy race hides only each seat's 'secret', which nothing depends on: rebuild from the view."""
    st = game.new_game(players=int(view["players"]), seed=rng.randbelow(1000))
    assert isinstance(st, ToyState)
    st.counter = int(view["counter"])
    st.adds = list(view["adds"])
    st.now = float(view["now"])
    st.tick_at = view["deadline"]
    return st


def test_real_time_search_prefers_the_bigger_step() -> None:
    """Flat ISMCTS in a real-time game: adding 2 beats adding 1 and beats waiting."""
    game = ToyGame(TOY_DATA, {"tick": 5.0})
    st = game.new_game(players=2, seed=1)
    bot = ISMCTSBot(game, _toy_determinizer, iters=150)
    picks = [bot.act(st.view(0), st.legal_actions(0), Rng(k)) for k in range(3)]
    assert all(str(p) == "add 2" for p in picks), picks
    assert WAIT not in picks


def test_budget_is_required() -> None:
    with pytest.raises(ValueError, match="budget"):
        ISMCTSBot(cosmodeck.load_game("shooting-star"), _toy_determinizer, iters=None, ms=None)
