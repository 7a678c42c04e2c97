"""The compiled environment steps (``rl/steps_fast.pyx``) against the readable loops they copy.

``run_random`` is ``CosmodeckGym._run_bots`` with random opponents; ``vector_step`` is
``CosmodeckVectorEnv._step_py``. Both paths run side by side on the same seeds and actions (illegal ones
included) and must hand out the same observations, masks, rewards, flags, final observations and infos.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from cosmodeck.bots.random_bot import RandomBot
from cosmodeck.engine.rng import Rng
from cosmodeck.rl import gym_env, vector_env
from tests.rl.helpers import aec_state, same


class PlainRandom(RandomBot):
    """The random bot under another type: ``gym_env`` runs it through the generic bot path."""


#: episodes per differential test (vector batch steps: 15x); ``COSMODECK_STEPS_EPISODES=1000`` for a long run
EPISODES = int(os.environ.get("COSMODECK_STEPS_EPISODES", "10"))


def _built() -> bool:
    from cosmodeck.rl import vector

    return vector._FAST is not None and vector_env("shooting-star", players=2, num_envs=1)._fast is not None


# without the build (of ``steps_fast`` or ``shooting_star_fast``) only the first test fails; these are skipped
needs_built = pytest.mark.skipif(not _built(), reason="steps_fast or shooting_star_fast is not built")


def test_the_compiled_steps_are_importable_and_used() -> None:
    from cosmodeck.rl import steps_fast

    assert steps_fast.__file__ is not None and not steps_fast.__file__.endswith((".py", ".pyx"))
    env = vector_env("shooting-star", players=2, num_envs=2)
    assert env._fast is steps_fast
    assert all(e._fast is steps_fast and e._random_only for e in env.envs)
    assert vector_env("meteor", players=2, num_envs=2)._fast is None  # (real time: the readable loop)
    assert gym_env("shooting-star", players=2, opponents="heuristic")._fast is None


@needs_built
def test_randbelow_is_the_engine_generators() -> None:
    from cosmodeck.rl.steps_fast import randbelow

    for seed in range(40):
        a, b = Rng(seed), Rng(seed)
        for n in (1, 2, 3, 7, 100, 431, 2**31 + 11, 2**62 - 1):
            assert randbelow(a, n) == b.randbelow(n)
            assert a.state == b.state
    with pytest.raises(ValueError):
        randbelow(Rng(1), 0)


@needs_built
@pytest.mark.parametrize("players", [2, 3, 5])
def test_gym_random_opponents_compiled_equal_the_bot_path(players: int) -> None:
    """Four environments on the same seeds and actions: the compiled ``step`` and ``run_random``; the readable
    ``step`` and random-only loop (``_fast_step`` and ``_fast`` off); the generic bot path (a ``RandomBot``
    subclass) under the compiled ``step``, and under the readable one."""
    envs = [gym_env("shooting-star", players=players, opponents="random", seat="random"),
            gym_env("shooting-star", players=players, opponents="random", seat="random"),
            gym_env("shooting-star", players=players, opponents=PlainRandom(), seat="random"),
            gym_env("shooting-star", players=players, opponents=PlainRandom(), seat="random")]
    assert envs[0]._fast is not None and envs[0]._fast_step is not None
    envs[1]._fast = envs[1]._fast_step = None
    assert not envs[2]._random_only and envs[2]._fast_step is not None
    envs[3]._fast_step = None
    rng = np.random.default_rng(3)
    for episode in range(EPISODES):
        got = [e.reset(seed=100 + episode) for e in envs]
        assert all(same(got[0], g) for g in got[1:])
        done = False
        while not done:
            mask = got[0][0]["action_mask"]
            act = int(rng.choice(np.flatnonzero(mask))) if rng.random() > 0.05 else int(rng.integers(mask.size))
            got = [e.step(act) for e in envs]
            assert all(same(got[0], g) for g in got[1:])
            done = got[0][2] or got[0][3]


@needs_built
@pytest.mark.parametrize("game_id,players,k", [("shooting-star", 2, 8), ("shooting-star", 4, 5), ("blast-off", 2, 8),
                                               ("blast-off", 3, 5)])
def test_vector_step_compiled_equals_the_readable_loop(game_id: str, players: int, k: int) -> None:
    fast = vector_env(game_id, players=players, num_envs=k, seat="random")
    slow = vector_env(game_id, players=players, num_envs=k, seat="random")
    assert fast._fast is not None
    assert fast.envs[0].table.encoder.rows_writer is not None  # the batch's rows in one call
    slow._fast = None
    a, ai = fast.reset(seed=21)
    b, bi = slow.reset(seed=21)
    assert same((a, ai), (b, bi))
    rng = np.random.default_rng(5)
    finals = illegal = 0
    for _ in range(15 * EPISODES):
        masks = fast.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        bad = rng.random(k) < 0.05  # now and then an index outside the mask: nothing changes, the flag is set
        acts[bad] = rng.integers(0, masks.shape[1], int(bad.sum()))
        out_fast = fast.step(acts)
        out_slow = slow.step(acts)
        assert same(out_fast[:4], out_slow[:4])
        fi, si = out_fast[4], out_slow[4]
        assert sorted(fi) == sorted(si)
        for key in fi:
            if key == "final_info":
                assert sorted(fi[key]) == sorted(si[key])
                for sub in fi[key]:
                    assert same(list(fi[key][sub]), list(si[key][sub])), sub
            else:
                assert same(fi[key], si[key]), key
        finals += int((out_fast[2] | out_fast[3]).sum())
        illegal += int(fi.get("illegal_action", np.zeros(k, dtype=bool)).sum())
    assert finals >= k and illegal > 0


@needs_built
def test_vector_step_refuses_mismatched_batches() -> None:
    from cosmodeck.rl.steps_fast import vector_step

    env = vector_env("shooting-star", players=2, num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="one row per sub-environment"):
        vector_step(env.envs, [0], env._obs_rows, env._mask_rows, env._rewards, env._term_u8, env._trunc_u8,
                    env._seats)


@needs_built
@pytest.mark.parametrize(("game_id", "players"), [("shooting-star", 2), ("shooting-star", 4), ("blast-off", 2),
                                                  ("blast-off", 4)])
def test_aec_compiled_last_and_step_equal_the_readable_ones(game_id: str, players: int) -> None:
    from cosmodeck.rl import aec_env

    fast, slow = aec_env(game_id, players=players), aec_env(game_id, players=players)
    assert fast._fast is not None
    slow._fast = None
    rng = np.random.default_rng(8)
    illegal = 0
    for episode in range(EPISODES):
        fast.reset(seed=40 + episode)
        slow.reset(seed=40 + episode)
        assert aec_state(fast) == aec_state(slow)
        for agent in fast.agent_iter():
            got, want = fast.last(), slow.last()
            assert same(got, want) and slow.agent_selection == agent
            assert fast.last(observe=False)[0] is None
            obs, _, term, trunc, _ = got
            if term or trunc:
                act = None
            elif rng.random() < 0.06:  # an index outside the mask, or None: nothing changes, the info says so
                act = None if rng.random() < 0.5 else int(rng.integers(obs["action_mask"].size))
                illegal += act is None or not obs["action_mask"][act]
            else:
                act = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            fast.step(act)
            slow.step(act)
            assert aec_state(fast) == aec_state(slow)
        assert not slow.agents
    assert illegal > 0


@needs_built
@pytest.mark.parametrize(("game_id", "players"), [("shooting-star", 2), ("shooting-star", 3), ("blast-off", 2),
                                                  ("blast-off", 3)])
def test_parallel_compiled_step_equals_the_readable_one(game_id: str, players: int) -> None:
    """The compiled step (one seat decides: only its action read) against the readable one, with actions outside
    the mask, for seats not deciding (some not even numbers) and for unknown agents."""
    from cosmodeck.rl import parallel_env

    fast, slow = parallel_env(game_id, players=players), parallel_env(game_id, players=players)
    assert fast._fast is not None
    slow._fast = None
    rng = np.random.default_rng(9)
    illegal = 0
    for episode in range(EPISODES):
        a, b = fast.reset(seed=60 + episode), slow.reset(seed=60 + episode)
        assert same(a, b)
        obs = a[0]
        while fast.agents:
            actions: dict[str, Any] = {}
            for agent, o in obs.items():
                mask = o["action_mask"]
                draw = rng.random()
                if draw < 0.08:  # outside the mask, for a seat not deciding, or an unknown agent
                    actions[agent] = int(rng.integers(mask.size))
                    illegal += bool(mask.any() and not mask[actions[agent]])
                elif draw < 0.12:  # no action (the deciding seat then does nothing), or not a number (not read)
                    actions[agent] = None if mask.any() else "not a number"
                elif mask.any():
                    actions[agent] = int(rng.choice(np.flatnonzero(mask)))
            if rng.random() < 0.05:
                actions["nobody"] = 3
            got, want = fast.step(actions), slow.step(actions)
            assert same(got, want) and fast.agents == slow.agents
            obs = got[0]
    assert illegal > 0


@needs_built
@pytest.mark.parametrize("game_id", ["shooting-star", "blast-off"])
def test_write_rows_is_write_and_fill_mask_row_by_row(game_id: str) -> None:
    """The compiled writer's ``write_rows`` (``vector_step``'s batch of rows in one call) writes every row as
    ``write`` and ``fill_mask`` do, an all-zero mask for an inactive row, over rows holding stale values."""
    from cosmodeck.rl.table import Table

    table = Table(game_id, 3, {})
    enc = table.encoder
    writer = enc.rows_writer
    assert writer is not None and writer.__self__ is enc.direct.compiled
    rng = np.random.default_rng(2)
    states, seats, active = [], [], []
    for seed in range(12):
        table.reset(seed)
        for _ in range(int(rng.integers(0, 18))):
            if table.done:
                break
            seat = table.queue[0]
            table.act_index(seat, int(rng.choice(np.flatnonzero(table.mask(seat)))))
        states.append(table.state)
        seats.append(int(rng.integers(0, 3)))
        active.append(bool(not table.done and seats[-1] in table.queue and seed % 3))
    k = len(states)
    obs = np.full((k, enc.obs_size), 7.0, dtype=np.float32)
    masks = np.full((k, enc.num_actions), 3, dtype=np.int8)
    writer(states, np.array(seats, dtype=np.int64), np.array(active, dtype=np.uint8), obs, masks)
    for i in range(k):
        row = np.full(enc.obs_size, 5.0, dtype=np.float32)
        enc.row_writer(states[i], seats[i], row)
        assert np.array_equal(obs[i], row), i
        mask = np.zeros(enc.num_actions, dtype=np.int8)
        if active[i]:
            enc.mask_writer(states[i], seats[i], mask)
            assert mask.any()
        assert np.array_equal(masks[i], mask), i
    assert any(active) and not all(active)
    with pytest.raises(ValueError, match="do not match"):
        writer(states, np.array(seats, dtype=np.int64), np.array(active, dtype=np.uint8), obs[:, 1:].copy(), masks)


@needs_built
@pytest.mark.parametrize(("game_id", "players", "seat", "opponents"), [
    ("shooting-star", 2, 0, "random"), ("shooting-star", 4, "random", "random"),
    ("shooting-star", 3, "random", "heuristic"), ("blast-off", 2, "random", "random")])
def test_gym_start_compiled_equals_the_readable_one(game_id: str, players: int, seat: Any, opponents: str) -> None:
    """``steps_fast.gym_start`` (``CosmodeckGym._start``'s compiled form) leaves the environment as ``_start_py``:
    the same game, generators, seats, bots' moves and table bookkeeping, seeded or not."""
    fast = gym_env(game_id, players=players, seat=seat, opponents=opponents)
    slow = gym_env(game_id, players=players, seat=seat, opponents=opponents)
    assert fast._fast_step is not None
    seats = set()
    for k in range(40):
        seed = None if k % 4 == 3 else 1000 + k
        fast._start(seed)
        slow._start_py(seed)
        a, b = fast.table, slow.table
        assert a.state.to_json() == b.state.to_json(), k
        assert fast.bot_rng.state == slow.bot_rng.state and fast.seat == slow.seat, k
        assert fast.np_random.bit_generator.state == slow.np_random.bit_generator.state, k
        assert list(fast._by_seat) == list(slow._by_seat) and fast._plans == slow._plans == {}
        assert (a.queue, a.steps, a.stuck, a._ver, a.done, a._progress, a.order_rng) == (
            b.queue, b.steps, b.stuck, b._ver, b.done, b._progress, b.order_rng), k
        assert same(a.observe(fast.seat), b.observe(slow.seat))
        seats.add(fast.seat)
    assert len(seats) == (1 if seat == 0 else players)
