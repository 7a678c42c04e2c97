"""Meteor determinization: a full state from one seat's view, consistent with it (MET-D4)."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.determinize import determinize, supported
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import Chat, Emote, Signal
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.state import MeteorState
from tests.meteor.helpers import make, place, ref

TALK = (Signal, Emote, Chat)


def _det(st: MeteorState, seat: int, k: int) -> MeteorState:
    """Determinize ``st`` as ``seat`` sees it, with ``Rng(k)``."""
    d = determinize(st.game, st.view(seat), seat, Rng(k))
    assert type(d) is MeteorState
    return d


def _drive(game: MeteorGame, players: int, seed: int, stops: tuple[int, ...], mix: float) -> list[MeteorState]:
    """Play on a virtual clock (heuristic moves with probability ``mix``, else a random game action,
    sometimes talk), and keep a copy of the state after each decision count in ``stops``."""
    st = game.new_game(players=players, seed=seed)
    rng = Rng(seed * 31 + players)
    heuristic = MeteorHeuristic(game)
    snaps: list[MeteorState] = []
    decisions = 0
    while not st.is_over and len(snaps) < len(stops):
        t = st.now + rng.uniform(0.05, 1.5)
        deadline = st.next_deadline()
        if deadline is not None and deadline <= t:
            st.advance(deadline)
            continue
        seat = rng.randbelow(players)
        legal = st.legal_actions(seat)
        action = heuristic.act(st.view(seat), legal, rng) if rng.random() < mix else None
        if action is None:
            acts = [a for a in legal if not isinstance(a, TALK)] if rng.random() < 0.9 else legal
            if not acts:
                continue
            action = acts[rng.randbelow(len(acts))]
        st.apply(seat, action, at=t)
        decisions += 1
        if decisions in stops:
            snaps.append(st.clone())
    if st.is_over:
        snaps.append(st.clone())
    return snaps


GAMES = [(players, difficulty, first_game)
         for players in (1, 2, 3, 4, 5) for difficulty in ("standard", "advanced", "expert")
         for first_game in (False, True)]


@cache
def _positions(players: int, difficulty: str, first_game: bool) -> tuple[MeteorState, ...]:
    game = cosmodeck.load_game("meteor", difficulty=difficulty, first_game=first_game)
    assert isinstance(game, MeteorGame)
    seed = players * 100 + len(difficulty) + int(first_game)
    out = _drive(game, players, seed, (0, 1, 7, 30, 80, 200, 400), 0.3)
    out += _drive(game, players, seed + 1, (15, 60, 150), 0.9)  # mostly heuristic: further into the game
    return tuple(out)


def _legal_agree(d: MeteorState, st: MeteorState, seat: int) -> None:
    """The seat's legal actions agree: they never depend on what the seat cannot see (R21 for Backwards)."""
    assert d.legal_actions(seat) == st.legal_actions(seat)


def _check(st: MeteorState, seat: int, rngs: range = range(2)) -> None:
    view = st.view(seat)
    for k in rngs:
        d = _det(st, seat, k)
        assert d.view(seat) == view
        assert d.census() == st.census()  # every card is somewhere, exactly once
        _legal_agree(d, st, seat)
        assert d.next_deadline() == st.next_deadline() and d.to_act == st.to_act and d.now == st.now
        assert d.next_ref == st.next_ref  # the next meteor to enter gets the same public handle
        for other in [None, *range(st.players)]:  # what everyone sees of the public parts agrees too
            dv, sv = d.view(other), st.view(other)
            for key in ("sites", "discard", "techs", "volley", "countdowns", "removed", "passes", "powers",
                        "challenges", "timer", "time_out", "zone", "outcome", "meteor_deck", "resource_deck"):
                assert dv[key] == sv[key], key
            assert [h["count"] for h in dv["hands"]] == [h["count"] for h in sv["hands"]]
            assert [h["known"] for h in dv["hands"]] == [h["known"] for h in sv["hands"]]


def test_meteor_is_supported() -> None:
    assert supported("meteor")


@pytest.mark.parametrize(("players", "difficulty", "first_game"), GAMES)
def test_determinization_shows_the_seat_exactly_its_view(players: int, difficulty: str, first_game: bool) -> None:
    positions = _positions(players, difficulty, first_game)
    assert len(positions) >= 6
    for st in positions:
        for seat in range(players):
            _check(st, seat)


