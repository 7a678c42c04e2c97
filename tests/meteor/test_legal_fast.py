"""``legality.legal`` (placements decided per site and card) equals ``legality.legal_reference`` (every
candidate filtered through ``why``): same actions, same order, on every seat of every state of seeded
games with random bots, at every difficulty (Powers and Challenges: Backwards, One-Handed, Closed Site,
Homebody, Light Payloads, Power Fault...)."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor import legality
from cosmodeck.games.meteor.actions import Give, Mechanic, Spot
from cosmodeck.games.meteor.state import MeteorState


def test_the_compiled_module_is_built_and_used() -> None:
    fast = importlib.import_module("cosmodeck.games.meteor.legality_fast")
    assert legality.legal is fast.legal  # a missing build fails here (the readable path would run silently)


PLACE_CHALLENGES = {"backwards", "one_handed", "closed_site", "homebody", "light_payloads", "power_fault"}


def _same_objects(st: MeteorState, fast: list[Any], readable: list[Any]) -> bool:
    """The compiled list (legality_fast.pyx) is the readable one: the very same interned objects in the same
    order; the actions neither interns (Mechanic, Spot, Give) are equal; in setup and Time Outs both are
    ``legal_reference``'s list of fresh actions."""
    if len(fast) != len(readable):
        return False
    if st.phase != "play" or st.paused is not None:
        return fast == readable
    return all(a is b or (type(a) in (Mechanic, Spot, Give) and a == b) for a, b in zip(fast, readable, strict=True))


def _compare(st: MeteorState, seen: Counter[str]) -> None:
    for seat in range(st.players):
        fast = legality.legal(st, seat)
        assert fast == legality.legal_reference(st, seat), (st, seat)
        assert _same_objects(st, fast, legality.legal_py(st, seat)), (st, seat)
        if st.phase == "play":
            seen["places"] += sum(1 for a in fast if type(a).__name__ == "PlaceCard")
            cid = st.challenges[seat]
            if cid is not None:
                seen[st.data.challenges[cid]] += 1
            pid = st.powers[seat]
            if pid is not None:
                seen[st.data.powers[pid]] += 1



def test_legal_equals_the_reference_on_random_games() -> None:
    seen: Counter[str] = Counter()
    for difficulty, first_game in (("standard", False), ("advanced", False), ("expert", False),
                                   ("standard", True)):
        game = load_game("meteor", difficulty=difficulty, first_game=first_game)  # a first game: talk, show
        for seed in range(16 if difficulty != "standard" else 4):
            players = 1 + seed % 5
            st = game.new_game(players=players, seed=seed)
            rng = Rng(seed)
            steps = 0
            while not st.is_over and steps < 400:
                _compare(st, seen)
                seat = rng.randbelow(players)
                st.advance(st.now + rng.random() * (2 if rng.random() < 0.9 else 8))
                if st.is_over:
                    break
                legal = st.legal_actions(seat)
                talkless = [a for a in legal if type(a).__name__ not in ("Signal", "Emote", "Chat")]
                if talkless:
                    st.apply(seat, talkless[rng.randbelow(len(talkless))])
                steps += 1
    assert seen["places"] > 1000
    assert set(seen) >= PLACE_CHALLENGES, seen  # every Challenge that bears on placements was met


def test_legal_equals_the_reference_with_every_power_and_the_recycling_plant() -> None:
    from tests.meteor.helpers import make

    data = load_game("meteor").data
    checked = 0
    # every Power (Spotter, Chronometrist, Mechanic, Courier...), with and without the Recycling Plant (T04),
    # decides which candidates legal leaves out without asking why
    for pid in sorted(data.powers):
        for techs in ([], ["T04"]):
            for up in ([], ["M01"]):
                st = make(3, field=["M01", "M21"], up=up, powers={0: pid}, techs=techs, difficulty="advanced",
                          hands={0: ["R01", "F", "A", "S"], 1: ["E"], 2: ["F"]},
                          sites={0: ["R06", "S"], 1: ["F", "F", "F"], 2: ["R10", "R13"]})
                for seat in range(3):
                    assert legality.legal(st, seat) == legality.legal_reference(st, seat), (pid, techs, seat)
                    assert _same_objects(st, legality.legal(st, seat), legality.legal_py(st, seat))
                    checked += 1
    assert checked == len(data.powers) * 12
