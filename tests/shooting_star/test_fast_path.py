"""The Shooting Star fast path equals the readable reference rules, step for step, on seeded games.

Both games are loaded from the same data and options, one with ``fast=True`` (the default) and one with
``fast=False``; every step compares who acts, the legal lists, the events, every seat's and a spectator's
view, and at the end the records, results and state JSON.
"""

from __future__ import annotations

from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import fast


def _play(players: int, seeds: range, **options: Any) -> int:
    quick = cosmodeck.load_game("shooting-star", **options)
    ref = cosmodeck.load_game("shooting-star", fast=False, **options)
    assert quick.fast and not ref.fast
    steps = 0
    for seed in seeds:
        a = quick.new_game(players=players, seed=seed)
        b = ref.new_game(players=players, seed=seed)
        rng = Rng(seed + 7)
        while True:
            assert a.to_act == b.to_act, (seed, steps)
            for seat in (*range(players), None):
                assert a.view(seat) == b.view(seat), (seed, steps, seat)
            if b.is_over:
                break
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            assert a.legal_actions(seat) == legal, (seed, steps)
            action = legal[rng.randbelow(len(legal))]
            assert a.apply(seat, action) == b.apply(seat, action), (seed, steps, str(action))
            steps += 1
        assert a.is_over
        assert a.result == b.result
        assert a.record() == b.record()
        assert a.to_json() == b.to_json()
        assert ref.load_state(a.to_json()).to_json() == quick.load_state(b.to_json()).to_json() == a.to_json()
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_path_equals_the_reference_on_seeded_random_games(players: int) -> None:
    assert _play(players, range(8)) > 0


@pytest.mark.parametrize("options", [
    {"orientations": 2},
    {"shield_scope": "planets"},
    {"dark_planet_shelters_cards": True},
    {"end_count_includes_dark": False},
    {"conquest_points": "planets_only"},
    {"missions_count_debris": False},
    {"setup_face": "high"},
    {"custom_sector": True},
])
def test_fast_path_equals_the_reference_with_variant_options(options: dict[str, Any]) -> None:
    assert _play(3, range(4), **options) > 0


def test_fast_path_equals_the_reference_on_clones_and_reloaded_states() -> None:
    """Clones share the board-action tables safely; a state loaded from JSON rebuilds them."""
    quick = cosmodeck.load_game("shooting-star")
    ref = cosmodeck.load_game("shooting-star", fast=False)
    a = quick.new_game(players=4, seed=3)
    b = ref.new_game(players=4, seed=3)
    rng = Rng(5)
    while not b.is_over:
        seat = min(b.to_act)
        legal = b.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        fork = a.clone()
        fork_events = fork.apply(seat, action)
        reloaded = quick.load_state(a.to_json())
        assert reloaded.legal_actions(seat) == legal
        assert a.apply(seat, action) == b.apply(seat, action) == fork_events
        assert fork.view(None) == a.view(None) == b.view(None)
    assert a.record() == b.record()


def test_fast_path_is_used_only_when_asked() -> None:
    """``fast=False`` never builds the fast path's tables; the default does."""
    ref = cosmodeck.load_game("shooting-star", fast=False)
    st = ref.new_game(players=3, seed=1)
    st.legal_actions(min(st.to_act))
    assert st.fast_actions is None and ref.fast_tables is None
    quick = cosmodeck.load_game("shooting-star")
    st = quick.new_game(players=3, seed=1)
    st.legal_actions(min(st.to_act))
    assert isinstance(st.fast_actions, fast.BoardActions) and isinstance(quick.fast_tables, fast.Tables)
