"""The Shooting Star fast paths equal the readable reference rules, step for step, on seeded games.

Both games are loaded from the same data and options, one with ``fast=True`` (the default) and one with
``fast=False``; every step compares who acts, every seat's legal list, the events, every seat's and a
spectator's view, and at the end the records, results and state JSON. ``fast=True`` runs the compiled
``FastShootingStarState`` (``fast.pyx``); with ``compiled=False`` the test sets the game's
``use_compiled`` to false so that the Python fast path (``fast_py.py``) runs instead, as on a build without it.
"""

from __future__ import annotations

from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import fast_py
from cosmodeck.games.shooting_star import game as game_mod
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.state import ShootingStarState

VARIANTS: list[dict[str, Any]] = [
    {"orientations": 2},
    {"shield_scope": "planets"},
    {"dark_planet_shelters_cards": True},
    {"end_count_includes_dark": False},
    {"conquest_points": "planets_only"},
    {"missions_count_debris": False},
    {"setup_face": "high"},
    {"custom_sector": True},
]


def _python_fast(game: Any) -> Any:
    """``game`` with the compiled state class hidden: its states run the Python fast path, as without the build."""
    game.use_compiled = False
    return game


def _games(compiled: bool, **options: Any) -> tuple[Any, Any]:
    quick = cosmodeck.load_game("shooting-star", **options)
    if not compiled:
        _python_fast(quick)
    ref = cosmodeck.load_game("shooting-star", fast=False, **options)
    assert quick.fast and not ref.fast
    return quick, ref


def _new(game: Any, compiled: bool, players: int, seed: int) -> Any:
    st = game.new_game(players=players, seed=seed)
    # without the extension every game runs the Python fast path (test_compiled_module_is_importable_and_used fails)
    assert (type(st) is not ShootingStarState) is (compiled and game.fast and game_mod._FAST is not None)
    return st


def _form(action: Any, k: int) -> Any:
    """The action as the legal list gives it, as notation, or as a fresh equal object (each path of ``apply``)."""
    if k == 1:
        return str(action)
    if k == 2:
        return Place(action.card, action.cell, action.orientation) if isinstance(action, Place) else str(action)
    return action


def _play(players: int, seeds: range, compiled: bool = True, views: bool = True, **options: Any) -> int:
    """Play ``seeds`` on the fast path and the reference with the same random choices; return the steps."""
    quick, ref = _games(compiled, **options)
    steps = 0
    for seed in seeds:
        a = _new(quick, compiled, players, seed)
        b = _new(ref, compiled, players, seed)
        rng = Rng(seed + 7)
        while True:
            assert a.to_act == b.to_act and a.is_over == b.is_over, (seed, steps)
            if views or b.is_over:
                for seat in (*range(players), None):
                    assert a.view(seat) == b.view(seat), (seed, steps, seat)
            if b.is_over:
                break
            for seat in range(players):
                assert a.legal_actions(seat) == b.legal_actions(seat), (seed, steps, seat)
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            form = steps % 3
            assert a.apply(seat, _form(action, form)) == b.apply(seat, _form(action, form)), (seed, steps, str(action))
            steps += 1
        assert a.is_over and a.to_act == frozenset() and a.legal_actions(0) == []
        assert a.result == b.result
        assert a.record() == b.record()
        assert a.to_json() == b.to_json()
        assert ref.load_state(a.to_json()).to_json() == quick.load_state(b.to_json()).to_json() == a.to_json()
    return steps


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_path_equals_the_reference_on_seeded_random_games(players: int, compiled: bool) -> None:
    assert _play(players, range(6), compiled) > 0


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_fast_path_equals_the_reference_with_variant_options(options: dict[str, Any], compiled: bool) -> None:
    assert _play(3, range(3), compiled, **options) > 0


