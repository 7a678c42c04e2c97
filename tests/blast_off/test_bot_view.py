"""BLO-13: the bot view (``view.bot_view``) is a projection of a seat's own view: on every step of seeded games,
its entries (``view.BOT_KEYS``, in that order) equal the readable reference view's (``view_reference``), whether
read all at once, one key at a time, or through the readable ``bot_view_py``; it holds no other key, refuses
what is not a seat, and gives no way to the state. The Blast Off! heuristic is given it by the simulator
(``view_for``) and decides exactly as it does from the whole view."""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.heuristic import blast_off as heuristic
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off import view as view_module
from cosmodeck.games.blast_off.state import BlastOffState
from cosmodeck.games.blast_off.view import BOT_KEYS, bot_view, bot_view_py
from cosmodeck.games.blast_off.view_reference import view_reference
from cosmodeck.sim.runner import bot_rng, play_game

_COMMON = ("game", "players", "seat", "now", "to_act", "deadline", "over", "result")


def test_the_compiled_bot_view_is_built_and_used() -> None:
    fast = importlib.import_module("cosmodeck.games.blast_off.view_fast")
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert view_module.bot_view is fast.bot_view
    game = cosmodeck.load_game("blast-off")
    assert heuristic.BlastOffHeuristic(game).view_for is fast.bot_view
    assert isinstance(bot_view(game.new_game(players=2, seed=1), 0), fast.BotView)


def _want(st: BlastOffState, seat: int) -> dict[str, Any]:
    """The projection of ``seat``'s reference view on ``BOT_KEYS``."""
    full = st.view(seat)
    ref = {k: full[k] for k in _COMMON} | view_reference(st, seat)
    assert full == ref
    return {k: ref[k] for k in BOT_KEYS}


def _check(st: BlastOffState, seat: int, where: Any) -> None:
    want = _want(st, seat)
    got = bot_view(st, seat)
    assert list(got) == list(BOT_KEYS) and len(got) == len(BOT_KEYS), where
    assert list(got.items()) == list(want.items()), where  # every entry, in order
    assert json.dumps(dict(got)) == json.dumps(want), where
    assert got == want and dict(got) == want, where
    for key in BOT_KEYS:  # each entry built alone, first of its view
        assert bot_view(st, seat)[key] == want[key], (where, key)
        assert bot_view(st, seat).get(key) == want[key], (where, key)
    # a countdown runs exactly when the entry says so (the compiled decision asks the view without building it)
    assert (st.cd_rocket >= 0) == (want["countdown"] is not None), where
    assert list(bot_view_py(st, seat).items()) == list(want.items()), where


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
    seen = {"steps": 0, "countdowns": 0, "obligations": 0, "missions": 0, "full_log": 0, "authored": 0}
    for seed in seeds:
        st = game.new_game(players=players, seed=seed)
        assert isinstance(st, BlastOffState)
        rng = Rng(seed + 71)
        while not st.is_over:
            for seat in range(players):
                _check(st, seat, (seed, seen["steps"], seat))
            seen["steps"] += 1
            seen["countdowns"] += st.in_countdown()
            seen["obligations"] += bool(st.obls)
            seen["missions"] += bool(st.inforce)
            seen["full_log"] += len(st.recent) == 48
            seen["authored"] += bool(st.customs)
            _step(st, rng)
        for seat in range(players):
            _check(st, seat, (seed, "end", seat))
    return seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_BLO_13_the_bot_view_is_the_views_projection_in_steps_timing(players: int) -> None:
    seen = _play(players, range({2: 5, 4: 2, 6: 1}[players]), timing="steps")
    assert seen["countdowns"] and seen["missions"] and seen["full_log"], seen


@pytest.mark.parametrize("options", [
    {"timing": "realtime"},
    {"timing": "steps", "custom_missions": True, "mission_out_of_control": True},
    {"timing": "steps", "play_for_places": True, "mission_enforcement": "referee"},
], ids=lambda o: "-".join(map(str, o.values())))
def test_BLO_13_the_bot_view_is_the_views_projection_with_other_options(options: dict[str, Any]) -> None:
    assert _play(3, range(1), **options)["steps"] > 50


class _Checked:
    """A heuristic whose every look in the simulator first checks the bot view it is given (``view_for``)."""

    def __init__(self, inner: heuristic.BlastOffHeuristic, seen: dict[str, int]) -> None:
        self.inner, self.seen, self.name = inner, seen, inner.name
        self.given: list[Any] = []

    def view_for(self, st: BlastOffState, seat: int) -> Mapping[str, Any]:
        _check(st, seat, self.seen["looks"])
        self.seen["looks"] += 1
        self.seen["obligations"] += bool(st.view(seat)["obligations"])
        self.seen["countdowns"] += st.in_countdown()
        view = bot_view(st, seat)
        self.given.append(view)
        return view

    def act(self, view: Mapping[str, Any], legal: Any, rng: Rng) -> Any:
        assert view is self.given[-1]  # the simulator hands over what view_for returned
        return self.inner.act(view, legal, rng)

    def reaction_time(self, rng: Rng) -> float:
        return self.inner.reaction_time(rng)

    def call_reaction_time(self, rng: Rng) -> float:
        return self.inner.call_reaction_time(rng)


