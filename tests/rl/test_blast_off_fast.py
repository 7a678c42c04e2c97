"""Blast Off!'s compiled writer (``rl/encoders/blast_off_fast.pyx``) against the readable direct path.

The compiled writer gives Blast Off!'s encoder the table's hooks (``row_writer``, ``mask_writer``,
``action_at``, ``observer``, ``actor``), and through them the compiled environment steps
(``rl/steps_fast.pyx``). Each environment runs side by side with one whose encoder has no hook and whose
compiled steps are off (the readable path: ``BlastOffDirect.write`` with the table's memo and the readable log
tracker ``LogTrack``, ``legal_map``, ``MapLegal``), on the same seeds and actions (illegal ones included):
observations, masks, rewards, flags, infos and final observations must be the same at every step.
``tests/rl/test_direct.py`` also checks the hooked table's rows against encoding ``view(seat)`` on random
states.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from cosmodeck.rl import aec_env, gym_env, parallel_env, vector_env
from cosmodeck.rl.encoders.base import EMPTY_VIEW, Encoder
from cosmodeck.rl.encoders.blast_off_track import LogTrack
from cosmodeck.rl.table import Table
from tests.rl.conftest import RT
from tests.rl.helpers import aec_state, random_decisions, same

#: episodes per differential test; ``COSMODECK_STEPS_EPISODES=1000`` for a long run
EPISODES = int(os.environ.get("COSMODECK_STEPS_EPISODES", "6"))
HOOKS = ("row_writer", "mask_writer", "action_at", "observer", "actor")
TURN_CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (6, {}),
    (4, {"custom_missions": True, "play_for_places": True}),
]


def _strip(enc: Encoder) -> None:
    """The readable path: no compiled hook on this encoder, and the readable log tracker (``LogTrack``)."""
    for hook in HOOKS:
        setattr(enc, hook, None)
    enc.direct.track = LogTrack  # type: ignore[attr-defined]


def test_the_compiled_writer_is_importable_and_hooked() -> None:
    from cosmodeck.rl.encoders import blast_off_fast

    assert blast_off_fast.__file__ is not None and not blast_off_fast.__file__.endswith((".py", ".pyx"))
    enc = Table("blast-off", 2, {}).encoder
    assert all(getattr(enc, h) is not None for h in HOOKS)
    rt = Table("blast-off", 3, {"timing": "realtime", **RT}).encoder
    assert rt.row_writer is not None  # real time: the observation only (the mask adds ``wait``)
    assert all(getattr(rt, h) is None for h in HOOKS if h != "row_writer")
    assert aec_env("blast-off", players=2)._fast is not None
    assert vector_env("blast-off", players=2, num_envs=2)._fast is not None


@pytest.mark.parametrize("case", TURN_CASES, ids=lambda c: f"{c[0]}p" + "".join(f"-{k}" for k in c[1]))
def test_the_hooks_equal_the_readable_direct_path_at_every_decision(case: tuple[int, dict[str, Any]]) -> None:
    """Every seat's row and mask and every catalog index's decoding, at every decision of random games."""
    players, opts = case
    rng = np.random.default_rng(players)
    checked = 0
    readable = Table("blast-off", players, opts)
    _strip(readable.encoder)
    for table, _seat in random_decisions("blast-off", players, opts, games=EPISODES, seed=10 * players):
        enc, st = table.encoder, table.state
        assert enc.observer is not None and enc.actor is not None and enc.action_at is not None
        readable.state = st  # the same position, read through the readable path and its own memo
        readable._changed()
        for seat in range(players):
            want_obs = readable.observation(seat)
            row = np.full(enc.obs_size, 0.5, dtype=np.float32)  # what was there is cleared
            enc.row_writer(st, seat, row)  # type: ignore[misc]
            assert np.array_equal(row, want_obs), f"seat {seat}: the compiled row differs"
            ref = enc.legal_map(st.legal_actions(seat), EMPTY_VIEW)
            mask = np.ones(enc.num_actions, dtype=np.int8)
            enc.mask_writer(st, seat, mask)  # type: ignore[misc]
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ref)
            got = enc.observer(st, seat, True)  # type: ignore[misc]
            assert np.array_equal(got["observation"], want_obs) and np.array_equal(got["action_mask"], mask)
            idle = enc.observer(st, seat, False)  # type: ignore[misc]
            assert not idle["action_mask"].any() and np.array_equal(idle["observation"], want_obs)
            probe = [*ref, *rng.integers(-3, enc.num_actions + 3, 6).tolist()]
            for i in probe:
                want = ref.get(i)
                assert enc.action_at(st, seat, i) is want, f"seat {seat}: index {i}"  # type: ignore[misc]
            checked += 1
    assert checked > 100 * players


def _readable_aec(players: int, opts: dict[str, Any]) -> Any:
    env = aec_env("blast-off", players=players, **opts)
    env._fast = None
    _strip(env.table.encoder)
    return env


@pytest.mark.parametrize("case", TURN_CASES[:3] + TURN_CASES[4:], ids=lambda c: f"{c[0]}p" + "".join(c[1]))
def test_aec_hooked_and_compiled_equals_the_readable_env(case: tuple[int, dict[str, Any]]) -> None:
    players, opts = case
    fast, slow = aec_env("blast-off", players=players, **opts), _readable_aec(players, opts)
    assert fast._fast is not None
    rng = np.random.default_rng(8)
    illegal = 0
    for episode in range(EPISODES):
        fast.reset(seed=40 + episode)
        slow.reset(seed=40 + episode)
        assert aec_state(fast) == aec_state(slow)
        for agent in fast.agent_iter():
            got, want = fast.last(), slow.last()
            assert same(got, want) and slow.agent_selection == agent
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


def test_parallel_hooked_equals_the_readable_env() -> None:
    fast, slow = parallel_env("blast-off", players=3), parallel_env("blast-off", players=3)
    slow._fast = None
    _strip(slow.table.encoder)
    rng = np.random.default_rng(9)
    for episode in range(EPISODES):
        a, b = fast.reset(seed=60 + episode), slow.reset(seed=60 + episode)
        assert same(a, b)
        obs = a[0]
        while fast.agents:
            actions: dict[str, Any] = {}
            for agent, o in obs.items():
                mask = o["action_mask"]
                if rng.random() < 0.05:
                    actions[agent] = int(rng.integers(mask.size))
                elif mask.any():
                    actions[agent] = int(rng.choice(np.flatnonzero(mask)))
            got, want = fast.step(actions), slow.step(actions)
            assert same(got, want) and fast.agents == slow.agents
            obs = got[0]


@pytest.mark.parametrize("players", [2, 4])
def test_gym_and_vector_hooked_and_compiled_equal_the_readable_envs(players: int) -> None:
    fast, slow = (gym_env("blast-off", players=players, opponents="random", seat="random") for _ in range(2))
    assert fast._fast is not None and fast._fast_step is not None
    slow._fast = slow._fast_step = None
    _strip(slow.table.encoder)
    rng = np.random.default_rng(3)
    for episode in range(EPISODES):
        got = fast.reset(seed=100 + episode), slow.reset(seed=100 + episode)
        assert same(*got)
        done = False
        while not done:
            mask = got[0][0]["action_mask"]
            act = int(rng.choice(np.flatnonzero(mask))) if rng.random() > 0.05 else int(rng.integers(mask.size))
            got = fast.step(act), slow.step(act)
            assert same(*got)
            done = got[0][2] or got[0][3]
    k = 4
    vf = vector_env("blast-off", players=players, num_envs=k, seat="random")
    vs = vector_env("blast-off", players=players, num_envs=k, seat="random")
    assert vf._fast is not None
    vs._fast = None
    vs._zero_obs = True  # (the readable direct path writes only its non-zero items)
    for e in vs.envs:
        e._fast = e._fast_step = None
        _strip(e.table.encoder)
    assert same(vf.reset(seed=21), vs.reset(seed=21))
    finals = 0
    for _ in range(40 * EPISODES):
        masks = vf.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        out_f, out_s = vf.step(acts), vs.step(acts)
        assert same(out_f[:4], out_s[:4])
        assert sorted(out_f[4]) == sorted(out_s[4])
        finals += int((out_f[2] | out_f[3]).sum())
    assert finals >= 1


def test_real_time_rows_equal_the_readable_path() -> None:
    opts = {"timing": "realtime", **RT}
    readable = Table("blast-off", 3, opts)
    _strip(readable.encoder)
    seen = 0
    for table, _seat in random_decisions("blast-off", 3, opts, games=3, seed=5):
        readable.state = table.state
        readable._changed()
        for seat in range(3):
            row = np.zeros(table.encoder.obs_size, dtype=np.float32)
            table.encoder.row_writer(table.state, seat, row)  # type: ignore[misc]
            assert np.array_equal(row, readable.observation(seat))
            seen += 1
    assert seen > 100


def test_the_compiled_writer_refuses_bad_rows_and_seats() -> None:
    table = Table("blast-off", 2, {})
    table.reset(1)
    enc = table.encoder
    with pytest.raises(ValueError, match="observation's length"):
        enc.row_writer(table.state, 0, np.zeros(enc.obs_size + 1, dtype=np.float32))  # type: ignore[misc]
    with pytest.raises(ValueError, match="catalog's length"):
        enc.mask_writer(table.state, 0, np.zeros(3, dtype=np.int8))  # type: ignore[misc]
    with pytest.raises(ValueError, match="no such seat"):
        enc.row_writer(table.state, 2, np.zeros(enc.obs_size, dtype=np.float32))  # type: ignore[misc]


def test_many_games_at_once_each_follow_their_own_log() -> None:
    """More states than the writer's pool of log tracks (it starts afresh), each stepped in turn: every row
    equals the readable path's (a fresh readable table per state, its own memo)."""
    table = Table("blast-off", 2, {})
    enc = table.encoder
    game = table.game
    rng = np.random.default_rng(4)
    states = [game.new_game(players=2, seed=s) for s in range(600)]
    readers = {}
    for _ in range(3):
        for i, st in enumerate(states):
            if st.is_over:
                continue
            for _ in range(int(rng.integers(1, 4))):  # a few random moves between looks
                seat = sorted(st.to_act)[0]
                legal = st.legal_actions(seat)
                st.apply(seat, legal[int(rng.integers(len(legal)))])
                if st.is_over:
                    break
            reader = readers.get(i)
            if reader is None:
                reader = readers[i] = Table("blast-off", 2, {}) if i < 8 else readers[0]
                _strip(reader.encoder)
            reader.state = st
            reader._changed()
            row = np.zeros(enc.obs_size, dtype=np.float32)
            enc.row_writer(st, 0, row)  # type: ignore[misc]
            assert np.array_equal(row, reader.observation(0)), f"state {i}"
