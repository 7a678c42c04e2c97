"""The vectorised Shooting Star scores equal the readable reference's, bit for bit, on seeded games."""

from __future__ import annotations

from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.heuristic.shooting_star import scores
from cosmodeck.bots.heuristic.shooting_star_fast import fast_scores
from cosmodeck.engine.rng import Rng


def _compare(players: int, seeds: range, **options: Any) -> int:
    game = cosmodeck.load_game("shooting-star", **options)
    views = 0
    for seed in seeds:
        st = game.new_game(players=players, seed=seed)
        rng = Rng(seed + 1000)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            view = st.view(seat)
            ref = scores(game, view, legal)
            fast = fast_scores(game, view, legal)
            assert fast == ref, (seed, st.decisions, [(str(legal[i]), r, f) for i, (r, f)
                                                      in enumerate(zip(ref, fast, strict=True)) if r != f][:5])
            views += 1
            st.apply(seat, legal[rng.randbelow(len(legal))])
    return views


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_scores_equal_the_reference_on_seeded_random_games(players: int) -> None:
    assert _compare(players, range(6)) > 0


def test_fast_scores_equal_the_reference_with_two_orientations_and_the_custom_sector() -> None:
    assert _compare(3, range(4), orientations=2) > 0
    assert _compare(2, range(3), custom_sector=True) > 0  # PlacePlanet decisions go to the reference


def test_fast_scores_equal_the_reference_in_heuristic_games() -> None:
    """Heuristic play reaches other boards than random play (captures, shields, isolations)."""
    from cosmodeck.bots.registry import make_bots

    game = cosmodeck.load_game("shooting-star")
    for seed in range(4):
        st = game.new_game(players=4, seed=seed)
        bots = make_bots("shooting-star", "heuristic", 4, game)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            view = st.view(seat)
            assert fast_scores(game, view, legal) == scores(game, view, legal)
            st.apply(seat, bots[seat].act(view, legal, rng))


def test_fast_scores_of_a_subset_and_of_foreign_actions() -> None:
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=3, seed=5)
    seat = min(st.to_act)
    legal = st.legal_actions(seat)
    view = st.view(seat)
    part = legal[::7]
    assert fast_scores(game, view, part) == scores(game, view, part)
    parsed = [game.parse_action(str(a)) for a in part]  # equal actions, not the interned objects
    assert fast_scores(game, view, parsed) == scores(game, view, part)
    assert fast_scores(game, view, []) == []


def test_the_shared_mission_gain_memo_is_used_and_keyed_by_what_it_reads() -> None:
    """``fast_scores`` shares ``mission_gain`` between views of the same mission situation (missions in
    order, named planets and counts captured); the reference computes it afresh (the tests above compare)."""
    from cosmodeck.bots.heuristic.shooting_star import ShsEval
    from cosmodeck.bots.heuristic.shooting_star_fast import _codes

    game = cosmodeck.load_game("shooting-star")
    for seed in range(3):
        st = game.new_game(players=4, seed=seed)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            fast_scores(game, st.view(seat), legal)
            st.apply(seat, legal[rng.randbelow(len(legal))])
    gains = _codes(game).gains
    assert len(gains) > 4 and any(len(g) > 3 for g in gains.values())
    st = game.new_game(players=4, seed=9)
    view = st.view(0)
    shared = ShsEval(game, view, gains)
    fresh = ShsEval(game, view)
    for pid in game.data.planets:
        assert shared.mission_gain(pid) == fresh.mission_gain(pid)
