"""The shared replay of Blast Off!'s public log (``bots/blast_off_log``): its two starts agree, and the
engine's order around going out and under a referee is mirrored (BLO-8.3, 12.1, 12.7)."""

from __future__ import annotations

from typing import Any

import pytest

import cosmodeck
import cosmodeck.games.blast_off.state as state_mod
from cosmodeck.bots.blast_off_log import PublicLog, replay_view
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.game import BlastOffGame


def _game(**options: Any) -> BlastOffGame:
    g = cosmodeck.load_game("blast-off", **options)
    assert isinstance(g, BlastOffGame)
    return g


def _state(log: PublicLog) -> tuple[Any, ...]:
    obls = sorted((o.seat, o.mission, o.expect, o.deadline, o.due) for o in log.obls)
    viols = sorted((v.seat, v.mission, v.start, v.end, v.need - log.turns, v.caught)
                   for v in log.viols if log.is_open(v))
    return obls, viols, log.found, log.extra, log.rthen, log.turns


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_a_replay_from_the_log_start_matches_one_fed_event_by_event(
        timing: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_mod, "RECENT", 10**6)
    compared = derived = 0
    for seed in range(6):
        g = _game(timing=timing, mission_out_of_control=True, play_for_places=True)
        st = g.new_game(4, seed=seed)
        rng = Rng(seed)
        live = PublicLog(g, st.view(None))
        seen = -1
        for i in range(400):
            if st.is_over:
                break
            to_act, d = sorted(st.to_act), st.next_deadline()
            t = st.now + rng.random() if st.rt else None
            if not to_act or (d is not None and t is not None and d <= t):
                assert d is not None
                st.advance(d)
            else:
                seat = to_act[rng.randbelow(len(to_act))]
                legal = st.legal_actions(seat)
                quiet = [a for a in legal if not str(a).startswith(("announce", "gesture", "catch"))]
                pick = quiet if quiet and rng.random() < 0.8 else legal
                st.apply(seat, pick[rng.randbelow(len(pick))], at=t)
            view = st.view(None)
            for e in view["recent"]:
                if e["n"] > seen:
                    live.feed(e)
                    seen = e["n"]
            if i % 5 == 0 and not st.is_over:
                live.settle(float(view["now"]))
                assert _state(replay_view(g, view)) == _state(live)
                compared += 1
        derived += len(live.found)
    assert compared > 50 and derived > 5


def _log(inforce: str, top: str, **options: Any) -> PublicLog:
    view = {"timing": "realtime", "now": 0.0, "missions_in_force": [{"id": inforce}], "hand_sizes": [1, 5, 5, 5],
            "top": {"card": top, "face": top}, "countdown": None, "response_step": 0}
    return PublicLog(_game(**options), view)


def test_a_restriction_broken_by_going_out_is_a_violation_only_if_the_game_goes_on() -> None:
    play = {"type": "played", "seat": 0, "card": "P4", "face": "P4", "left": 0, "drawn": False}
    log = _log("M10", "G4")  # No-Fly Zone: no purple card on a green card
    for e in (play, {"type": "went_out", "seat": 0, "place": 1}, {"type": "turn", "seat": 1}):
        log.feed(e, 1.0)
    assert log.found == [(0, "M10")]  # 12.1: going out (step 2) comes before the restriction (step 4)
    log = _log("M10", "G4")
    for e in (play, {"type": "went_out", "seat": 0, "place": 1}, {"type": "game_over", "reason": "out"}):
        log.feed(e, 1.0)
    assert log.found == []


def test_under_a_referee_nothing_stays_open() -> None:
    log = _log("M10", "G4", mission_enforcement="referee")
    log.feed({"type": "played", "seat": 1, "card": "P4", "face": "P4", "left": 4, "drawn": False}, 1.0)
    log.feed({"type": "penalized", "seat": 1, "mission": "M10"}, 1.0)
    log.feed({"type": "drew", "seat": 1, "count": 4, "reason": "penalty"}, 1.0)
    assert log.pending is not None  # the penalty is part of the play's resolution (12.1 step 4)
    log.settle(1.0)
    assert log.found == [] and log.viols == [] and log.sizes[1] == 8
