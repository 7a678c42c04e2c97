"""Bots and RL encoders play from views alone: no game's catalogue is ever built for them."""

from __future__ import annotations

import numpy as np
import pytest

import cosmodeck
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.game import Game
from cosmodeck.rl import gym_env
from cosmodeck.sim.runner import bot_rng, play_game


@pytest.fixture
def no_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Game[object]) -> dict[str, object]:
        raise AssertionError(f"{self.id}: the catalogue was built")

    for game_id in cosmodeck.list_games():
        monkeypatch.setattr(type(cosmodeck.load_game(game_id)), "build_catalogue", refuse)


@pytest.mark.usefixtures("no_catalogue")
@pytest.mark.parametrize("game_id", ["meteor", "blast-off", "shooting-star"])
def test_heuristic_bots_play_a_whole_game_without_the_catalogue(game_id: str) -> None:
    game = cosmodeck.load_game(game_id)
    state = game.new_game(players=3, seed=2)
    assert play_game(state, make_bots(game_id, "heuristic", 3, game), bot_rng(2)) > 0
    assert state.is_over


@pytest.mark.usefixtures("no_catalogue")
@pytest.mark.parametrize("game_id", ["meteor", "blast-off", "shooting-star"])
def test_rl_observations_are_encoded_without_the_catalogue(game_id: str) -> None:
    env = gym_env(game_id, players=2)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, truncated, _ = env.step(int(rng.choice(legal)))
        if done or truncated:
            break
    assert "observation" in obs
