"""BLO-13: the view built from a state's kept parts (``view.view``, ``view.ViewCache``), by the compiled
``view_fast.full_view`` and by the readable ``State.view`` path, equals the readable view built afresh
(``view_reference.view_reference``) on every step of seeded games, key for key, in order and as JSON;
views handed out earlier are never changed by later ones; a state changed outside the engine, a clone and a
reloaded state are each seen as they are."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.blast_off import view as view_module
from cosmodeck.games.blast_off.cards import WILD_T
from cosmodeck.games.blast_off.state import BlastOffState
from cosmodeck.games.blast_off.view_reference import view_reference

_COMMON = ("game", "players", "seat", "now", "to_act", "deadline", "over", "result")


@pytest.fixture(params=["compiled", "readable"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A test using it runs on the compiled view (``view_fast``) and on the readable one (``State.view``)."""
    if request.param == "readable":
        monkeypatch.setattr(view_module, "full_view", view_module.full_view_py)
    yield request.param


def test_the_compiled_view_is_built_and_used() -> None:
    """The extension imports in the test environment (a missing build fails here, not silently)."""
    fast = importlib.import_module("cosmodeck.games.blast_off.view_fast")
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert importlib.import_module("cosmodeck.games.blast_off.view").full_view is fast.full_view


def test_the_view_is_the_generic_states_view(path: str) -> None:
    """``BlastOffState.view`` is ``State.view`` (its common keys and checks) in one dict."""
    st = _advanced(3, 60)
    for seat in (0, 2, None):
        assert list(st.view(seat).items()) == list(State.view(st, seat).items())
    for bad in (3, -1, "0", True):
        with pytest.raises(IllegalActionError) as e:
            st.view(bad)  # type: ignore[arg-type]
        assert e.value.code == "bad_seat"


def _same_as_reference(st: BlastOffState, seat: int | None, where: Any) -> dict[str, Any]:
    got = st.view(seat)
    want = {k: got[k] for k in _COMMON} | view_reference(st, seat)
    assert list(got) == list(want), where  # the same keys in the same order
    assert got == want, where
    assert json.dumps(got) == json.dumps(want), where
    return got


def _step(st: BlastOffState, rng: Rng) -> None:
    d = st.next_deadline()
    if not st.to_act or (d is not None and rng.randbelow(3) == 0):
        assert d is not None
        st.advance(d)
        return
    acting = sorted(st.to_act)
    seat = acting[rng.randbelow(len(acting))]
    legal = st.legal_actions(seat)
    st.apply(seat, legal[rng.randbelow(len(legal))])


def _play(players: int, seeds: range, **options: Any) -> dict[str, int]:
    game = cosmodeck.load_game("blast-off", **options)
    seen = {"steps": 0, "wild_faces": 0, "countdowns": 0, "full_log": 0, "missions": 0, "known": 0}
    for seed in seeds:
        st = game.new_game(players=players, seed=seed)
        assert isinstance(st, BlastOffState)
        rng = Rng(seed + 31)
        earlier: list[tuple[dict[str, Any], str]] = []
        while not st.is_over:
            # the views of the last step are as they were when handed out
            assert all(json.dumps(v) == text for v, text in earlier), (seed, seen["steps"])
            earlier = []
            for seat in (*range(players), None):
                # a seat's view built twice (the second from what the first kept) is the reference's too
                for _ in range(2 if seat == 0 else 1):
                    v = _same_as_reference(st, seat, (seed, seen["steps"], seat))
                earlier.append((v, json.dumps(v)))
                seen["known"] += bool(v["known"])
            seen["steps"] += 1
            seen["wild_faces"] += bool(st.wface)
            seen["countdowns"] += st.in_countdown()
            seen["full_log"] += len(st.recent) == 48
            seen["missions"] += bool(st.inforce)
            _step(st, rng)
        for seat in (*range(players), None):
            _same_as_reference(st, seat, (seed, "end", seat))
    return seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_BLO_13_views_from_kept_parts_equal_the_reference_in_steps_timing(players: int, path: str) -> None:
    seen = _play(players, range({2: 6, 4: 1, 6: 1}[players]), timing="steps")
    # every kept part was exercised: Wild faces on the pile, countdowns, a full log that forgets its oldest
    # events, missions in force
    assert seen["wild_faces"] and seen["countdowns"] and seen["full_log"] and seen["missions"], seen


@pytest.mark.parametrize("options", [
    {"timing": "realtime"},
    {"timing": "steps", "custom_missions": True, "mission_out_of_control": True},
    {"timing": "steps", "play_for_places": True, "mission_enforcement": "referee"},
], ids=lambda o: "-".join(map(str, o.values())))
def test_BLO_13_views_from_kept_parts_equal_the_reference_with_other_options(options: dict[str, Any],
                                                                             path: str) -> None:
    assert _play(3, range(1), **options)["steps"] > 50


def _advanced(players: int, steps: int) -> BlastOffState:
    """A game in progress after ``steps`` random steps (the first seed whose game lasts that long)."""
    game = cosmodeck.load_game("blast-off", timing="steps")
    for seed in range(50):
        st = game.new_game(players=players, seed=seed)
        assert isinstance(st, BlastOffState)
        rng = Rng(seed)
        for _ in range(steps):
            if st.is_over:
                break
            _step(st, rng)
        if not st.is_over and len(st.disc) > 2:
            return st
    raise AssertionError("no game lasted")


def test_BLO_13_a_state_changed_outside_the_engine_is_seen_as_it_is(path: str) -> None:
    """What a view keeps is checked against the state at every view (tests and resampling change states)."""
    st = _advanced(4, 120)
    for seat in (0, None):
        _same_as_reference(st, seat, "before")
    st.hands[0] = list(reversed(st.hands[0][1:]))  # another hand of other cards
    st.disc[0], st.disc[1] = st.disc[1], st.disc[0]  # the pile reordered below its top
    wild = next(c for c in range(len(st.g.ctype)) if st.g.ctype[c] == WILD_T and c not in st.disc)
    st.disc.insert(1, wild)
    st.wface[wild] = (1, 4)  # a face the pile's entry must show
    for seat in (0, 1, None):
        _same_as_reference(st, seat, ("after", seat))
    st.recent[3] = {**st.recent[3], "seat": 9}  # an event replaced in the middle of the log
    _same_as_reference(st, None, "an event replaced")
    del st.recent[-1]
    _same_as_reference(st, None, "the newest event forgotten")
    st.wface[wild] = (2, 7)
    _same_as_reference(st, None, "face changed")


def test_BLO_13_clones_and_reloaded_states_keep_their_own_views(path: str) -> None:
    st = _advanced(3, 90)
    before = _same_as_reference(st, 1, "original")
    twin = st.clone()
    rng = Rng(77)
    for _ in range(40):
        _step(twin, rng)
        _same_as_reference(twin, 1, "clone")
    assert _same_as_reference(st, 1, "original again") == before
    loaded = st.game.load_state(st.to_json())
    assert isinstance(loaded, BlastOffState)
    assert _same_as_reference(loaded, 1, "reloaded") == before


def test_BLO_13_a_view_changed_by_its_reader_changes_no_later_view(path: str) -> None:
    """Every view has its own top-level dict and lists (the entries inside are read-only)."""
    st = _advanced(4, 100)
    for i in range(3):  # the first view builds what is kept, the next ones reuse it
        v = _same_as_reference(st, 0, ("view", i))
        for key in ("hand", "discard", "recent", "missions_in_force", "hand_sizes"):
            v[key].append("junk")
        v["top"] = None