def _play_clones(players: int, seeds: range, compiled: bool = True, **options: Any) -> int:
    """At every step a clone and a state reloaded from JSON (on the fast path) play the step as the original and
    the reference do; the clone played on leaves the original as it was (the board tables are shared)."""
    quick, ref = _games(compiled, **options)
    steps = 0
    for seed in seeds:
        a = _new(quick, compiled, players, seed)
        b = _new(ref, compiled, players, seed)
        rng = Rng(seed + 5)
        while not b.is_over:
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            before = a.to_json()
            fork = a.clone()
            assert type(fork) is type(a) and type(fork.rng) is type(a.rng)
            fork_legal = fork.legal_actions(seat)
            fork_events = fork.apply(seat, action)
            assert a.to_json() == before and a.legal_actions(seat) == fork_legal == legal
            reloaded = quick.load_state(before)
            assert type(reloaded) is type(a) and type(reloaded.rng) is type(a.rng)
            assert reloaded.legal_actions(seat) == legal
            events = b.apply(seat, action)
            assert a.apply(seat, action) == events == fork_events == reloaded.apply(seat, action)
            assert fork.to_json() == a.to_json() == b.to_json() == reloaded.to_json()
            assert fork.view(seat) == a.view(seat) == b.view(seat) == reloaded.view(seat)
            steps += 1
        assert a.record() == b.record()
    return steps


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"custom_sector": True}), (4, {}),
                                                  (5, {"orientations": 2, "shield_scope": "planets"})])
def test_fast_path_equals_the_reference_on_clones_and_reloaded_states(
        players: int, options: dict[str, Any], compiled: bool) -> None:
    assert _play_clones(players, range(2), compiled, **options) > 0


def _play_quiet(players: int, seeds: range, **options: Any) -> int:
    """A compiled state played with ``apply_quiet`` (no events built: the RL environments' way) equals the
    reference played with ``apply`` after every step: the state JSON (generator included), every seat's and a
    spectator's view, the legal lists, and at the end the result and the record."""
    quick, ref = _games(True, **options)
    steps = 0
    for seed in seeds:
        a = _new(quick, True, players, seed)
        b = _new(ref, True, players, seed)
        rng = Rng(seed + 11)
        while not b.is_over:
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            assert a.legal_actions(seat) == legal, (seed, steps)
            action = legal[rng.randbelow(len(legal))]
            b.apply(seat, action)
            assert a.apply_quiet(seat, _form(action, steps % 3)) is None
            assert a.to_json() == b.to_json(), (seed, steps, str(action))
            assert a.to_act == b.to_act and a.is_over == b.is_over
            for s in (*range(players), None):
                assert a.view(s) == b.view(s), (seed, steps, s)
            steps += 1
        assert a.result == b.result and a.result is not None
        assert a.record() == b.record()
    return steps


def _id(o: Any) -> str:
    return ("-".join(f"{k}={v}" for k, v in o.items()) or "default") if isinstance(o, dict) else str(o)


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (4, {}), (5, {}), *[(3, o) for o in VARIANTS]],
                         ids=_id)
def test_apply_quiet_equals_the_reference_without_building_events(players: int, options: dict[str, Any]) -> None:
    assert _play_quiet(players, range(4), **options) > 0


def test_apply_quiet_rejects_what_apply_rejects_and_changes_nothing() -> None:
    quick, _ = _games(True)
    a = quick.new_game(players=3, seed=4)
    seat = min(a.to_act)
    good = a.legal_actions(seat)[0]
    other = (seat + 1) % 3
    for who, what in ((other, good), (seat, Place("nope", good.cell, good.orientation)),
                      (seat, Place(good.card, (99, 99), good.orientation)), (seat, "place nonsense"), (-1, good)):
        before = a.to_json()
        with pytest.raises(CosmodeckError) as quiet:
            a.apply_quiet(who, what)
        assert a.to_json() == before
        assert _error(a, who, what) == quiet.value.code
    a.apply_quiet(seat, good)  # the next seat may not place on the cell that now holds a card
    nxt = min(a.to_act)
    taken = Place(good.card, good.cell, good.orientation)  # (every hand holds every card on the first turn)
    assert good.card in a.hands[nxt]
    before = a.to_json()
    with pytest.raises(CosmodeckError) as quiet:
        a.apply_quiet(nxt, taken)
    assert a.to_json() == before and _error(a, nxt, taken) == quiet.value.code


