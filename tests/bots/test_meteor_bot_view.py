"""The Meteor heuristic reads the game's bot view (``games/meteor/view_bot.py``, issue 15): the simulator gives it
``view_for`` (``bot_view``) at every look, and it plays exactly the games it plays from the whole lazy view (the
same records, decisions and results; seeded games of 1-5 players at every difficulty, mixed with other bots); a
subclass (the team, which reads other keys) gets the whole view; a view given as a plain mapping is not memoised
across calls (a test may edit it), the engine's bot view is."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.base import LazyView
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic
from cosmodeck.bots.heuristic.meteor_team import MeteorTeam
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.state import State
from cosmodeck.games.meteor.view_bot import BotView, bot_view
from cosmodeck.sim.runner import bot_rng, play_game


def test_the_heuristic_alone_is_given_the_bot_view() -> None:
    game = load_game("meteor")
    assert MeteorHeuristic(game).view_for is bot_view
    assert MeteorTeam(game).view_for is None  # it reads keys the projection leaves out
    bots = make_bots("meteor", "heuristic", 3, game)
    assert all(type(b) is MeteorHeuristic and b.view_for is bot_view for b in bots)


def _play(bots_spec: str, players: int, options: dict[str, Any], seed: int, project: bool) -> tuple[str, int, Any]:
    game = load_game("meteor", **options)
    st = game.new_game(players=players, seed=seed)
    bots = make_bots("meteor", bots_spec, players, game)
    looks: list[Mapping[str, Any]] = []
    for b in bots:
        if type(b) is MeteorHeuristic:
            if project:
                def given(state: State, seat: int, b: Any = b) -> Mapping[str, Any]:
                    view = bot_view(state, seat)  # type: ignore[arg-type]
                    looks.append(view)
                    return view
                b.view_for = given
            else:
                b.view_for = None  # the whole (lazy) view, as before the projection
    decisions = play_game(st, bots, bot_rng(seed), 100_000)
    if project and "heuristic" in bots_spec:
        assert looks and all(type(v) is BotView for v in looks)
    result = st.result
    assert result is not None
    return json.dumps(st.record(), sort_keys=True, default=str), decisions, result.to_dict()


@pytest.mark.parametrize(("bots", "players", "options", "seed"), [
    ("heuristic", 1, {}, 1),
    ("heuristic", 2, {"difficulty": "advanced"}, 2),
    ("heuristic", 3, {"difficulty": "expert"}, 3),
    ("heuristic", 4, {}, 4),
    ("heuristic", 5, {"difficulty": "advanced"}, 5),
    ("heuristic,team,random", 3, {"difficulty": "expert"}, 6),
    ("heuristic", 4, {"first_game": True}, 7),
])
def test_it_plays_the_same_games_as_from_the_whole_view(bots: str, players: int, options: dict[str, Any],
                                                       seed: int) -> None:
    assert _play(bots, players, options, seed, True) == _play(bots, players, options, seed, False)


def test_only_engine_views_are_memoised() -> None:
    game = load_game("meteor")
    st = game.new_game(players=2, seed=3)
    st.apply(0, "start")
    bot = MeteorHeuristic(game)
    rng = bot_rng(1)
    seen: list[bool] = []
    real = bot._decide

    def spy(view: Mapping[str, Any], legal: Any, rng: Any) -> Any:
        seen.append(bot._memo_on)
        return real(view, legal, rng)

    bot._decide = spy  # type: ignore[method-assign]
    legal = st.legal_actions(0)
    bot.act(bot_view(st, 0), legal, rng)
    bot.act(dict(bot_view(st, 0)), legal, rng)
    bot.act(LazyView(lambda: st.view(0)), legal, rng)
    assert seen == [True, False, True]