def test_the_positions_cover_the_hard_cases() -> None:
    """Open volley windows, Time Outs, several zones, Backwards and shown hands, hit meteors, ends."""
    seen: Counter[str] = Counter()
    for g in GAMES:
        for st in _positions(*g):
            seen["window"] += st.window is not None
            seen["time_out"] += st.paused is not None
            seen["zone<=3"] += st.zone <= 3
            seen["backwards"] += any(st.has_challenge(s, "backwards") for s in range(st.players))
            seen["known"] += any(st.known)
            seen["hit_face_up"] += any(fm.hit and fm.up for fm in st.field)
            seen["face_down"] += any(not fm.up for fm in st.field)
            seen["over"] += st.is_over
            seen["used_power"] += any(st.used) or any(st.zone_used)
            seen["setup"] += st.phase == "setup"
    assert all(seen[k] > 0 for k in ("window", "time_out", "zone<=3", "backwards", "known", "hit_face_up",
                                     "face_down", "over", "used_power", "setup")), seen


def _crafted() -> list[MeteorState]:
    """Rare situations built directly: Stealth, the Tracking Station, Backwards, Open Book, Twin
    Pads, a Countdown launch, Cracked stores, a Time Out during a volley window."""
    out = []
    # a hit Stealth boss stays face down; a Cracked meteor holds tucked rockets
    st = make(3, field=["B06", "M17", "M10", "M21"], up=["M17"], sites={0: ["R06", "S"], 1: ["R10", "F", "S"]},
              hands={0: ["F", "A"], 1: ["E"], 2: ["R13"]}, difficulty="expert", powers={0: "P04", 1: "P02"},
              challenges={2: "C04", 0: "C11"})
    st.apply(1, f"launch s1 {ref(st, 'B06')}", at=1)
    st.advance(5)
    st.apply(0, f"launch s0 {ref(st, 'M17')}", at=6)  # Countdown: due at 9
    out.append(st.clone())
    st.advance(12.5)
    st.apply(1, "show_hand", at=13)  # Open Book
    st.apply(0, f"place_card {st.hands[0][0]} s0.1", at=14)  # Twin Pads' second slot
    out.append(st.clone())
    st.apply(0, "time_out", at=15)
    out.append(st.clone())
    # Tracking Station: every face-down meteor left is Stealth
    ts = make(2, field=["B06", "M10", "M21"], techs=["T02"], hands={0: ["F", "S"], 1: ["A"]}, difficulty="advanced")
    ts.field[1].up = ts.field[2].up = True
    out.append(ts)
    # a first game: meteors face up, except Stealth
    fg = make(2, field=["B06", "M10"], up=["M10"], hands={0: ["F"], 1: ["A"]}, difficulty="advanced",
              first_game=True)
    place(fg, 0, "F", 0)
    out.append(fg)
    # an open volley window with two launches
    vw = make(2, field=["M24", "M01"], sites={0: ["R13", "S", "E"], 1: ["R10", "F", "S"]}, hands={0: ["A"]})
    vw.apply(0, f"launch s0 {ref(vw, 'M24')}", at=1)
    vw.apply(1, f"launch s1 {ref(vw, 'M24')}", at=2)
    out.append(vw)
    return out


def test_crafted_positions() -> None:
    positions = _crafted()
    assert positions[0].countdowns and any(fm.hit and not fm.up for fm in positions[0].field)
    assert positions[1].known[1] and positions[2].paused is not None and positions[5].window is not None
    for st in positions:
        for seat in range(st.players):
            _check(st, seat, range(4))


def test_a_hit_face_down_meteor_is_redrawn_as_stealth() -> None:
    st = _crafted()[0]
    hit = next(fm for fm in st.field if fm.hit and not fm.up)
    for k in range(10):
        fm = _det(st, 2, k).meteor(hit.ref)
        assert fm is not None and st.data.meteors[fm.id].trait == "stealth"
    # under the Tracking Station (or in a first game) every face-down meteor is Stealth
    for st in _crafted()[3:5]:
        down = [fm.ref for fm in st.field if not fm.up]
        for k in range(5):
            d = _det(st, 0, k)
            assert all(d.data.meteors[fm.id].trait == "stealth" for fm in d.field if fm.ref in down)


def _core(st: MeteorState) -> dict[str, Any]:
    core: dict[str, Any] = json.loads(st.to_json())["core"]
    return core