def _error(st: Any, seat: Any, action: Any, at: float | None = None) -> str:
    before = st.to_json()
    with pytest.raises(CosmodeckError) as e:
        st.apply(seat, action, at)
    assert st.to_json() == before  # nothing changed
    return e.value.code


def test_fast_path_rejects_what_the_reference_rejects_with_the_same_codes() -> None:
    quick, ref = _games(True)
    a = quick.new_game(players=3, seed=4)
    b = ref.new_game(players=3, seed=4)
    rng = Rng(9)
    checked = 0
    while not b.is_over:
        seat = min(b.to_act)
        other = (seat + 1) % 3
        legal = b.legal_actions(seat)
        act = legal[0]
        card, cell, arrow = act.card, act.cell, act.orientation
        not_held = next((c for c in quick.data.card_order if c not in b.hands[seat]), None)
        empty = next((c for c in b.shape_order if c not in b.board), (99, 99))
        bad = [
            (seat, Place(card, cell, "X")),  # arrow not allowed
            (seat, Place(card, empty, arrow)),  # no planet
            (seat, Place(card, (cell[0], True), arrow)),  # a bool coordinate: not a well-formed action
            (seat, Place(card, [cell[0], cell[1]], arrow)),  # a list for a cell
            (seat, Place(7, cell, arrow)),  # a number for a card
            (other, act),  # not this seat's turn
            (True, act),
            (5, act),
            ("0", act),
            (seat, "place P6 1,0 Q"),
            (seat, 42),
        ]
        if not_held is not None:
            bad.append((seat, Place(not_held, cell, arrow)))
        if b.placed:
            covered = b.placed[0][2]
            bad.append((seat, Place(card, covered, arrow)))
        for s, x in bad:
            assert _error(a, s, x) == _error(b, s, x), (s, x)
            checked += 1
        assert _error(a, seat, act, at=-1.0) == _error(b, seat, act, at=-1.0) == "time_backwards"
        assert a.is_legal(seat, act) and not a.is_legal(other, act)
        action = legal[rng.randbelow(len(legal))]
        assert a.apply(seat, action, 0.0) == b.apply(seat, action, 0.0)
    assert _error(a, 0, "place P6 1,0 N") == _error(b, 0, "place P6 1,0 N") == "game_over"
    assert a.to_json() == b.to_json() and checked > 100


def test_compiled_module_is_importable_and_used() -> None:
    """The extension is built in the test environment (a missing build fails here, not silently)."""
    from cosmodeck.games.shooting_star import fast

    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert game_mod._FAST is fast.FastShootingStarState
    assert fast.RAW_EVENTS  # events are built by filling Event's slots (what the comparisons above check)
    quick = cosmodeck.load_game("shooting-star")
    st = quick.new_game(players=3, seed=1)
    assert type(st) is fast.FastShootingStarState and type(st.rng) is fast.FastRng
    st.apply(min(st.to_act), st.legal_actions(min(st.to_act))[0])
    assert isinstance(quick.compiled_tables, fast.GameTables)
    assert type(quick.load_state(st.to_json())) is fast.FastShootingStarState
    assert type(st.clone()) is fast.FastShootingStarState


def test_fast_paths_are_used_only_when_asked() -> None:
    """``fast=False`` never builds a fast path's state class or tables; the Python fast path builds its own."""
    ref = cosmodeck.load_game("shooting-star", fast=False)
    st = ref.new_game(players=3, seed=1)
    st.apply(min(st.to_act), st.legal_actions(min(st.to_act))[0])
    assert type(st) is ShootingStarState and type(st.rng) is Rng
    assert st.fast_actions is None and ref.fast_tables is None and ref.compiled_tables is None
    assert type(ref.load_state(st.to_json())) is ShootingStarState
    quick, _ = _games(False)
    st = _new(quick, False, 3, 1)
    st.legal_actions(min(st.to_act))
    assert isinstance(st.fast_actions, fast_py.BoardActions) and isinstance(quick.fast_tables, fast_py.Tables)
    assert quick.compiled_tables is None


