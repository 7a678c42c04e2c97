"""The compiled public part of Meteor views (``games/meteor/view_fast.pyx:public``) equals the readable
``view._public_py``: on every step of seeded random games (setup, play, Time Outs, open volleys, countdowns,
removed meteors; every difficulty, 1-5 players) both give the same JSON, keys in the same order, with the
shared entries emptied first and with the entries the game has gathered; both leave the same shared entries."""

from __future__ import annotations

import importlib
import json

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor import view
from cosmodeck.games.meteor.state import MeteorState

fast = importlib.import_module("cosmodeck.games.meteor.view_fast")


def _json(x: object) -> str:
    return json.dumps(x)  # equal values, and dict keys in the same order


def test_the_compiled_module_is_built_and_used() -> None:
    assert view._public is fast.public  # a missing build fails here (the readable path would run silently)


def _check(st: MeteorState, seen: dict[str, int]) -> None:
    shared = st.site_entries
    try:
        st.site_entries = {}
        ref = _json(view._public_py(st))
        ref_keys = list(st.site_entries)
        st.site_entries = {}
        assert _json(fast.public(st)) == ref
        assert list(st.site_entries) == ref_keys  # the same entries, made in the same order
    finally:
        st.site_entries = shared
    assert _json(fast.public(st)) == _json(view._public_py(st))  # with the entries gathered so far
    seen["checked"] += 1
    seen["volleys"] += st.window is not None
    seen["countdowns"] += bool(st.countdowns)
    seen["removed"] += bool(st.removed)
    seen["time_outs"] += st.paused is not None


def test_public_equals_the_readable_one() -> None:
    seen = {"checked": 0, "volleys": 0, "countdowns": 0, "removed": 0, "time_outs": 0}
    for difficulty in ("standard", "advanced", "expert", "countdown"):
        game = load_game("meteor", difficulty="standard" if difficulty == "countdown" else difficulty)
        for seed in range(6):
            players = 1 + seed % 5
            st = game.new_game(players=players, seed=seed)
            assert isinstance(st, MeteorState)
            rng = Rng(seed)
            _check(st, seen)  # the setup phase
            if difficulty == "countdown":  # every seat under Countdown (C11): launches wait, sites show it
                st.apply(0, "start")
                st.challenges = [next(c for c, k in game.data.challenges.items() if k == "countdown")] * players
                st.touch()
            steps = 0
            while not st.is_over and steps < 250:
                if steps % 2 == 0:
                    _check(st, seen)
                seat = rng.randbelow(players)
                st.advance(st.now + rng.random() * (2 if rng.random() < 0.9 else 10))
                if st.is_over:
                    break
                legal = [a for a in st.legal_actions(seat) if type(a).__name__ not in ("Signal", "Emote", "Chat")]
                if legal:
                    st.apply(seat, legal[rng.randbelow(len(legal))])
                steps += 1
            _check(st, seen)  # the end
    assert seen["checked"] > 1000 and all(seen.values()), seen
