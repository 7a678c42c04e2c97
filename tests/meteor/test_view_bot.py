"""The Meteor bot view (``games/meteor/view_bot.py:bot_view``) is a projection of a seat's own view: on every step
of seeded random games (setup, play, Time Outs, open volleys, countdowns, Backwards hands; every difficulty, 1-5
players, every seat) its entries (``BOT_KEYS``, in that order) equal the whole view's, built first or after the
whole view; the compiled shared part (``view_fast.bot_part``) equals the readable ``_bot_part_py`` and makes the
same shared entries; it refuses what is not a seat, and its sites and field entries are the very objects the whole
view shows. The Meteor heuristic is given it by the simulator (``view_for``) and plays exactly the games it plays
from the whole view (``tests/bots/test_meteor_bot_view.py``)."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor import view_bot
from cosmodeck.games.meteor.state import MeteorState
from cosmodeck.games.meteor.view_bot import BOT_KEYS, BotView, bot_view

fast = importlib.import_module("cosmodeck.games.meteor.view_fast")


def test_the_compiled_part_is_built_and_used() -> None:
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert view_bot._bot_part is fast.bot_part  # a missing build fails here (the readable path would run silently)


def _check(st: MeteorState, seen: dict[str, int]) -> None:
    shared = st.site_entries
    try:  # the compiled part equals the readable one, and makes the same shared entries in the same order
        st.site_entries = {}
        ref = json.dumps(view_bot._bot_part_py(st))
        ref_keys = list(st.site_entries)
        st.site_entries = {}
        assert json.dumps(fast.bot_part(st)) == ref
        assert list(st.site_entries) == ref_keys
    finally:
        st.site_entries = shared
    for first in (True, False):  # built alone (its own part), then from the whole view's public part
        st.touch()
        if first:
            got = {s: bot_view(st, s) for s in range(st.players)}
        fulls = {s: st.view(s) for s in range(st.players)}
        if not first:
            got = {s: bot_view(st, s) for s in range(st.players)}
        for s in range(st.players):
            g, full = got[s], fulls[s]
            assert type(g) is BotView and list(g) == list(BOT_KEYS), s
            want = {k: full[k] for k in BOT_KEYS}
            assert json.dumps(g) == json.dumps(want) and g == want, (s, first)
            for k in ("sites", "field"):  # the very entries the whole view shares (a bot's memos key on them)
                assert all(a is b for a, b in zip(g[k], full[k], strict=True)), k
            again = bot_view(st, s)
            assert again == g and again is not g  # a fresh top-level dict each call
    seen["checked"] += 1
    seen["volleys"] += st.window is not None
    seen["countdowns"] += bool(st.countdowns)
    seen["time_outs"] += st.paused is not None
    seen["seen_hands"] += any(h["cards"] is not None and h["seat"] != s
                              for s in range(st.players) for h in bot_view(st, s)["hands"])


def test_the_bot_view_is_the_views_entries_on_every_step() -> None:
    seen = {"checked": 0, "volleys": 0, "countdowns": 0, "time_outs": 0, "seen_hands": 0}
    for difficulty in ("standard", "advanced", "expert", "countdown", "backwards"):
        game = load_game("meteor", difficulty="standard" if difficulty in ("countdown", "backwards") else difficulty)
        for seed in range(4):
            players = 1 + (seed + len(difficulty)) % 5
            st = game.new_game(players=players, seed=seed)
            assert isinstance(st, MeteorState)
            rng = Rng(seed)
            _check(st, seen)  # the setup phase
            if difficulty in ("countdown", "backwards"):  # every seat under that Challenge
                st.apply(0, "start")
                st.challenges = [next(c for c, k in game.data.challenges.items() if k == difficulty)] * players
                st.touch()
            steps = 0
            while not st.is_over and steps < 120:
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
    assert seen["checked"] > 800 and all(seen.values()), seen


@pytest.mark.parametrize("seat", [None, -1, 2, True, "0", 0.0])
def test_it_refuses_what_is_not_a_seat(seat: Any) -> None:
    st = load_game("meteor").new_game(players=2, seed=1)
    with pytest.raises(IllegalActionError) as err:
        bot_view(st, seat)
    assert err.value.code == "bad_seat"
