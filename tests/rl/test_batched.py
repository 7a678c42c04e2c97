"""batched_env: K games with every seat's observation, equal to parallel_env game by game; autoreset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl import batched_env, parallel_env


def _random_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    k, n, _ = masks.shape
    out = np.full((k, n), -1)
    for i in range(k):
        for s in range(n):
            legal = np.flatnonzero(masks[i, s])
            if legal.size:
                out[i, s] = rng.choice(legal)
    return out


@pytest.mark.parametrize("game_id,players,opts", [("shooting-star", 3, {}), ("blast-off", 2, {}),
                                                  ("meteor", 2, {"max_steps": 200})])
def test_each_batched_game_is_the_parallel_env_with_seed_plus_i(game_id: str, players: int,
                                                                opts: dict[str, Any]) -> None:
    k = 3
    env = batched_env(game_id, players=players, num_envs=k, **opts)
    obs, masks, _ = env.reset(seed=20)
    singles = [parallel_env(game_id, players=players, **opts) for _ in range(k)]
    sobs = [p.reset(seed=20 + i)[0] for i, p in enumerate(singles)]
    rng = np.random.default_rng(1)
    live = [True] * k
    for _ in range(60):
        for i, p in enumerate(singles):
            if live[i]:
                for s, agent in enumerate(p.possible_agents):
                    assert (obs[i, s] == sobs[i][agent]["observation"]).all()
                    assert (masks[i, s] == sobs[i][agent]["action_mask"]).all()
        actions = _random_actions(masks, rng)
        obs, masks, rewards, term, trunc, infos = env.step(actions)
        assert not infos["illegal"].any()
        for i, p in enumerate(singles):
            if not live[i]:
                continue
            sobs[i], srew, sterm, strunc, _ = p.step({a: int(actions[i, s]) for s, a in enumerate(p.possible_agents)
                                                      if actions[i, s] >= 0})
            agent0 = p.possible_agents[0]
            assert (sterm[agent0], strunc[agent0]) == (term[i], trunc[i])
            if term[i] or trunc[i]:
                live[i] = False
                assert infos["_final"][i]
                assert [srew[a] for a in p.possible_agents] == rewards[i].tolist()
                assert masks[i].any(), "the next game starts in the same step"


def test_batched_env_autoresets_and_refuses_bad_shapes() -> None:
    env = batched_env("shooting-star", players=2, num_envs=4)
    obs, masks, _ = env.reset(seed=0)
    assert obs.shape[:2] == masks.shape[:2] == (4, 2)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        assert masks.any(axis=(1, 2)).all(), "someone decides in every game"
        obs, masks, rewards, term, trunc, infos = env.step(_random_actions(masks, rng))
        assert (infos["_final"] == (term | trunc)).all()
        if infos["_final"].any():
            ended += int(infos["_final"].sum())
            i = int(np.flatnonzero(infos["_final"])[0])
            assert not infos["final_action_masks"][i].any()
            assert set(rewards[i].tolist()) <= {-1.0, 0.0, 1.0}
    assert ended >= 4
    with pytest.raises(OptionError):
        env.step(np.zeros((3, 2), int))
    with pytest.raises(OptionError):
        batched_env("shooting-star", players=2, num_envs=0)
    assert env.action_to_string(0).startswith("place ")
