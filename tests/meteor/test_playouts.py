"""Random playouts under every option set (the conformance suite only plays the defaults)."""

from __future__ import annotations

from typing import Any

import pytest

from cosmodeck.engine import Rng, State, derive_seed
from tests.conformance.driver import drive
from tests.meteor.helpers import load

VARIANTS: list[dict[str, Any]] = [
    {"difficulty": "advanced"},
    {"difficulty": "expert", "volley_window_s": 0},
    {"difficulty": "expert", "first_game": True, "allow_any_timeout": True},
    {"difficulty": "advanced", "countdown_s": 0, "one_handed_interval_s": 0, "zone_timer_s": 20},
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_MET_D2_MET_D5_random_playouts_keep_every_invariant(options: dict[str, Any], players: int) -> None:
    game = load(**options)
    state = game.new_game(players=players, seed=players)
    checks = {"json": 0}

    def every(s: State) -> None:
        if s.decisions % 9 == 0:
            text = s.to_json()
            assert game.load_state(text).to_json() == text
            other = s.resample_hidden(None, Rng(s.decisions))
            assert other.view(0) == s.view(0) and other.census() == s.census()
            owner = s.decisions % s.players
            mine = s.resample_hidden(owner, Rng(s.decisions))
            for seat in [None, *range(s.players)]:
                if seat != owner:
                    assert mine.view(seat) == s.view(seat)
            checks["json"] += 1

    drive(state, Rng(derive_seed(players, 17)), every=every)
    res = state.result
    assert res is not None and res.team_win in (True, False)
    assert res.details["cause"] in ("field_cleared", "timer", "all_pass", "overkill", "volatile_overkill")
    assert checks["json"] > 0


@pytest.mark.parametrize("options", VARIANTS[:3], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_MET_D2_records_replay_exactly(options: dict[str, Any]) -> None:
    game = load(**options)
    state = game.new_game(players=3, seed=9)
    drive(state, Rng(5))
    again = game.new_game(players=3, seed=9)
    for entry in state.record()["log"]:
        if entry[1] == "advance":
            again.advance(entry[0])
        else:
            again.apply(entry[1], entry[2], at=entry[0])
    assert again.to_json() == state.to_json() and again.result == state.result


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_MET_11_3_busy_playouts_launch_and_resolve_volleys(options: dict[str, Any]) -> None:
    """A driver that prefers game actions and launches, so volleys, retrofits and Overkills happen."""
    from cosmodeck.cli.boards.meteor_bot import choose
    from cosmodeck.games.meteor.actions import Chat, Emote, Launch, Signal, TimeOut

    game = load(**options)
    kinds: set[str] = set()
    for players in (1, 3, 5):
        state = game.new_game(players=players, seed=players)
        rng = Rng(players)
        census = state.census()
        while not state.is_over:
            deadline = state.next_deadline()
            if deadline is not None and rng.random() < 0.08:
                events = state.advance(deadline)
            else:
                seat = rng.randbelow(players)
                legal = state.legal_actions(seat)
                pool = [a for a in legal if not isinstance(a, (Signal, Emote, Chat, TimeOut))] or legal
                launches = [a for a in pool if isinstance(a, Launch)]
                pool = launches if launches and rng.random() < 0.7 else pool
                action = choose(state.view(seat), legal, rng, game.data) if rng.random() < 0.6 else None
                if action is None:
                    action = pool[rng.randbelow(len(pool))]
                at = state.now + rng.random() * 0.5
                events = state.apply(seat, action, at=at if deadline is None else min(at, deadline))
            kinds.update(e.type for e in events)
            assert state.census() == census
        text = state.to_json()
        assert game.load_state(text).to_json() == text
    assert {"launch", "volley", "zone_change", "rocket_built"} <= kinds
