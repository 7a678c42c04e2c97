"""``view.bot_view``: what the simulator gives the Shooting Star heuristic (its ``view_for``). Compiled
(``view_fast.BotView``), a read-only mapping equal to ``build_keys(st, seat, BOT_KEYS)`` (the whole view's entries, in
its key order) as the state was when it was made, and whose C parts (``parts()``), which the compiled heuristic reads
instead of the entries, are exactly what those entries show; checked on every step of seeded games (2-5 players,
every variant option), for every seat, together with the compiled heuristic's best placements read from those parts
against the same heuristic reading the readable view's entries. The readable ``view.bot_view_py`` too."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.heuristic.shooting_star import VIEW_KEYS, ShootingStarHeuristic
from cosmodeck.bots.heuristic.shooting_star_kernel import Kernel
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import view, view_fast
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.state import ShootingStarState
from tests.shooting_star.test_fast_path import VARIANTS


def test_the_compiled_bot_view_is_built_and_used() -> None:
    game = load_game("shooting-star")
    assert view.bot_view is view_fast.bot_view  # CI builds the extension: a missing build fails here
    assert ShootingStarHeuristic(game).view_for is view.bot_view
    assert view.BOT_KEYS == VIEW_KEYS


def _expected_parts(entries: Mapping[str, Any], game: Any) -> dict[str, Any]:
    """The C parts as the entries show them."""
    seat = entries["seat"]
    grid = entries["grid"]
    card_bit = {k: 1 << i for i, k in enumerate(game.data.card_order)}
    return {
        "players": entries["players"],
        "board": {(c["x"], c["y"]): (c["planet"], 0 if c["level"] is None else c["level"])
                  for c in grid["cells"] if c["planet"] is not None},
        "bounds": grid["bounds"],
        "placed": [(p["seat"], (p["cell"][0], p["cell"][1]), p["orientation"]) for p in entries["placed"]],
        "used": [sum(card_bit[k] for k in h["used"]) for h in entries["hands"]],
        "missions": tuple(m["id"] for m in entries["missions"][seat]),
        "conquest": tuple(entries["conquest"][seat]),
        "debris": tuple(entries["debris"][seat]),
    }


def _play(options: dict[str, Any], players: range, seeds: range) -> int:
    game = load_game("shooting-star", **options)
    kernel = Kernel(game)
    assert kernel.ok
    checked = scored = 0
    for players_ in players:
        for seed in seeds:
            st = game.new_game(players_, seed=seed)
            assert isinstance(st, ShootingStarState)
            rng = Rng(seed)
            while not st.is_over:
                made = []
                for seat in range(st.players):
                    full = st.view(seat)
                    want = {k: v for k, v in full.items() if k in VIEW_KEYS}
                    bv = view_fast.bot_view(st, seat)
                    py = view.bot_view_py(st, seat)
                    assert isinstance(bv, Mapping) and isinstance(py, dict)
                    assert list(bv) == list(py) == list(want)
                    assert json.dumps(dict(view_fast.bot_view(st, seat))) == json.dumps(py) == json.dumps(want)
                    parts = bv.parts()
                    assert parts is not None and parts == _expected_parts(want, game), (st.turn, seat)
                    if seat in st.to_act:
                        legal = st.legal_actions(seat)  # the compiled heuristic: the C parts vs the entries
                        got = kernel.scores(view_fast.bot_view(st, seat), legal)
                        assert got == kernel.scores(py, legal)
                        assert got is not None or not all(type(a) is Place for a in legal)
                        scored += got is not None
                        assert kernel.best(view_fast.bot_view(st, seat), legal) == kernel.best(py, legal)
                    made.append((bv, json.dumps(want)))
                    checked += 1
                seat = min(st.to_act)
                legal = st.legal_actions(seat)
                st.apply(seat, legal[rng.randbelow(len(legal))])
                for bv, was in made:  # the state moved on: a view shows it as it was when made
                    assert json.dumps(dict(bv)) == was
    assert scored
    return checked


def test_the_bot_view_is_the_projection_and_its_parts_are_its_entries() -> None:
    assert _play({}, range(2, 6), range(6)) > 1000


@pytest.mark.parametrize("options", [*VARIANTS, {"custom_sector": True}],
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_bot_view_with_variant_options(options: dict[str, Any]) -> None:
    assert _play(options, range(2, 6, 3), range(1)) > 20


@pytest.mark.parametrize("bot_view", [view.bot_view_py, view_fast.bot_view])
def test_a_bad_seat_is_refused_as_the_view_refuses_it(bot_view: Any) -> None:
    st = load_game("shooting-star").new_game(3, seed=1)
    for bad in (3, -1, "0", 1.0, True):
        with pytest.raises(IllegalActionError) as want:
            st.view(bad)
        with pytest.raises(IllegalActionError) as got:
            bot_view(st, bad)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="seat"):
        bot_view(st, None)  # a spectator's view is no bot's


def test_the_bot_view_is_read_only_and_hides_its_state() -> None:
    st = load_game("shooting-star").new_game(4, seed=2)
    bv = view_fast.bot_view(st, 1)
    assert not hasattr(bv, "st") and bv.seat == 1
    with pytest.raises(TypeError):
        bv["seat"] = 2  # type: ignore[index]
    assert bv == view.bot_view_py(st, 1)
