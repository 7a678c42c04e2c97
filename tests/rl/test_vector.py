"""vector_env: batched spaces, same-step autoreset with correct final observations and masks, seeding."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cosmodeck.bots import make_bot
from cosmodeck.engine.errors import OptionError
from cosmodeck.rl import vector_env


def _random_actions(env: Any, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(row)) for row in env.action_masks()])


@pytest.mark.parametrize("game_id,players,opts", [("shooting-star", 2, {}), ("blast-off", 3, {}),
                                                  ("meteor", 2, {"max_steps": 300})])
def test_vector_env_batches_and_autoresets_in_the_same_step(game_id: str, players: int,
                                                            opts: dict[str, Any]) -> None:
    k = 4
    env = vector_env(game_id, players=players, num_envs=k, **opts)
    obs, _ = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    assert obs["action_mask"].shape == (k, env.single_action_space.n)
    rng = np.random.default_rng(11)
    ended = 0
    for _ in range(3000):
        masks = env.action_masks()
        assert masks.shape == obs["action_mask"].shape and (masks == obs["action_mask"].astype(bool)).all()
        assert masks.any(axis=1).all(), "every sub-environment must have a move to choose"
        obs, rewards, term, trunc, infos = env.step(_random_actions(env, rng))
        assert env.observation_space.contains(obs)
        for i in np.flatnonzero(term | trunc):
            ended += 1
            final = infos["final_obs"][i]
            assert infos["_final_obs"][i]
            assert env.single_observation_space.contains(final)
            if term[i]:
                assert not final["action_mask"].any() and rewards[i] in (-1.0, 0.0, 1.0)
            assert obs["action_mask"][i].any()  # the next episode's first position, not the finished one's
        if ended >= 2 * k:
            break
    assert ended >= 2 * k


def test_vector_env_is_a_function_of_its_seed_and_sub_envs_differ() -> None:
    def run(seed: int) -> list[np.ndarray[Any, Any]]:
        env = vector_env("blast-off", players=2, num_envs=3)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs["observation"].copy()]
        for _ in range(40):
            obs, *_ = env.step(_random_actions(env, rng))
            out.append(obs["observation"].copy())
        return out

    a, b, c = run(5), run(5), run(6)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert any((x != y).any() for x, y in zip(a, c, strict=True))
    assert (a[0][0] != a[0][1]).any()  # sub-environment i is seeded with seed + i


def test_vector_env_copies_bot_objects_per_sub_env_and_checks_num_envs() -> None:
    bot = make_bot("shooting-star", "heuristic")
    env = vector_env("shooting-star", players=2, num_envs=3, opponents=bot)
    bots = [e.unwrapped.bots[0] for e in env.envs]  # type: ignore[attr-defined]
    assert len({id(b) for b in bots}) == 3
    assert env.action_to_string(0) == env.envs[0].unwrapped.table.encoder.actions[0]  # type: ignore[attr-defined]
    for bad in (0, -1, True, 2.5, 10**6):
        with pytest.raises(OptionError):
            vector_env("shooting-star", players=2, num_envs=bad)