def test_fast_rng_equals_rng() -> None:
    from cosmodeck.games.shooting_star.fast import FastRng

    for seed in range(200):
        a, b = FastRng(seed), Rng(seed)
        for n in (1, 2, 3, 7, 64, 1000, 2**31 + 5, 2**61 + 1, 2**62, 2**63 + 3):
            assert a.randbelow(n) == b.randbelow(n)
        xs, ys = list(range(seed % 60)), list(range(seed % 60))
        a.shuffle(xs)
        b.shuffle(ys)
        assert xs == ys and a.state == b.state
        assert type(a.copy()) is FastRng and a.copy().state == a.state
    with pytest.raises(ValueError):
        FastRng(1).randbelow(0)


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"orientations": 2}), (5, {"custom_sector": True}),
                                                  (4, {"shield_scope": "planets"})])
def test_play_random_is_the_random_bots_move_on_the_legal_list(players: int, options: dict[str, Any]) -> None:
    """``FastShootingStarState.play_random(seat, rng)`` (the gym's random opponents, ``rl/steps_fast.pyx``) applies
    ``legal[rng.randbelow(len(legal))]`` of the reference's legal list: the same events (``events=True``; by default
    none is built and it returns ``True``), state and generator state;
    where it does not apply (a custom sector's planets, a seat not to act, the end) it draws and changes nothing."""
    from cosmodeck.games.shooting_star.fast import FastRng

    quick, ref = _games(True, **options)
    played = refused = 0
    for seed in range(8):
        a = _new(quick, True, players, seed)
        b = _new(ref, True, players, seed)
        mine, theirs = (FastRng if seed % 2 else Rng)(seed), Rng(seed)
        while not b.is_over:
            seat = min(b.to_act)
            for other in {*range(players), -1, players} - {seat}:
                before = mine.state
                assert a.play_random(other, mine) is None and mine.state == before
                refused += 1
            legal = b.legal_actions(seat)
            quiet = seed % 3 == 0  # (the default: no events built, ``True`` when it applied)
            events = a.play_random(seat, mine) if quiet else a.play_random(seat, mine, events=True)
            if events is None:  # building the custom sector (PlacePlanet): the legal list's way
                assert b.phase == "sector" and a.to_json() == b.to_json()
                action = legal[theirs.randbelow(len(legal))]
                assert str(action) == str(legal[mine.randbelow(len(legal))])
                assert a.apply(seat, action) == b.apply(seat, action)
                continue
            expected = b.apply(seat, legal[theirs.randbelow(len(legal))])
            assert (events is True) if quiet else (events == expected)
            assert mine.state == theirs.state and a.to_json() == b.to_json()
            played += 1
        before = mine.state
        assert a.play_random(0, mine) is None and mine.state == before
        assert a.record() == b.record()
    assert played > 50 and refused > 50


def test_compiled_rank_equals_the_reference() -> None:
    """``fast.rank`` (the compiled end of the game's ranking) is ``rules_score.rank``: most points, then captured
    cards, then moons, full ties shared, on random breakdowns with many ties (2-5 seats)."""
    from cosmodeck.games.shooting_star import fast
    from cosmodeck.games.shooting_star.rules_score import rank

    rng = Rng(3)
    shared = 0
    for _ in range(3000):
        n = 2 + rng.randbelow(4)
        breakdown = [{"cards": rng.randbelow(3), "missions": {f"m{s}": rng.randbelow(3)}, "total": rng.randbelow(3),
                      "captured": rng.randbelow(2), "moon_count": rng.randbelow(2)} for s in range(n)]
        got, want = fast.rank(breakdown, "few_planets"), rank(breakdown, "few_planets")
        assert got == want and got.to_dict() == want.to_dict(), breakdown
        assert got.details["breakdown"] == breakdown and got.details["breakdown"][0] is not breakdown[0]
        shared += len(got.winners) > 1
    assert shared > 100
