"""The conformance suite: every registered game, every supported player count.

A game joins by registering itself; nothing here names a game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cosmodeck
from cosmodeck.engine import IllegalActionError, NotationError, Rng, State, derive_seed
from cosmodeck.sim.runner import random_playout
from tests.conformance.driver import drive, random_input

GAMES = cosmodeck.list_games()
CASES = [
    (gid, n)
    for gid in GAMES
    for n in range(cosmodeck.load_game(gid).info.min_players, cosmodeck.load_game(gid).info.max_players + 1)
]
SEEDS = [1, 2, 3]


def test_at_least_the_three_games_register() -> None:
    assert {"shooting-star"} <= set(GAMES)


@pytest.mark.parametrize(("game_id", "players"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_every_invariant(game_id: str, players: int, seed: int) -> None:
    game = cosmodeck.load_game(game_id)
    state = game.new_game(players=players, seed=seed)
    trace = drive(state, Rng(derive_seed(seed, 99)))
    assert state.is_over and state.result is not None
    assert state.to_act == frozenset() and state.next_deadline() is None
    assert state.result.winners <= set(range(players))
    assert all(state.legal_actions(s) == [] for s in range(players))
    with pytest.raises(IllegalActionError) as err:
        state.apply(0, trace.actions_seen[-1][2])
    assert err.value.code == "game_over"
    if game.info.cooperative:
        assert state.result.team_win in (True, False)
    json.dumps(state.result.to_dict())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_notation_round_trips(game_id: str, players: int) -> None:
    game = cosmodeck.load_game(game_id)
    state = game.new_game(players=players, seed=5)
    seen = 0

    def check(s: State) -> None:
        nonlocal seen
        for seat in s.to_act:
            for a in s.legal_actions(seat):
                text = str(a)
                back = game.parse_action(text)
                assert back == a and str(back) == text
                seen += 1

    drive(state, Rng(11), every=check)
    assert seen > 0
    for junk in ("", "   ", "\x00", "definitely not an action", "place", "42 42 42 42 42"):
        with pytest.raises(NotationError):
            game.parse_action(junk)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_json_round_trip_is_exact_midgame(game_id: str, players: int) -> None:
    game = cosmodeck.load_game(game_id)
    state = game.new_game(players=players, seed=8)
    rng = Rng(3)
    checks = 0
    step = 0
    while not state.is_over:
        if step % 4 == 0:
            text = state.to_json()
            back = game.load_state(text)
            assert back.to_json() == text
            for seat in [None, *range(players)]:
                assert back.view(seat) == state.view(seat)
            checks += 1
        random_input(state, rng)
        step += 1
    text = state.to_json()
    assert game.load_state(text).to_json() == text
    assert checks > 0


def _play_recorded(game_id: str, players: int, seed: int) -> State:
    state = cosmodeck.load_game(game_id).new_game(players=players, seed=seed)
    drive(state, Rng(derive_seed(seed, 7)))
    return state


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_same_seed_and_actions_give_the_same_record_and_replay_is_exact(game_id: str, players: int) -> None:
    a = _play_recorded(game_id, players, 21)
    b = _play_recorded(game_id, players, 21)
    assert a.record() == b.record()
    rec = json.loads(json.dumps(a.record()))
    again = cosmodeck.replay(rec)
    assert again.to_json() == a.to_json()
    assert again.result == a.result
    c = _play_recorded(game_id, players, 22)
    assert c.record() != a.record()


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_views_are_json_and_clone_is_independent(game_id: str, players: int) -> None:
    game = cosmodeck.load_game(game_id)
    state = game.new_game(players=players, seed=13)
    rng = Rng(1)
    for _ in range(12):
        if state.is_over:
            break
        for seat in [None, *range(players)]:
            json.dumps(state.view(seat))
        before = state.to_json()
        twin = state.clone()
        random_input(twin, rng)
        assert state.to_json() == before
        random_input(state, rng)


def _midgame(game_id: str, players: int, seed: int, steps: int) -> State:
    state = cosmodeck.load_game(game_id).new_game(players=players, seed=seed)
    rng = Rng(derive_seed(seed, 5))
    for _ in range(steps):
        if state.is_over:
            break
        random_input(state, rng)
    return state


@pytest.mark.parametrize(("game_id", "players"), CASES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60), owner_pick=st.integers(0, 10), rseed=st.integers(0, 999))
def test_no_leak_views_ignore_other_seats_secrets(
    game_id: str, players: int, seed: int, steps: int, owner_pick: int, rseed: int
) -> None:
    """Two states differing only in seat B's secrets give every other seat identical views."""
    state = _midgame(game_id, players, seed, steps)
    owner = owner_pick % players
    other = state.resample_hidden(owner, Rng(rseed))
    for seat in [None, *range(players)]:
        if seat != owner:
            assert other.view(seat) == state.view(seat), f"seat {seat} sees seat {owner}'s secrets"
    shared = state.resample_hidden(None, Rng(rseed))
    for seat in [None, *range(players)]:
        assert shared.view(seat) == state.view(seat), f"seat {seat} sees a secret nobody should"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_resample_hidden_really_changes_secrets(game_id: str, players: int) -> None:
    """The no-leak property is not vacuous: resampling does change hidden state."""
    changed = 0
    for seed in range(12):
        state = _midgame(game_id, players, seed, 3 + seed)
        for owner in [*range(players), None]:
            for r in range(3):
                if state.resample_hidden(owner, Rng(r)).to_json() != state.to_json():
                    changed += 1
    assert changed > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_random_playout_runner_finishes_fast_path(game_id: str) -> None:
    game = cosmodeck.load_game(game_id)
    for seed in range(5):
        state = game.new_game(players=game.info.min_players, seed=seed)
        decisions = random_playout(state, Rng(seed))
        assert state.is_over and decisions == state.decisions


def _all_views(state: State) -> list[dict[str, Any]]:
    return [state.view(s) for s in [None, *range(state.players)]]


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_players_and_seeds_are_refused(game_id: str) -> None:
    game = cosmodeck.load_game(game_id)
    for n in (0, game.info.min_players - 1, game.info.max_players + 1):
        with pytest.raises(ValueError):
            game.new_game(players=n, seed=1)
    with pytest.raises(ValueError):
        game.new_game(players=game.info.min_players, seed="x")  # type: ignore[arg-type]
