"""Shooting Star determinization: a full state from one seat's view, consistent with it."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.determinize import determinize
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State


def _midgame(players: int, seed: int, steps: int, **options: Any) -> State:
    game = cosmodeck.load_game("shooting-star", **options)
    st: State = game.new_game(players=players, seed=seed)
    rng = Rng(seed + 99)
    for _ in range(steps):
        if st.is_over:
            break
        seat = min(st.to_act)
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.randbelow(len(legal))])
    return st


CASES = [(p, seed, steps) for p in (2, 3, 5) for seed, steps in ((1, 0), (2, 1), (3, 4), (4, 9))]


@pytest.mark.parametrize(("players", "seed", "steps"), CASES)
def test_determinization_shows_the_seat_exactly_its_view(players: int, seed: int, steps: int) -> None:
    st = _midgame(players, seed, steps)
    seat = min(st.to_act)
    view = st.view(seat)
    for k in range(3):
        d = determinize(st.game, view, seat, Rng(k))
        assert type(d) is type(st)
        assert d.view(seat) == view
        assert d.census() == st.census()  # every card is somewhere, exactly once
        assert d.legal_actions(seat) == st.legal_actions(seat)
        for other in range(players):  # public parts of every other seat's view agree too
            dv, sv = d.view(other), st.view(other)
            assert dv["grid"] == {**sv["grid"], "cells": [
                {**c, "card": None if c["card"] is None else {**c["card"], "card": dc["card"]["card"]}}
                for c, dc in zip(sv["grid"]["cells"], dv["grid"]["cells"], strict=True)]}
            assert dv["conquest"] == sv["conquest"] and dv["debris"] == sv["debris"]


def test_what_the_seat_cannot_see_is_redrawn() -> None:
    st = _midgame(3, 11, 2)  # two opponents have a card face down, the seat to act has not
    seat = min(st.to_act)
    view = st.view(seat)
    facedown, missions = set(), set()
    for k in range(40):
        core = json.loads(determinize(st.game, view, seat, Rng(k)).to_json())["core"]
        facedown.add(tuple(p[1] for p in core["placed"]))
        missions.add(tuple(tuple(m) for s, m in enumerate(core["missions"]) if s != seat))
        assert core["missions"][seat] == [m["id"] for m in view["missions"][seat]]
    assert len(facedown) > 5 and len(missions) > 5


def test_the_real_secrets_do_not_matter() -> None:
    """Two states that differ only in the opponents' secrets give the same determinizations."""
    st = _midgame(2, 5, 3)
    seat = min(st.to_act)
    other = 1 - seat
    twin = st.resample_hidden(other, Rng(1234))
    assert twin.to_json() != st.to_json()
    for k in range(5):
        a = determinize(st.game, st.view(seat), seat, Rng(k)).to_json()
        b = determinize(twin.game, twin.view(seat), seat, Rng(k)).to_json()
        assert a == b


def test_custom_sector_variant_is_determinized_too() -> None:
    st = _midgame(3, 8, 4, custom_sector=True)
    seat = min(st.to_act)
    view = st.view(seat)
    d = determinize(st.game, view, seat, Rng(2))
    assert d.view(seat) == view
    assert d.legal_actions(seat) == st.legal_actions(seat)
    assert sorted(d.census().elements()) == sorted(st.census().elements())


def test_a_determinization_plays_to_the_end() -> None:
    st = _midgame(4, 21, 6)
    seat = min(st.to_act)
    d = determinize(st.game, st.view(seat), seat, Rng(3))
    rng = Rng(4)
    while not d.is_over:
        s = min(d.to_act)
        legal = d.legal_actions(s)
        d.apply(s, legal[rng.randbelow(len(legal))])
    assert d.result is not None and len(d.result.details["breakdown"]) == 4
