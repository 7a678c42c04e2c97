"""BLO-12.10: the compiled public-log replay (``bots/blast_off_log/replay_fast.pyx``, ``FastPublicLog``) keeps
exactly what the readable ``PublicLog`` keeps, after every event and every settle of seeded games.

Both logs start from the same view and are fed the same new events of later views (as the heuristic's
tracker is: ``follow``, or event by event); after each event, each settle and each query their ``snapshot``
(every field, with the Python types of times and seats), the violations a catch would find and the
obligations each seat owes are compared. Looks come at every step and every third step (several events
at once), in both timings and with the options that change the bookkeeping (referee, assist, authored
missions, missions out of control, play for places). The heuristic uses the compiled log when it is built
(and it must be, here).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.blast_off_log import PublicLog
from cosmodeck.bots.blast_off_log.replay import snapshot
from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog
from cosmodeck.bots.heuristic import blast_off as heuristic
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.state import BlastOffState


def test_the_compiled_log_is_built_and_used_by_the_heuristic() -> None:
    fast = importlib.import_module("cosmodeck.bots.blast_off_log.replay_fast")
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert heuristic.TRACKER is fast.FastPublicLog


def _found(vs: list[Any]) -> list[tuple[Any, ...]]:
    return [(v.key, v.seat, v.mission, v.start, v.end, v.need, v.caught) for v in vs]


def _owed(os: list[Any]) -> list[tuple[Any, ...]]:
    return [(o.seat, o.mission, o.gesture, o.token, o.expect, o.deadline, o.due) for o in os]


class _Pair:
    """A readable and a compiled log started from the same view, fed and asked the same."""

    def __init__(self, g: Any, view: Mapping[str, Any]) -> None:
        self.py = PublicLog(g, view)
        self.cy = FastPublicLog(g, view)
        recent = view["recent"]
        self.seen = recent[-1]["n"] if recent else -1
        self.same("start")

    def same(self, where: Any) -> None:
        assert self.cy.snapshot() == snapshot(self.py), where

    def look(self, view: Mapping[str, Any], where: Any, one_by_one: bool) -> int:
        """Feed the view's new events (one by one, compared after each, or in one ``follow`` call), settle at
        its time, ask what a catch would find; the number of events fed."""
        now = float(view["now"])
        before = self.seen
        if one_by_one:
            for e in view["recent"]:
                if e["n"] > self.seen:
                    self.py.feed(e, float(e["t"]))
                    self.cy.feed(e, float(e["t"]))
                    self.seen = e["n"]
                    self.same((*where, "event", e["n"], e["type"]))
            self.py.settle(now)
            self.cy.settle(now)
        else:
            self.seen = self.py.follow(view["recent"], self.seen, now)
            assert self.cy.follow(view["recent"], before, now) == self.seen, where
        self.same((*where, "settle"))
        fed = self.seen - before
        if self.py.rt:
            d = view["deadline"]
            deadline = None if d is None else float(d)
            assert _found(self.cy.catchable(now, deadline)) == _found(self.py.catchable(now, deadline)), where
        else:
            step = int(view["response_step"])
            assert _found(self.cy.catchable(step=step)) == _found(self.py.catchable(step=step)), where
        for seat in range(len(view["hand_sizes"])):
            assert _owed(self.cy.owed(seat)) == _owed(self.py.owed(seat)), where
        self.same((*where, "asked"))
        assert self.cy.rt == self.py.rt and self.cy.now == self.py.now and self.cy.lost == self.py.lost
        return fed


def _play(players: int, seeds: range, **options: Any) -> dict[str, int]:
    """Seeded games of heuristic bots that forget half their obligations (so violations arise and are caught),
    with a random legal action one time in four; in real time timers also fire between actions at random."""
    game = cosmodeck.load_game("blast-off", **options)
    seen = {"events": 0, "obligations": 0, "violations": 0, "caught": 0}
    for seed in seeds:
        st = game.new_game(players=players, seed=seed)
        assert isinstance(st, BlastOffState)
        rng = Rng(seed + 3)
        bots = make_bots("blast-off", "heuristic:p_forget=0.5;p_catch=0.7", players, game)
        pairs: dict[int, _Pair] = {}
        step = 0
        while not st.is_over and step < 3000:
            for every in (1, 3):
                if step % every:
                    continue
                view = st.view(step % players)
                pair = pairs.get(every)
                recent = view["recent"]
                if pair is None or (recent and recent[0]["n"] > pair.seen + 1):
                    pairs[every] = _Pair(game, view)  # first look, or events missed: start again from the view
                else:
                    seen["events"] += pair.look(view, (seed, step, every), one_by_one=every == 1)
                    seen["obligations"] += bool(pair.py.obls)
                    seen["violations"] += bool(pair.py.viols)
                    seen["caught"] += any(v.caught for v in pair.py.viols)
            step += 1
            d = st.next_deadline()
            if st.to_act and (d is None or rng.randbelow(3)):
                acting = sorted(st.to_act)
                seat = acting[rng.randbelow(len(acting))]
                legal = st.legal_actions(seat)
                action = legal[rng.randbelow(len(legal))] if rng.randbelow(4) == 0 else \
                    bots[seat].act(st.view(seat), legal, rng)
                if action is not None:
                    st.apply(seat, action)
                    continue
            if d is not None:
                st.advance(d)
    return seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_BLO_12_10_the_compiled_log_keeps_what_the_readable_one_keeps(players: int) -> None:
    seen = _play(players, range({2: 40, 4: 30, 6: 20}[players]), timing="steps")
    assert seen["events"] > 5000 and seen["obligations"] and seen["violations"], seen


@pytest.mark.parametrize("options", [
    {"timing": "realtime"},
    {"timing": "realtime", "mission_enforcement": "referee", "play_for_places": True},
    {"timing": "steps", "mission_enforcement": "assist", "voluntary_draw": True, "drawn_card_play": "may"},
    {"timing": "steps", "custom_missions": True, "mission_out_of_control": True},
    {"timing": "realtime", "custom_missions": True, "mission_out_of_control": True},
], ids=lambda o: "-".join(map(str, o.values())))
def test_BLO_12_10_the_compiled_log_keeps_what_the_readable_one_keeps_with_other_options(
        options: dict[str, Any]) -> None:
    """(Real time: obligations fall due by time and by turn actions, violations are caught.)"""
    seen = _play(3, range(30), **options)
    assert seen["events"] > 5000, seen
    if options["timing"] == "realtime" and "mission_enforcement" not in options:
        assert seen["violations"] and seen["caught"], seen
