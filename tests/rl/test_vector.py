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


def _same(a: Any, b: Any) -> bool:
    from gymnasium.utils.env_checker import data_equivalence

    return bool(data_equivalence(a, b, exact=True))


@pytest.mark.parametrize("game_id,players,opts", [("shooting-star", 2, {}), ("blast-off", 3, {}),
                                                  ("meteor", 2, {"max_steps": 150, "step_s": 2.0})])
def test_vector_env_equals_gymnasium_sync_vector_env_of_gym_envs(game_id: str, players: int,
                                                                 opts: dict[str, Any]) -> None:
    """The native batch is Gymnasium's own SyncVectorEnv (same-step autoreset) over ``gym_env``s, step
    by step: observations, masks, rewards, flags, the final observation and mask of each finished
    game, and the seat; so each sub-environment is ``gym_env`` seeded ``S + i``."""
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from cosmodeck.rl import gym_env

    k = 3
    env = vector_env(game_id, players=players, num_envs=k, **opts)
    ref = SyncVectorEnv([lambda: gym_env(game_id, players=players, **opts) for _ in range(k)],
                        autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = env.reset(seed=7)
    robs, rinfo = ref.reset(seed=7)
    assert _same(obs, robs) and (info["seat"] == rinfo["seat"]).all()
    rng = np.random.default_rng(2)
    finals = 0
    for _ in range(400):
        actions = _random_actions(env, rng)
        obs, rew, term, trunc, infos = env.step(actions)
        robs, rrew, rterm, rtrunc, rinfos = ref.step(actions)
        assert _same(obs, robs)
        assert (rew == rrew).all() and (term == rterm).all() and (trunc == rtrunc).all()
        assert (infos["seat"] == rinfos["seat"]).all()
        for i in np.flatnonzero(term | trunc):
            finals += 1
            assert _same(infos["final_obs"][i], rinfos["final_obs"][i])
            mine, theirs = infos["final_info"], rinfos["final_info"]
            for key in ("seat", "winners", "_winners"):
                assert (key in mine) == (key in theirs)
                if key in mine:
                    assert mine[key][i] == theirs[key][i]
        assert "final_obs" in infos or not (term | trunc).any()
        if finals >= k:
            break
    assert finals >= k


def test_the_final_observation_mask_is_the_finished_games_and_the_next_mask_is_a_decision() -> None:
    """At a game's end the policy receives the first position of the next game (a non-empty mask),
    and ``final_obs`` holds the finished game's last observation: the ``over`` feature set and an
    all-zero mask (nobody decides in a finished game), equal to what the sub-environment shows."""
    env = vector_env("shooting-star", players=2, num_envs=2)
    over = env.envs[0].table.encoder.slices()["over"]
    env.reset(seed=3)
    rng = np.random.default_rng(4)
    seen = 0
    for _ in range(200):
        obs, _, term, _, infos = env.step(_random_actions(env, rng))
        assert obs["action_mask"].any(axis=1).all()
        assert (obs["observation"][:, over] == 0).all()
        for i in np.flatnonzero(term):
            final = infos["final_obs"][i]
            assert final["observation"][over][0] == 1.0 and not final["action_mask"].any()
            assert final["observation"].dtype == np.float32 and final["action_mask"].dtype == np.int8
            seen += 1
        if seen >= 4:
            break
    assert seen >= 4


def test_vector_env_passes_gymnasium_checks_that_apply_to_vector_envs() -> None:
    """Gymnasium has no ``check_env`` for vector environments; these are its single-env checks that
    apply: each sub-environment passes ``check_env``; reset and step data are in the batched spaces,
    are fresh arrays (never the env's own buffers, ``check_returned_data_not_reused``), and are
    deterministic under a seed (``data_equivalence``); the metadata names the autoreset mode, so
    Gymnasium's vector wrappers (``RecordEpisodeStatistics``) count episodes right."""
    import warnings

    from gymnasium.utils.env_checker import check_env
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = vector_env("blast-off", players=2, num_envs=4)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict-observation notes every Dict space draws (test_envs)
        check_env(env.envs[1], skip_render_check=True)
    a, _ = env.reset(seed=1)
    b, _ = env.reset(seed=1)
    assert _same(a, b) and a["observation"] is not b["observation"]
    assert env.observation_space.contains(a)
    acts = env.action_space.sample(mask=tuple(m.astype(np.int8) for m in env.action_masks()))
    assert env.action_space.contains(acts)
    o1, r1, t1, u1, _ = env.step(acts)
    env.reset(seed=1)
    o2, r2, t2, u2, _ = env.step(acts)
    assert _same((o1, r1, t1, u1), (o2, r2, t2, u2))
    o1["observation"][:] = 7.0  # a caller may scribble on what it got
    assert env.observation_space.contains(env.step(_random_actions(env, np.random.default_rng(0)))[0])
    stats = RecordEpisodeStatistics(vector_env("blast-off", players=2, num_envs=4))
    stats.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(3000):
        masks = stats.unwrapped.action_masks()  # type: ignore[attr-defined]
        _, _, term, trunc, _ = stats.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        episodes += int((term | trunc).sum())
        if episodes >= 4:
            break
    assert len(stats.return_queue) == episodes >= 4
    assert all(r in (-1.0, 0.0, 1.0) for r in stats.return_queue)
