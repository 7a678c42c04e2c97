"""Engine hooks: notation, one source of legality, census, JSON, clone, hidden information (BLO-13)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import IllegalActionError, NotationError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import (
    DONE,
    DRAW,
    KEEP,
    PASS,
    Announce,
    Catch,
    Choose,
    Gesture,
    Play,
    Slap,
    parse_action,
)
from cosmodeck.games.blast_off.cards import COLOURS, NTYPES, VALUES, WILD_T
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.state import BlastOffState
from tests.blast_off.helpers import game, hand, public, stack, steps
from tests.conformance.driver import random_step

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"timing": "steps"},
    {"timing": "steps", "mission_out_of_control": True, "drawn_card_play": "may", "play_for_places": True},
    {"mission_enforcement": "assist", "countdown_pace": "fast", "custom_missions": True},
    {"timing": "steps", "mission_enforcement": "referee", "custom_missions": True, "voluntary_draw": True},
    {"mission_out_of_control": True, "mission_enforcement": "referee", "false_catch_penalty": 1},
]


def universe(g: BlastOffGame, players: int) -> list[Any]:
    acts: list[Any] = [Play(t) for t in range(NTYPES)] + list(g.wild_plays) + [Play(3, 1, 4)]
    acts += [Slap(t, v) for t in range(NTYPES) for v in VALUES] + list(g.wild_bo_slaps) + [Slap(WILD_T, 4, 1, 4)]
    acts += list(g.declares) + [Choose(s) for s in range(players + 1)] + [DRAW, PASS, KEEP, DONE]
    for m in g.missions:
        if m.kind == "obligation":
            acts += [Gesture(m.token), Announce(m.token)]
            acts += [Announce(m.token, c) for c in COLOURS] + [Announce(m.token, str(k)) for k in range(13)]
    acts += [Catch(t, i) for t in range(players + 1) for i in (None, *(m.id for m in g.missions))]
    return acts + list(g.pool_acts)


def playout(g: BlastOffGame, players: int, seed: int, max_steps: int = 3000) -> Iterator[BlastOffState]:
    st = g.new_game(players, seed=seed)
    rng = Rng(seed + 1000)
    for _ in range(max_steps):
        if st.is_over:
            return
        yield st
        kind, seat, action, at = random_step(st, rng)
        if kind == "advance":
            st.advance(at)
        else:
            assert seat is not None
            st.apply(seat, action, at=at)


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_check_agrees_exactly_with_legal_on_random_playouts(opts: dict[str, Any]) -> None:
    g = game(**opts)
    checked = 0
    for players in (2, 4):
        acts = universe(g, players)
        for i, st in enumerate(playout(g, players, seed=players * 7, max_steps=1200)):
            if i % 11:
                continue
            for seat in range(players):
                legal = set(st.legal_actions(seat))
                for a in acts:
                    assert st.is_legal(seat, a) == (a in legal), (str(a), seat, st.view(None)["phase"])
                for a in legal:
                    assert parse_action(str(a)) == a
                checked += 1
    assert checked > 20


def test_notation_round_trips_and_malformed_text_is_refused() -> None:
    g = game()
    for a in universe(g, 4):
        if a != Play(3, 1, 4):  # not expressible: only a Wild carries a declaration
            assert parse_action(str(a)) == a and str(parse_action(str(a))) == str(a)
    for bad in ("play", "play O11", "play W[X4]", "play O7 ", "slap O7", "slap O7 11", "declare R", "catch -1",
                "announce lower", "author [1]", "author {", "PLAY O7", "draw now", "choose 100"):
        with pytest.raises(NotationError):
            g.parse_action(bad)
    assert str(g.parse_action('author {"b": 1, "a": [2]}')) == 'author {"a":[2],"b":1}'


def test_illegal_actions_change_nothing() -> None:
    st = stack(game(), hands={1: "G7 O2", 2: "O1"}, top="O7")
    before = st.to_json()
    for text in ("play R9", "draw", "slap G7 7", "declare R4", "keep", "catch 2", "announce HOUSTON"):
        with pytest.raises(IllegalActionError):
            st.apply(1, text)
    assert st.to_json() == before


@pytest.mark.parametrize("opts", OPTION_SETS[:4])
def test_census_constant_json_exact_clone_independent(opts: dict[str, Any]) -> None:
    g = game(**opts)
    census = None
    for i, st in enumerate(playout(g, 4, seed=3, max_steps=700)):
        census = census or st.census()
        assert st.census() == census
        if i % 10 == 0:
            text = st.to_json()
            back = g.load_state(text)
            assert back.to_json() == text and back.view(1) == st.view(1)
            twin = st.clone()
            for seat in sorted(twin.to_act)[:1]:
                twin.apply(seat, twin.legal_actions(seat)[0], at=twin.now)
            assert st.to_json() == text


def test_BLO_13_views_hide_hands_draw_order_and_pending_choices() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "O9 G3", 3: "R9 P4", 0: "G5"}, top="O7", cur=1)
    st.apply(1, "play CD")
    st.apply(1, "pass")
    st.apply(2, "pass")
    v3, v2 = st.view(3), st.view(2)
    assert v3["hand"] == ["P4", "R9"] and "G3" not in json.dumps(v3) and v2["pending"] == "pass"
    assert v3["pending"] is None and v3["countdown"]["acted"] == [1, 2] and "draw" not in json.dumps(v3["discard"])
    other = st.resample_hidden(2, Rng(5))
    for seat in (None, 0, 1, 3):
        assert other.view(seat) == st.view(seat)


def test_BLO_13_rejected_slaps_private_bounces_public_without_the_card() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O6 O2", 3: "G6 G2"}, top="G4")
    st.apply(1, "play CD", at=0.0)
    st.advance(6.1)
    with pytest.raises(IllegalActionError) as e:
        st.apply(3, "slap G2 6", at=6.2)
    assert e.value.events == []
    st.apply(2, "slap O6 6", at=6.3)
    ev = st.apply(3, "slap G6 6", at=6.4)
    assert public(ev) == [{"type": "slap_bounced", "seat": 3, "value": 6}]


def test_resample_hidden_keeps_known_cards_and_counts() -> None:
    st = stack(steps(), hands={1: "O2 R3", 2: "O5 G7", 3: "G1", 0: "P1"}, top="O9", inforce=("M04",))
    st.apply(1, "play O2")  # hands pass left: seat 2 now holds R3, known to seat 1
    changed = 0
    fresh = stack(steps(), hands={1: "O2 R3", 2: "O5 G7", 3: "G1 P4", 0: "P1"}, top="O9")
    for r in range(20):
        other = st.resample_hidden(2, Rng(r))
        assert hand(other, 2) == hand(st, 2) == ["R3"]
        st, keep = fresh, st
        other3 = st.resample_hidden(3, Rng(r))
        assert len(other3.hands[3]) == 2 and sorted(other3.census()) == sorted(st.census())
        changed += other3.hands[3] != st.hands[3]
        assert other3.view(1) == st.view(1)
        st = keep
    assert changed > 10
    shuffled = st.resample_hidden(None, Rng(1))
    assert shuffled.hands == st.hands and shuffled.draw != st.draw and sorted(shuffled.draw) == sorted(st.draw)


def test_BLO_2_1_the_first_player_without_cards_wins() -> None:
    g = game(timing="steps")
    for seed in range(5):
        st = g.new_game(3, seed=seed)
        for st in playout(g, 3, seed):  # noqa: B007
            pass
        st = g.load_state(st.to_json())
        while not st.is_over:
            seat = min(st.to_act)
            st.apply(seat, st.legal_actions(seat)[0])
        assert st.result is not None and all(not st.hands[w] for w in st.result.winners)
    st = stack(game(), 3, hands={0: "O1 O2", 1: "O3", 2: "G1"}, top="O9", cur=1)
    st.apply(1, "play O3")
    assert st.result is not None and st.result.winners == {1} and st.result.reason == "out"


def test_BLO_9_0_variants_are_off_by_default() -> None:
    o = game().options
    assert (o["mission_out_of_control"], o["custom_missions"], o["play_for_places"]) == (False, False, False)
    assert o["timing"] == "realtime" and o["mission_enforcement"] == "catch" and o["false_catch_penalty"] == 0


def test_BLO_11_4_same_seed_and_actions_reproduce_the_game() -> None:
    def run(seed: int) -> dict[str, Any]:
        g = game(timing="steps")
        states = list(playout(g, 4, seed))
        st = states[-1] if states else g.new_game(4, seed=seed)
        return st.record()

    a, b = run(4), run(4)
    assert a == b and run(5) != a
    again = cosmodeck.replay(json.loads(json.dumps(a)))
    assert again.record() == a
