"""The simulator's bot-view hook (``sim/runner.py``): a bot whose ``view_for`` attribute is a function is given
what it returns for its seat at every look, in the turn-based loop and in both real-time loops; a bot without
one (or with None) gets the lazy whole view; a simulation-only planner (``sees_state``) still gets the state;
the games are the same as with the whole view."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.base import LazyView
from cosmodeck.bots.random_bot import RandomBot
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.sim.runner import bot_rng, play_game


class _Looking(RandomBot):
    """A random bot that records what it is given (and, with ``project``, names a projection of the view)."""

    def __init__(self, project: bool) -> None:
        super().__init__()
        self.given: list[Mapping[str, Any]] = []
        self.made: list[Mapping[str, Any]] = []
        self.view_for = self._part if project else None

    def _part(self, state: State, seat: int) -> Mapping[str, Any]:
        full = state.view(seat)
        part = {k: full[k] for k in ("seat", "now", "to_act")}
        self.made.append(part)
        return part

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        self.given.append(view)
        assert view["seat"] in view["to_act"]
        return super().act(view, legal, rng)


@pytest.mark.parametrize("reference", [False, True], ids=["loop", "reference-loop"])
@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_a_bot_is_given_its_projection_and_plays_the_same_games(timing: str, reference: bool) -> None:
    game = cosmodeck.load_game("blast-off", timing=timing)
    records = []
    for project in (True, False):
        st = game.new_game(players=3, seed=5)
        bots = [_Looking(project) for _ in range(3)]
        decisions = play_game(st, bots, bot_rng(5), 100_000, reference=reference)
        assert decisions > 10
        for b in bots:
            assert b.given
            if project:  # every look got exactly what view_for made, never the whole view
                assert len(b.given) == len(b.made) and all(g is m for g, m in zip(b.given, b.made, strict=True))
                assert all(set(g) == {"seat", "now", "to_act"} for g in b.given)
            else:
                assert not b.made and all(type(g) is LazyView for g in b.given)
        records.append(json.dumps(st.record(), sort_keys=True, default=str))
    assert records[0] == records[1]


def test_a_planner_that_sees_the_state_still_gets_the_state() -> None:
    class Planner(RandomBot):
        sees_state = True

        def __init__(self) -> None:
            super().__init__()
            self.view_for = lambda state, seat: pytest.fail("a planner is never given a view")
            self.states: list[State] = []

        def act_state(self, state: State, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
            self.states.append(state)
            return legal[rng.randbelow(len(legal))]

    game = cosmodeck.load_game("blast-off", timing="steps")
    st = game.new_game(players=2, seed=1)
    bots = [Planner(), Planner()]
    play_game(st, bots, bot_rng(1), 100_000)
    assert bots[0].states and all(s is st for b in bots for s in b.states)


@pytest.mark.parametrize("players", [2, 4])
def test_the_shooting_star_heuristic_given_its_projection_plays_the_same_games(players: int) -> None:
    from cosmodeck.bots.heuristic.shooting_star import VIEW_KEYS, ShootingStarHeuristic

    game = cosmodeck.load_game("shooting-star")
    looked: list[tuple[Mapping[str, Any], Mapping[str, Any]]] = []

    class Checked(ShootingStarHeuristic):  # a subclass gets the whole view: compare it with the projection here
        def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
            looked.append((view, projected(st, view["seat"])))
            return super().act(view, legal, rng)

    projected = ShootingStarHeuristic(game).view_for
    assert projected is not None and Checked(game).view_for is None
    records = []
    for kind in (ShootingStarHeuristic, Checked):
        st = game.new_game(players=players, seed=21)
        assert play_game(st, [kind(game) for _ in range(players)], bot_rng(21), 100_000) > 10
        records.append(json.dumps(st.record(), sort_keys=True, default=str))
    assert records[0] == records[1]
    assert looked
    for whole, part in looked:  # the projection: the whole view's entries on the heuristic's keys, nothing else
        assert list(part) == [k for k in whole if k in VIEW_KEYS]
        assert json.dumps(dict(part)) == json.dumps({k: whole[k] for k in part})