def test_what_the_seat_cannot_see_is_redrawn() -> None:
    seat = 1
    # a position where the others hold several hidden cards (which one depends on how the driven game went)
    st = next(p for p in _positions(3, "expert", False)
              if not p.is_over and sum(len(h) for s, h in enumerate(p.hands) if s != seat) >= 6)
    data = st.data
    hands, decks, meteors, mdecks, boxes, pboxes, rngs = (set() for _ in range(7))
    ordered: Counter[str] = Counter()
    for k in range(30):
        d = _det(st, seat, k)
        core = _core(d)
        assert core["hands"][seat] == st.hands[seat]
        for s in range(3):
            assert not Counter(st.known[s]) - Counter(core["hands"][s])  # known cards stay in their hand
        for fm, real in zip(d.field, st.field, strict=True):
            card, true = data.meteors[fm.id], data.meteors[real.id]
            assert (card.kind, card.back) == (true.kind, true.back)
            if fm.up:
                assert fm.id == real.id
        hands.add(tuple(tuple(h) for s, h in enumerate(core["hands"]) if s != seat))
        decks.add(tuple(core["deck"]))
        meteors.add(tuple(fm.id for fm in d.field if not fm.up))
        mdecks.add(tuple(core["meteor_deck"]))
        boxes.add(tuple(core["boss_box"]))
        pboxes.add(tuple(core["power_box"]))
        rngs.add(d.rng.state)
        for pile in ("deck", "meteor_deck", "boss_box"):  # an order is drawn, not just the contents
            ordered[pile] += core[pile] == sorted(core[pile])
    assert any(not fm.up for fm in st.field) and st.meteor_deck and len(st.boss_box) > 1
    for name, got in (("hands", hands), ("deck", decks), ("face-down meteors", meteors), ("meteor deck", mdecks),
                      ("boss box", boxes), ("power box", pboxes), ("rng", rngs)):
        assert len(got) > 10, name
    assert max(ordered.values()) <= 3, ordered


def test_face_down_identities_are_uniform_among_the_unseen() -> None:
    st = make(2, field=["M01", "M10"], hands={0: ["F"]})  # M01 has a 1-2 back: six meteors share it
    r = ref(st, "M01")
    counts = Counter(next(fm.id for fm in _det(st, 0, k).field if fm.ref == r) for k in range(600))
    assert sorted(counts) == ["M01", "M02", "M03", "M04", "M05", "M06"]
    assert all(60 <= n <= 140 for n in counts.values()), counts


def test_the_real_secrets_do_not_matter() -> None:
    """States that differ only in what the seat cannot see give the same determinizations."""
    cases = [_positions(2, "standard", False)[3], _positions(4, "expert", False)[4], _crafted()[1]]
    for st in cases:
        seat = 0
        twins = [st.resample_hidden(None, Rng(77))] + [st.resample_hidden(o, Rng(o)) for o in range(1, st.players)]
        assert any(t.to_json() != st.to_json() for t in twins)
        for twin in twins:
            for k in range(3):
                a = determinize(st.game, st.view(seat), seat, Rng(k)).to_json()
                b = determinize(twin.game, twin.view(seat), seat, Rng(k)).to_json()
                assert a == b


def test_a_backwards_hand_is_hidden_from_its_owner_only() -> None:
    st = _crafted()[1]  # seat 2 is Backwards
    assert st.has_challenge(2, "backwards") and st.view(0)["hands"][2]["cards"] == st.hands[2]
    own = {tuple(_det(st, 2, k).hands[2]) for k in range(20)}
    assert len(own) > 5  # its owner cannot see it: re-drawn
    for k in range(5):  # the others see it: copied exactly
        assert _det(st, 0, k).hands[2] == st.hands[2]


@pytest.mark.parametrize(("players", "difficulty"), [(2, "standard"), (4, "expert"), (5, "advanced")])
def test_a_determinization_plays_to_the_end(players: int, difficulty: str) -> None:
    st = _positions(players, difficulty, False)[3]
    seat = players - 1
    d = _det(st, seat, 3)
    rng = Rng(4)
    while not d.is_over:
        t = d.now + rng.uniform(0.1, 2.0)
        deadline = d.next_deadline()
        if deadline is not None and deadline <= t:
            d.advance(deadline)
            continue
        s = rng.randbelow(players)
        acts = [a for a in d.legal_actions(s) if not isinstance(a, TALK)]
        if acts:
            d.apply(s, acts[rng.randbelow(len(acts))], at=t)
    assert d.result is not None and d.result.team_win in (True, False)
    assert d.census() == st.census()
