"""The Blast Off! fast path (``games/blast_off/fast.pyx``) equals the readable reference rules, step for step.

Both games are loaded from the same options, one with ``fast=True`` (the default) and one with
``fast=False``; every step compares who acts, the next deadline, the legal lists, the events, every seat's
and a spectator's view, and at the end the records, results and state JSON (also reloaded on the other
path). ``_play(players, seeds, **options)`` is the long run's function too (docs/ENGINE.md).
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off import state as state_mod
from cosmodeck.games.blast_off.legal import legal as reference_legal
from cosmodeck.games.blast_off.state import BlastOffState


def _step(a: BlastOffState, b: BlastOffState, rng: Rng, where: tuple[Any, ...]) -> None:
    """One step on both: a timer when nobody may act (in real time, also at random), else a random legal
    action of a random acting seat."""
    assert a.to_act == b.to_act, where
    assert a.next_deadline() == b.next_deadline(), where
    d = b.next_deadline()
    if not b.to_act or (d is not None and rng.randbelow(3) == 0):  # real time: timers fire between actions
        assert d is not None
        assert a.advance(d) == b.advance(d), where
        return
    acting = sorted(b.to_act)
    seat = acting[rng.randbelow(len(acting))]
    legal = b.legal_actions(seat)
    got = a.legal_actions(seat)
    assert got == legal, where
    # the same interned objects the reference's legal module gives on this very state (where it interns
    # them: a CHOOSE list is built afresh on every call)
    once, again = reference_legal(a, seat), reference_legal(a, seat)
    assert all(x is y or y is not z for x, y, z in zip(got, once, again, strict=True)), where
    action = got[rng.randbelow(len(got))]
    assert a.apply(seat, action) == b.apply(seat, action), (*where, str(action))


def _same_views(a: BlastOffState, b: BlastOffState, where: tuple[Any, ...]) -> None:
    for seat in (*range(b.players), None):
        assert a.view(seat) == b.view(seat), (*where, seat)


def _play(players: int, seeds: range, views: bool = True, **options: Any) -> int:
    """Seeded games on both paths; ``views=False`` (long runs) compares the views only at the end."""
    quick = cosmodeck.load_game("blast-off", **options)
    ref = cosmodeck.load_game("blast-off", fast=False, **options)
    steps = 0
    for seed in seeds:
        a = quick.new_game(players=players, seed=seed)
        b = ref.new_game(players=players, seed=seed)
        assert type(a).__name__ == "FastBlastOffState" and type(b) is BlastOffState
        rng = Rng(seed + 7)
        start = steps
        while not b.is_over:
            if views:
                _same_views(a, b, (seed, steps))
            _step(a, b, rng, (seed, steps))
            steps += 1
            assert steps - start < 100_000, seed  # a game that never ends
        _same_views(a, b, (seed, steps))
        assert a.is_over and a.to_act == frozenset()
        assert a.result == b.result
        assert a.record() == b.record()
        assert a.to_json() == b.to_json()
        assert ref.load_state(a.to_json()).to_json() == quick.load_state(b.to_json()).to_json() == a.to_json()
    return steps


def test_the_compiled_fast_path_is_built_and_used() -> None:
    """The extension imports in the test environment (a missing build fails here, not silently)."""
    fast = importlib.import_module("cosmodeck.games.blast_off.fast")
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert cosmodeck.load_game("blast-off").new_game(2, 0).__class__ is fast.FastBlastOffState
    assert cosmodeck.load_game("blast-off", fast=False).new_game(2, 0).__class__ is BlastOffState
    assert type(cosmodeck.load_game("blast-off", fast=False).position([["R9"], ["G7"]], discard=["G5"], turn=0)) \
        is BlastOffState


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_fast_path_equals_the_reference_in_steps_timing(players: int) -> None:
    assert _play(players, range(4), timing="steps") > 0


@pytest.mark.parametrize("options", [
    {"timing": "realtime"},
    {"timing": "steps", "mission_enforcement": "referee"},
    {"timing": "steps", "mission_enforcement": "assist"},
    {"timing": "steps", "voluntary_draw": True, "drawn_card_play": "may"},
    {"timing": "steps", "play_for_places": True, "two_player_reverse": "play_again"},
    {"timing": "steps", "custom_missions": True, "mission_out_of_control": True},
], ids=lambda o: "-".join(map(str, o.values())))
def test_fast_path_equals_the_reference_with_other_options(options: dict[str, Any]) -> None:
    assert _play(3, range(2), **options) > 0


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_fast_path_equals_the_reference_through_clones_and_reloaded_states(timing: str) -> None:
    quick = cosmodeck.load_game("blast-off", timing=timing)
    ref = cosmodeck.load_game("blast-off", fast=False, timing=timing)
    a = quick.new_game(players=4, seed=3)
    b = ref.new_game(players=4, seed=3)
    rng = Rng(5)
    steps = 0
    while not b.is_over:
        fork = a.clone()
        reloaded = quick.load_state(a.to_json())
        assert type(fork) is type(reloaded) is type(a)
        if b.to_act:
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            assert fork.legal_actions(seat) == reloaded.legal_actions(seat) == a.legal_actions(seat) == legal
            action = legal[rng.randbelow(len(legal))]
            events = b.apply(seat, action)
            assert a.apply(seat, action) == fork.apply(seat, action) == reloaded.apply(seat, action) == events
        else:
            d = b.next_deadline()
            assert d is not None
            events = b.advance(d)
            assert a.advance(d) == fork.advance(d) == reloaded.advance(d) == events
        assert fork.view(0) == reloaded.view(0) == a.view(0) == b.view(0)
        assert fork.to_json() == reloaded.to_json() == a.to_json() == b.to_json()
        steps += 1
    assert a.record() == b.record() and steps > 0


@pytest.mark.parametrize("players", [2, 6])
def test_the_public_log_read_rarely_equals_the_reference(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The public log (``recent``) read after 1, 3, 40 and 300 unread steps (more than the log keeps), its
    entries, count, clones, saved states and views equal the reference's; also with the log widened in the
    middle of a game (the fast path trims it with ``RECENT`` read at each action, as the reference does).
    A fast path that builds the log's entries only when it is read must keep this (a lazy log trimmed at
    the read failed it)."""
    quick = cosmodeck.load_game("blast-off", timing="steps")
    ref = cosmodeck.load_game("blast-off", fast=False, timing="steps")
    gaps = (1, 3, 40, 300)
    for seed in range(3):
        a = quick.new_game(players=players, seed=seed)
        b = ref.new_game(players=players, seed=seed)
        rng = Rng(seed + 11)
        steps = 0
        while not b.is_over:
            _step(a, b, rng, (seed, steps))
            steps += 1
            if steps % gaps[steps % 4] == 0 or b.is_over:
                assert a.recent_n == b.recent_n
                if steps % 3 == 0:
                    fork = a.clone()
                    assert fork.recent == b.recent and fork.to_json() == b.to_json()
                if steps % 2 == 0:
                    assert a.view(0) == b.view(0)
                assert a.recent == b.recent and a.to_json() == b.to_json()
            if steps == 50:
                monkeypatch.setattr(state_mod, "RECENT", state_mod.RECENT + 16)
        monkeypatch.undo()
        assert a.recent == b.recent and a.record() == b.record()