def test_BLO_13_the_bot_view_under_heuristic_play_owes_and_catches() -> None:
    """At the moments the heuristic decides in the simulator (obligations owed, countdowns, missions in force)."""
    seen = {"looks": 0, "obligations": 0, "countdowns": 0}
    for options in ({"timing": "steps"}, {}):
        game = cosmodeck.load_game("blast-off", **options)
        for seed in range(8):
            st = game.new_game(players=4, seed=seed)
            bots = [_Checked(b, seen) for b in make_bots("blast-off", "heuristic:p_forget=0.5;p_catch=0.9", 4, game)]
            assert play_game(st, bots, bot_rng(seed), 100_000) > 10
    assert seen["obligations"] > 5 and seen["countdowns"] > 50, seen


def test_BLO_13_the_bot_view_is_a_read_only_mapping_of_its_keys_only() -> None:
    st = cosmodeck.load_game("blast-off", timing="steps").new_game(players=3, seed=4)
    assert isinstance(st, BlastOffState)
    got = bot_view(st, 1)
    assert isinstance(got, Mapping)
    for other in ("discard", "known", "to_act", "draw_pile", "game", "missions_discarded"):
        assert other not in got and got.get(other) is None and got.get(other, 7) == 7
        with pytest.raises(KeyError):
            got[other]
    assert "hand" in got and got["hand"] == st.view(1)["hand"]
    with pytest.raises(TypeError):
        hash(got)
    # the state is not reachable through it (no attribute names it, no instance dict)
    assert not any(hasattr(got, name) for name in ("st", "state", "_st", "__dict__"))
    # each view has its own lists: changing one changes no later view
    got["hand"].append("junk")
    got["recent"].append({"junk": 1})
    assert bot_view(st, 1)["hand"] == st.view(1)["hand"] and bot_view(st, 1)["recent"] == st.view(1)["recent"]


@pytest.mark.parametrize("bad", [None, -1, 3, True, "0", 1.0])
def test_BLO_13_the_bot_view_is_a_seats_only(bad: Any) -> None:
    st = cosmodeck.load_game("blast-off").new_game(players=3, seed=2)
    assert isinstance(st, BlastOffState)
    for make in (bot_view, bot_view_py):
        with pytest.raises(IllegalActionError) as e:
            make(st, bad)
        assert e.value.code == "bad_seat"


def _records(bots: Any, options: dict[str, Any], seed: int, players: int = 4) -> tuple[str, int, list[int]]:
    game = cosmodeck.load_game("blast-off", **options)
    st = game.new_game(players=players, seed=seed)
    seats = bots(game, players)
    decisions = play_game(st, seats, bot_rng(seed), 100_000)
    return json.dumps(st.record(), sort_keys=True, default=str), decisions, [b.resyncs for b in seats]


@pytest.mark.parametrize("options", [{"timing": "steps"}, {}, {"timing": "steps", "custom_missions": True}],
                         ids=["steps", "realtime", "authored"])
def test_the_heuristic_given_the_projection_plays_as_given_the_whole_view(options: dict[str, Any]) -> None:
    """The simulator gives the heuristic ``bot_view`` (its ``view_for``); without it (``view_for`` None) it is given
    the whole view: the same games, decision for decision."""

    def projected(game: Any, n: int) -> list[heuristic.BlastOffHeuristic]:
        seats = [heuristic.BlastOffHeuristic(game, p_catch=0.9) for _ in range(n)]
        assert all(b.view_for is bot_view for b in seats)
        return seats

    def whole(game: Any, n: int) -> list[heuristic.BlastOffHeuristic]:
        seats = projected(game, n)
        for b in seats:
            b.view_for = None
        return seats

    for seed in range(6):
        assert _records(projected, options, seed) == _records(whole, options, seed)


def test_the_heuristic_reads_the_whole_view_when_it_may_read_any_key() -> None:
    game = cosmodeck.load_game("blast-off")

    class Sub(heuristic.BlastOffHeuristic):
        pass

    assert heuristic.BlastOffHeuristic(game, catching="guess").view_for is None
    assert Sub(game).view_for is None
    assert heuristic.BlastOffHeuristic.view_keys == BOT_KEYS


def test_the_compiled_decision_on_the_projection_equals_the_readable_one_on_the_whole_view() -> None:
    """Look by look: one bot decides (compiled) from ``bot_view``, its twin (readable) from the whole view."""
    for options in ({"timing": "steps"}, {}):
        game = cosmodeck.load_game("blast-off", **options)
        fast = heuristic.BlastOffHeuristic(game, p_forget=0.5, p_catch=0.9)
        slow = heuristic.BlastOffHeuristic(game, p_forget=0.5, p_catch=0.9)
        rf, rs = Rng(5), Rng(5)
        looks = 0
        for seed in range(4):
            st = game.new_game(players=4, seed=seed)
            assert isinstance(st, BlastOffState)
            rng = Rng(seed + 9)
            while not st.is_over:
                acting = sorted(st.to_act)
                if acting:
                    seat = acting[looks % len(acting)]
                    legal = st.legal_actions(seat)
                    a = fast.act(bot_view(st, seat), legal, rf)
                    assert a == slow.act_readable(st.view(seat), legal, rs), (options, seed, looks)
                    assert rf.state == rs.state and fast._decided == slow._decided
                    assert (fast.resyncs, fast.mismatches, fast._log_seen) == (slow.resyncs, slow.mismatches,
                                                                               slow._log_seen)
                    looks += 1
                _step(st, rng)
        assert looks > 200
