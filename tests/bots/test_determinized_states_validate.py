"""Determinizers build their states without validation (``Game._load_trusted``, for speed); every state they
build must still pass every check ``load_state`` makes (issue 13), along random games of every game."""

from __future__ import annotations

import random

import pytest

import cosmodeck
from cosmodeck.bots.determinize import determinize
from cosmodeck.engine.rng import Rng

CASES = [("shooting-star", {}, 3), ("shooting-star", {}, 5), ("blast-off", {"timing": "steps"}, 3),
         ("blast-off", {}, 4), ("meteor", {}, 3), ("meteor", {"difficulty": "advanced"}, 4)]


@pytest.mark.parametrize("game_id,options,players", CASES)
def test_every_determinized_state_validates(game_id: str, options: dict[str, object], players: int) -> None:
    game = cosmodeck.load_game(game_id, **options)
    checked = 0
    for seed in range(3):
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for step in range(120):
            if state.is_over or not state.to_act:
                break
            if step % 3 == 0:
                for seat in range(players):
                    determinize(game, state.view(seat), seat, Rng(seed * 1000 + step)).validate()
                    checked += 1
            seat = sorted(state.to_act)[rng.randrange(len(state.to_act))]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 30
