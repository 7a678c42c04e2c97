"""Shooting Star views share the entries that do not depend on the viewer or the version (``view.build``):
on every step of seeded games (2-5 players, every variant option), every seat's and a spectator's view equals
the view built afresh by ``view.build_reference``, as JSON with the keys in the same order. One game object
plays many seeds, so entries kept from earlier games are reused (and must still be right). Both the readable
``view.build_py`` and ``view.build`` (the compiled ``view_fast.build`` when built, as in the test environment)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import view
from cosmodeck.games.shooting_star.state import ShootingStarState
from tests.shooting_star.test_fast_path import VARIANTS


def _same(a: object, b: object) -> bool:
    return json.dumps(a) == json.dumps(b)


BUILDS = [view.build_py, view.build]
Build = Callable[[ShootingStarState, int | None], dict[str, Any]]


def _check(st: ShootingStarState, build: Build) -> int:
    n = 0
    for seat in (*range(st.players), None):
        assert _same(build(st, seat), view.build_reference(st, seat)), (st.turn, seat)
        n += 1
    return n


def _play(options: dict[str, Any], players: range, seeds: range, build: Build) -> int:
    game = load_game("shooting-star", **options)
    checked = 0
    for players_ in players:
        for seed in seeds:
            st = game.new_game(players_, seed=seed)
            assert isinstance(st, ShootingStarState)
            rng = Rng(seed)
            while True:
                checked += _check(st, build)
                if st.is_over:
                    break
                seat = min(st.to_act)
                legal = st.legal_actions(seat)
                st.apply(seat, legal[rng.randbelow(len(legal))])
    return checked


def test_the_compiled_view_is_built_and_used() -> None:
    """CI must build it: without it every view runs the readable functions (the same views, slower)."""
    fast = importlib.import_module("cosmodeck.games.shooting_star.view_fast")
    assert view.build is fast.build and view.build_keys is fast.build_keys
    assert view.build is not view.build_py


@pytest.mark.parametrize("build", BUILDS, ids=["readable", "compiled"])
def test_views_equal_views_built_afresh(build: Build) -> None:
    assert _play({}, range(2, 6), range(4), build) > 1000


@pytest.mark.parametrize("build", BUILDS, ids=["readable", "compiled"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_views_equal_views_built_afresh_with_each_variant(options: dict[str, Any], build: Build) -> None:
    assert _play(options, range(2, 6, 3), range(2), build) > 100


def test_a_seat_never_sees_another_seats_placed_card_through_a_shared_entry() -> None:
    game = load_game("shooting-star")
    st = game.new_game(3, seed=5)
    assert isinstance(st, ShootingStarState)
    rng = Rng(1)
    for _ in range(2):  # seats 0 and 1 place face down
        seat = min(st.to_act)
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.randbelow(len(legal))])
    assert len(st.placed) == 2
    for viewer in (0, 1, 2, None):
        entries = [c["card"] for c in view.build(st, viewer)["grid"]["cells"] if c["card"] is not None]
        assert sorted(e["seat"] for e in entries) == sorted(p[0] for p in st.placed)
        assert all((e["card"] is not None) == (e["seat"] == viewer) for e in entries), viewer
    # the placed cards' cells are the view's own entries, not the shared ones
    shared = game.__dict__["_view_shared"]
    assert all(c["card"] is None for cells, _i, _b in shared.cells.values() for c in cells)