@pytest.mark.parametrize("players", [2, 4])
def test_equal_copies_of_the_listed_actions_give_the_reference_lists(players: int) -> None:
    """Actions applied as equal copies of the listed ones (as parsed from notation: not the interned objects):
    the response step's later lists leave out what was submitted by equality, as the reference's do."""
    quick = cosmodeck.load_game("blast-off", timing="steps")
    ref = cosmodeck.load_game("blast-off", fast=False, timing="steps")
    copied = 0
    for seed in range(6):
        a = quick.new_game(players=players, seed=seed)
        b = ref.new_game(players=players, seed=seed)
        rng = Rng(seed + 3)
        while not b.is_over:
            seat = min(b.to_act)
            legal = b.legal_actions(seat)
            assert a.legal_actions(seat) == legal, (seed, seat)
            action = legal[rng.randbelow(len(legal))]
            copy = dataclasses.replace(action)
            assert copy == action and copy is not action
            if type(action).__name__ in ("Announce", "Gesture"):
                copied += 1
            assert a.apply(seat, copy) == b.apply(seat, action), (seed, str(action))
        assert a.to_json() == b.to_json()
    assert copied > 20


def test_fast_path_rejects_what_the_reference_rejects() -> None:
    """Bad seats, seats not to act, actions not in the list and actions after the end: the same errors."""
    quick = cosmodeck.load_game("blast-off", timing="steps")
    ref = cosmodeck.load_game("blast-off", fast=False, timing="steps")
    a, b = quick.new_game(players=3, seed=1), ref.new_game(players=3, seed=1)
    seat = min(b.to_act)
    other = next(s for s in range(3) if s not in b.to_act)
    legal = b.legal_actions(seat)
    for st in (a, b):
        st.legal_actions(seat)  # keep the acting seat's list, then try everything else
    for bad_seat in (True, -1, 3, 1.0, "0", None):
        for st in (a, b):
            with pytest.raises(cosmodeck.IllegalActionError) as err:
                st.legal_actions(bad_seat)  # type: ignore[arg-type]
            assert err.value.code == "bad_seat"
    assert a.legal_actions(other) == b.legal_actions(other) == []
    codes = []
    for st in (a, b):
        with pytest.raises(cosmodeck.IllegalActionError) as err:
            st.apply(other, legal[0])
        codes.append(err.value.code)
        with pytest.raises(cosmodeck.IllegalActionError) as err:
            st.apply(seat, "keep")  # no card was drawn: the phase is not the drawn card's decision
        codes.append(err.value.code)
    assert codes[:2] == codes[2:] and codes[0] == "not_your_turn"
    assert a.to_json() == b.to_json()


def test_the_fast_generator_gives_the_reference_numbers() -> None:
    """``FastRng`` (compiled SplitMix64) draws and shuffles exactly as ``engine.rng.Rng`` and keeps its state."""
    fast = importlib.import_module("cosmodeck.games.blast_off.fast")
    for seed in range(200):
        a = Rng(seed)
        b = fast.FastRng(raw_state=a.state)
        for n in (2, 3, 5, 7, 11, 100, 108, 1000, 2**40 + 3, 1, 2**62 + 1):
            assert a.randbelow(n) == b.randbelow(n), (seed, n)
        x = list(range(seed % 120))
        y = x[:]
        a.shuffle(x)
        b.shuffle(y)
        assert x == y and a.state == b.state and type(b.state) is int
    for bad in (0, -3):
        with pytest.raises(ValueError):
            fast.FastRng(1).randbelow(bad)
    st = cosmodeck.load_game("blast-off").new_game(3, 1)
    assert type(st.rng) is fast.FastRng and type(st.clone().rng) is fast.FastRng
