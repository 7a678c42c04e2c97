"""Blast Off! determinization: a full state from one seat's view, consistent with it (BLO-13).

Legal actions are compared as sets on TURN and COUNTDOWN: their order follows the physical
order of the seat's own hand (``legal.legal_turn`` / ``legal_slaps`` walk it), which the view
does not carry (it shows the hand sorted); everywhere else the lists are compared exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import cosmodeck
import cosmodeck.games.blast_off.state as state_mod
from cosmodeck.bots.determinize import determinize, supported
from cosmodeck.bots.rollout import rollout
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.legal import drawn_options, legal_slaps
from cosmodeck.games.blast_off.phases import AUTHOR, CHOOSE, DECLARE
from cosmodeck.games.blast_off.state import BlastOffState
from tests.blast_off.helpers import finish_responses, hand, run_countdown, stack, steps

PRIVATE = ("hand", "known", "obligations", "pending", "drawn")  # a seat's own parts of its view


def _game(timing: str, **options: Any) -> BlastOffGame:
    g = cosmodeck.load_game("blast-off", timing=timing, **options)
    assert isinstance(g, BlastOffGame)
    return g


def _step(st: BlastOffState, rng: Rng) -> None:
    """One random move: forgetful players (obligations and catches now and then), real time on a clock."""
    to_act = sorted(st.to_act)
    if not to_act:
        d = st.next_deadline()
        assert d is not None
        st.advance(d)
        return
    seat = to_act[rng.randbelow(len(to_act))]
    legal = st.legal_actions(seat)
    quiet = [a for a in legal if not str(a).startswith(("announce", "gesture", "catch"))]
    pick = quiet if quiet and rng.random() < 0.7 else legal
    action = pick[rng.randbelow(len(pick))]
    if not st.rt:
        st.apply(seat, action)
        return
    t = st.now + 1.5 * rng.random()
    d = st.next_deadline()
    if d is not None and d <= t:
        st.advance(d)
    else:
        st.apply(seat, action, at=t)


def _positions(g: BlastOffGame, players: int, seed: int, every: int, limit: int = 600) -> Iterator[BlastOffState]:
    """Every ``every``-th position of a random game (the game goes on from the same object)."""
    st = g.new_game(players=players, seed=seed)
    rng = Rng(seed + 7)
    for i in range(limit):
        if st.is_over:
            return
        if i % every == 0 and st.to_act:
            yield st
        _step(st, rng)


def _public(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PRIVATE}


def _check(st: BlastOffState, seat: int, rng: Rng) -> BlastOffState:
    view = st.view(seat)
    d = determinize(st.game, view, seat, rng)
    assert type(d) is type(st)
    assert d.view(seat) == view
    assert d.census() == st.census()  # every card and mission card is somewhere, exactly once
    dl, sl = d.legal_actions(seat), st.legal_actions(seat)
    assert sorted(map(str, dl)) == sorted(map(str, sl))
    if view["phase"] not in ("TURN", "COUNTDOWN"):
        assert dl == sl
    for other in range(st.players):  # the public parts of every other seat's view agree too
        if other != seat:
            assert _public(d.view(other)) == _public(st.view(other))
    assert d.game.load_state(d.to_json()).to_json() == d.to_json()  # a genuine, serialisable state
    return d


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_determinization_shows_the_seat_exactly_its_view(timing: str) -> None:
    g = _game(timing)
    phases: set[str] = set()
    missions = 0
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (2, 6), (3, 7)):
        for st in _positions(g, players, seed, every=9):
            for seat in sorted(st.to_act)[:2]:
                _check(st, seat, Rng(checked))
                phases.add(st.view(seat)["phase"])
                missions += bool(st.inforce)
                checked += 1
    assert checked > 150 and missions > 50
    assert {"TURN", "COUNTDOWN"} <= phases
    if timing == "steps":
        assert "RESPONSE" in phases


OPTIONS: list[dict[str, Any]] = [
    {"mission_out_of_control": True},
    {"custom_missions": True},
    {"mission_enforcement": "referee"},
    {"mission_enforcement": "assist", "play_for_places": True},
    {"drawn_card_play": "may", "two_player_reverse": "play_again", "pass_hands_direction": "play"},
    {"countdown_pace": "fast", "false_catch_penalty": 1, "voluntary_draw": True},
]


@pytest.mark.parametrize("timing", ["steps", "realtime"])
@pytest.mark.parametrize("options", OPTIONS, ids=",".join)
def test_determinization_under_every_option(timing: str, options: dict[str, Any]) -> None:
    g = _game(timing, **options)
    checked = 0
    for players, seed in ((2, 11), (4, 12), (3, 13)):
        for st in _positions(g, players, seed, every=13):
            seat = min(st.to_act)
            _check(st, seat, Rng(seed))
            checked += 1
    assert checked > 15


def _others_obligations(st: BlastOffState, seat: int) -> list[tuple[Any, ...]]:
    return sorted(o for o in st.obls if o[0] != seat)


def _open_violations(st: BlastOffState) -> list[tuple[Any, ...]]:
    """Violations that may still be caught, their turn bound relative to the turn counter."""
    out = []
    for v in st.viols:
        if st.rt and (st.now < v[3] or st.turn_no < v[4]):
            out.append((*v[:4], v[4] - st.turn_no, v[5]))
        elif not st.rt and v[3] >= st.resp_no:
            out.append(v)
    return sorted(out)


OBLIGED = ("M01", "M05", "M06", "M07", "M08", "M09", "M10", "M12", "M13")  # obligations and a restriction


def _with_missions(st: BlastOffState, ids: tuple[str, ...]) -> BlastOffState:
    """Put missions in force from the start (as if revealed), so that obligations and violations abound."""
    index = {m.id: i for i, m in enumerate(st.g.missions)}
    for mid in ids:
        mi = index[mid]
        st.mdeck.remove(mi)
        st.inforce.append(mi)
        st.revealed.append(mi)
    st.has_restriction = any(st.mission(mi).kind == "restriction" for mi in st.inforce)
    return st


@pytest.mark.parametrize("timing", ["steps", "realtime"])
@pytest.mark.parametrize("options", [{}, {"mission_out_of_control": True}, {"mission_enforcement": "referee"},
                                     {"catch_window_steps": 3, "catch_window_s": 9.0, "countdown_pace": "fast"}],
                         ids=lambda o: ",".join(o) or "default")
def test_obligations_and_violations_are_rebuilt_from_the_public_log(
        timing: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """BLO-12.10: with the whole public log in the view, the others' obligations, everyone's open
    violations, a paused resolution, an extra turn and a RESPONSE continuation are rebuilt exactly."""
    monkeypatch.setattr(state_mod, "RECENT", 10**6)
    g = _game(timing, **options)
    obligations = violations = 0
    for seed in range(6):
        st = g.new_game(players=3 + seed % 4, seed=60 + seed)
        ids = OBLIGED[seed:seed + 3] if options.get("mission_out_of_control") else (OBLIGED[(seed * 2) % 9],)
        _with_missions(st, ids)
        rng = Rng(seed)
        for i in range(300):
            if st.is_over:
                break
            if i % 3 == 0 and st.to_act:
                seat = min(st.to_act)
                d = determinize(g, st.view(seat), seat, Rng(seed))
                assert isinstance(d, BlastOffState)
                assert d.view(seat) == st.view(seat)
                assert _others_obligations(d, seat) == _others_obligations(st, seat)
                assert _open_violations(d) == _open_violations(st)
                assert (d.extra, d.phase, d.cur) == (st.extra, st.phase, st.cur)
                if st.phase in (DECLARE, CHOOSE, AUTHOR):
                    assert {k: v for k, v in (d.ctx or {}).items() if k != "c"} == {
                        k: v for k, v in (st.ctx or {}).items() if k != "c"}
                if not st.rt and st.view(seat)["phase"] == "RESPONSE":
                    assert d.rthen == st.rthen
                obligations += len(_others_obligations(st, seat))
                violations += len(_open_violations(st))
            _step(st, rng)
    assert obligations > 10
    assert violations > 5 or g.referee


def _countdown_with_a_hidden_choice() -> tuple[BlastOffState, int]:
    """Turn-based, 3 players: a COUNTDOWN step in which another seat has already chosen."""
    g = _game("steps")
    for seed in range(40):
        for st in _positions(g, 3, seed, every=1, limit=300):
            seat = min(st.to_act)
            cd = st.view(seat)["countdown"]
            if st.view(seat)["phase"] == "COUNTDOWN" and cd is not None and any(s != seat for s in cd["acted"]):
                return st.clone(), seat
    raise AssertionError("no such position")


def test_what_the_seat_cannot_see_is_redrawn() -> None:
    st, seat = _countdown_with_a_hidden_choice()
    view = st.view(seat)
    chooser = next(s for s in view["countdown"]["acted"] if s != seat)
    hands, draws, mdecks, choices = set(), set(), set(), set()
    for k in range(40):
        d = determinize(st.game, view, seat, Rng(k))
        assert isinstance(d, BlastOffState)
        assert hand(d, seat) == hand(st, seat)
        hands.add(tuple(tuple(hand(d, s)) for s in range(3) if s != seat))
        draws.add(tuple(d.draw))
        mdecks.add(tuple(d.mdeck))
        choices.add(str(d.pend[chooser]))
        assert d.pend[chooser] in legal_slaps(d, chooser)
    assert len(hands) > 30 and len(draws) == 40 and len(mdecks) > 30
    assert len(choices) >= 2


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_the_real_secrets_do_not_matter(timing: str) -> None:
    """Two states that differ only in what the seat cannot see give the same determinizations."""
    g = _game(timing)
    compared = 0
    for players, seed in ((2, 31), (3, 32), (4, 33)):
        for st in _positions(g, players, seed, every=17, limit=400):
            seat = min(st.to_act)
            for owner in [*(s for s in range(players) if s != seat), None]:
                twin = st.resample_hidden(owner, Rng(1234))
                assert twin.view(seat) == st.view(seat)
                for k in range(2):
                    a = determinize(g, st.view(seat), seat, Rng(k)).to_json()
                    b = determinize(g, twin.view(seat), seat, Rng(k)).to_json()
                    assert a == b
                compared += 1
    assert compared > 20


@pytest.mark.parametrize("timing", ["steps", "realtime"])
def test_a_determinization_plays_to_the_end(timing: str) -> None:
    g = _game(timing, custom_missions=True)
    played = 0
    for players, seed in ((2, 41), (4, 42), (6, 43), (3, 44)):
        for st in _positions(g, players, seed, every=11, limit=300):
            seat = min(st.to_act)
            d = determinize(g, st.view(seat), seat, Rng(played))
            rollout(d, Rng(played + 1))  # real time: random reaction times, through every deadline
            assert d.is_over and d.result is not None
            played += 1
    assert played > 10


# ---- the decisions that pause a card's resolution ---------------------------------------------


def test_a_wild_starter_waits_for_the_dealers_declaration() -> None:
    for timing in ("steps", "realtime"):
        g = _game(timing)
        st = next(s for s in (g.new_game(players=3, seed=k) for k in range(200)) if s.phase == DECLARE)
        for seat in range(3):
            d = _check(st, seat, Rng(seat))
            d.apply(st.dealer, "declare G6")
            st2 = st.clone()
            st2.apply(st.dealer, "declare G6")
            assert _public(d.view(seat)) == _public(st2.view(seat))


def _blast_off_slot(**options: Any) -> BlastOffState:
    """Turn-based, 3 players: seat 1 starts a countdown; seat 0 fills the Blast Off slot."""
    g = steps(**options)
    st = stack(g, 3, hands={0: "W O1 G2", 1: "CD R5 P5", 2: "BO-G R8 G9"}, top="O7", cur=1,
               inforce=("M01",))
    st.apply(1, "play CD")
    finish_responses(st)
    run_countdown(st, {8: {2: "R8"}, 5: {1: "R5"}, "BO": {0: "W"}})
    return st


def test_a_wild_in_the_blast_off_slot_waits_for_its_declaration() -> None:
    st = _blast_off_slot()
    assert st.phase == DECLARE and st.cur == 0
    st2 = st.clone()
    st2.apply(0, "declare R2")
    for seat in range(3):
        d = _check(st, seat, Rng(seat))
        assert d.ctx is not None and st.ctx is not None
        assert {k: v for k, v in d.ctx.items() if k != "c"} == {k: v for k, v in st.ctx.items() if k != "c"}
        d.apply(0, "declare R2")  # the mission revealed comes from the re-drawn deck
        for key in ("phase", "top", "hand_sizes", "countdown", "turn", "dir"):
            assert d.view(seat)[key] == st2.view(seat)[key]


def test_the_blast_off_player_authors_a_mission() -> None:
    g = steps(custom_missions=True)
    st = stack(g, 3, hands={0: "BO-O O1 G2", 1: "CD R5 P5", 2: "R8 G9"}, top="O7", cur=1)
    st.apply(1, "play CD")
    run_countdown(st, {8: {2: "R8"}, "BO": {0: "BO-O"}})
    assert st.phase == AUTHOR and st.cur == 0
    for seat in range(3):
        d = _check(st, seat, Rng(seat))
        text = str(d.legal_actions(0)[-1])
        d.apply(0, text)
        assert d.view(seat)["missions"][-1]["source"]
        again = determinize(g, d.view(seat), seat, Rng(5))
        assert isinstance(again, BlastOffState)
        assert [(m.id, m.source) for m in again.customs] == [(m.id, m.source) for m in d.customs]
        assert again.view(seat) == d.view(seat)


def test_a_swap_target_choice_resumes_the_resolution() -> None:
    g = steps()
    st = stack(g, 3, hands={0: "O1 G2 G3", 1: "O9 R5 P5", 2: "R8 G9 P2 P3"}, top="O7", cur=1,
               inforce=("M14", "M06"))
    st.apply(1, "play O9")
    assert st.phase == CHOOSE
    for seat in range(3):
        d = _check(st, seat, Rng(seat))
        assert d.ctx is not None and st.ctx is not None
        assert {k: v for k, v in d.ctx.items() if k != "c"} == {k: v for k, v in st.ctx.items() if k != "c"}
        d.apply(1, "choose 2")
        st2 = st.clone()
        st2.apply(1, "choose 2")
        assert _public(d.view(seat)) == _public(st2.view(seat))
        if seat == 1:
            assert d.view(1)["known"] == [{"seat": 2, "cards": ["P5", "R5"]}]  # the hand seat 1 gave


def test_another_players_drawn_card_leaves_a_choice() -> None:
    """BLO-4.4.2: a DRAWN step (must-play) means the drawn card is a Wild or a restricted playable card."""
    found = 0
    for timing in ("steps", "realtime"):
        g = _game(timing)
        for seed in range(30):
            for st in _positions(g, 3, seed, every=1, limit=250):
                if st.view(st.cur)["phase"] != "DRAWN":
                    continue
                seat = (st.cur + 1) % 3
                assert st.view(seat)["drawn"] is None
                for k in range(5):
                    d = _check(st, seat, Rng(k))
                    assert d.drawn == d.hands[d.cur][-1] and len(drawn_options(d)) != 1
                found += 1
                break
    assert found >= 3


def test_cards_given_by_a_pass_stay_known_to_the_giver() -> None:
    """M04: every hand goes to the seat on the left, so its giver knows it, and nobody else does."""
    g = steps()
    st = stack(g, 3, hands={0: "O1 G3 R5", 1: "O8 G1 P3 R9 W", 2: "G5 P7 R1 O5"}, top="O2", cur=1,
               inforce=("M04",))
    st.apply(1, "play O8")
    finish_responses(st)
    assert st.view(1)["known"] == [{"seat": 2, "cards": ["W", "G1", "P3", "R9"]}]
    assert st.view(0)["known"] == [{"seat": 1, "cards": ["G3", "O1", "R5"]}]
    assert st.view(None)["known"] == []
    twin = st.resample_hidden(2, Rng(3))  # others' secrets: the known cards stay where they are
    assert twin.view(1) == st.view(1)
    assert twin.hands[2] != st.hands[2] or twin.draw != st.draw or st.hands[2] == []
    seen = set()
    for k in range(20):
        d1 = _check(st, 1, Rng(k))
        assert sorted(hand(d1, 2)) == sorted(hand(st, 2))  # the hand it gave
        seen.add(tuple(hand(d1, 0)))  # seat 0 got seat 2's hand, which seat 1 never saw
    assert len(seen) > 10


def test_determinize_is_supported_and_checks_counts() -> None:
    assert supported("blast-off")
    st = _game("steps").new_game(players=3, seed=1)
    view = json.loads(json.dumps(st.view(0)))
    view["draw_pile"] += 1
    with pytest.raises(ValueError, match="do not add up"):
        determinize(st.game, view, 0, Rng(1))
