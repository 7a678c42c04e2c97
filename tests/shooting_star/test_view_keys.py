"""``view.build_keys``: a part of a seat's view (the entries a bot reads, e.g. the heuristic's ``view_keys``) equals
those entries of the whole view, as JSON with the keys in the same order, on every step of seeded games (2-5
players, every variant option), for every seat and a spectator; a bad seat is refused as ``State.view`` refuses it.
Both the readable ``view.build_keys_py`` and ``view.build_keys`` (compiled when built)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.heuristic.shooting_star import VIEW_KEYS
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import view
from cosmodeck.games.shooting_star.state import ShootingStarState
from tests.shooting_star.test_fast_path import VARIANTS

KEY_SETS = [VIEW_KEYS, view.CHEAP_KEYS, *(frozenset({k}) for k in sorted(view.CHEAP_KEYS)),
            frozenset({"hands", "missions"}), frozenset({"seat", "phase", "grid"}), frozenset({"to_act", "nothing"})]


def _same(a: object, b: object) -> bool:
    return json.dumps(a) == json.dumps(b)


BUILDS = [view.build_keys_py, view.build_keys]
Build = Callable[[ShootingStarState, int | None, frozenset[str]], dict[str, Any]]


def _play(options: dict[str, Any], players: range, seeds: range, build: Build) -> int:
    game = load_game("shooting-star", **options)
    checked = 0
    for players_ in players:
        for seed in seeds:
            st = game.new_game(players_, seed=seed)
            assert isinstance(st, ShootingStarState)
            rng = Rng(seed)
            while True:
                for seat in (*range(st.players), None):
                    full = st.view(seat)
                    for keys in KEY_SETS:
                        want = {k: v for k, v in full.items() if k in keys}
                        assert _same(build(st, seat, keys), want), (st.turn, seat, sorted(keys))
                        checked += 1
                if st.is_over:
                    break
                seat = min(st.to_act)
                legal = st.legal_actions(seat)
                st.apply(seat, legal[rng.randbelow(len(legal))])
    return checked


def test_the_heuristics_keys_are_built_alone() -> None:
    assert VIEW_KEYS <= view.CHEAP_KEYS


@pytest.mark.parametrize("build", BUILDS, ids=["readable", "compiled"])
def test_a_part_of_the_view_equals_those_entries_of_the_whole_view(build: Build) -> None:
    assert _play({}, range(2, 6), range(3), build) > 10_000


@pytest.mark.parametrize("build", BUILDS, ids=["readable", "compiled"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_a_part_of_the_view_equals_the_whole_views_with_each_variant(options: dict[str, Any], build: Build) -> None:
    assert _play(options, range(3, 4), range(1), build) > 1000


@pytest.mark.parametrize("build", BUILDS, ids=["readable", "compiled"])
@pytest.mark.parametrize("seat", [4, -1, True, "0", 1.0])
def test_a_bad_seat_is_refused_as_the_whole_view_refuses_it(seat: Any, build: Build) -> None:
    st = load_game("shooting-star").new_game(4, seed=1)
    with pytest.raises(IllegalActionError) as whole:
        st.view(seat)
    with pytest.raises(IllegalActionError) as part:
        build(st, seat, VIEW_KEYS)  # type: ignore[arg-type]
    assert part.value.code == whole.value.code == "bad_seat"
