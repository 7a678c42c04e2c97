"""``batched_env``: K games stepped at once with every seat's observation, for self-play.

The PettingZoo Parallel semantics (``parallel_env``), batched: ``reset`` and ``step`` return arrays
with a game axis and a seat axis instead of per-agent dicts:

- ``observations``: ``(K, players, obs_size)`` float32; ``action_masks``: ``(K, players, actions)`` int8
  (a seat that does not decide this step has an all-zero row);
- ``step(actions)`` takes ``(K, players)`` catalog indices (a seat that does not decide may send
  anything, e.g. -1); returns ``(observations, action_masks, rewards (K, players), terminated (K,),
  truncated (K,), infos)``;
- a game that ends is reset in the same step: the returned rows are its next game's first position
  and ``infos["final_observations"]`` / ``infos["final_action_masks"]`` hold the finished game's last
  rows (``infos["_final"]``: which games ended); ``infos["illegal"]`` ``(K, players)`` marks actions
  outside a seat's mask (ignored, as in ``parallel_env``).

Game ``i`` reset with ``seed=S`` is seeded with ``S + i``; autoresets continue each game's own
seeded stream.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl.table import SeedStream, Table
from cosmodeck.rl.vector import MAX_ENVS

Array = npt.NDArray[Any]


class BatchedEnv:
    """See the module docstring; made by ``cosmodeck.rl.batched_env``."""

    def __init__(self, game_id: str, players: int = 2, num_envs: int = 8, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be an integer in 1..{MAX_ENVS}, not {num_envs!r}")
        self.tables = [Table(game_id, players, options) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.players = players
        self.game_id = game_id
        enc = self.tables[0].encoder
        self.single_observation_space = spaces.Box(0.0, 1.0, (enc.obs_size,), np.float32)
        self.single_action_space = spaces.Discrete(enc.num_actions)
        self._seeds = [SeedStream() for _ in range(num_envs)]

    def action_to_string(self, action: int) -> str:
        """The catalog entry of ``action`` in the game's notation (``"wait"``: the real-time no-op)."""
        actions = self.tables[0].encoder.actions
        if isinstance(action, bool) or not 0 <= int(action) < len(actions):
            raise OptionError(f"action {action!r} is not an index of the {len(actions)}-action catalog")
        return actions[int(action)]

    def _reset_one(self, i: int) -> None:
        self.tables[i].reset(self._seeds[i].next())

    def _rows(self, i: int) -> tuple[Array, Array]:
        t = self.tables[i]
        for s in range(self.players):  # written into the table's own (players, ...) buffers, then copied
            t.observation(s)
            t.mask_row(s)
        return t._obs_buf.copy(), t._mask_buf.copy()

    def _batch(self) -> tuple[Array, Array]:
        rows = [self._rows(i) for i in range(self.num_envs)]
        return np.stack([o for o, _ in rows]), np.stack([m for _, m in rows])

    def reset(self, seed: int | None = None) -> tuple[Array, Array, dict[str, Any]]:
        """Start every game; ``seed`` seeds game ``i`` with ``seed + i``."""
        if seed is not None:
            for i, stream in enumerate(self._seeds):
                stream.reseed(seed + i)
        for i in range(self.num_envs):
            self._reset_one(i)
        obs, masks = self._batch()
        return obs, masks, {}

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, Array, dict[str, Any]]:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs, self.players):
            raise OptionError(f"actions must have shape ({self.num_envs}, {self.players}), not {acts.shape}")
        n, k = self.players, self.num_envs
        rewards = np.zeros((k, n), np.float32)
        terminated = np.zeros(k, bool)
        truncated = np.zeros(k, bool)
        illegal = np.zeros((k, n), bool)
        final_obs: list[Array | None] = [None] * k
        final_masks: list[Array | None] = [None] * k
        for i, table in enumerate(self.tables):
            seats = table.legal_seats()
            ok = table.act_all({s: int(acts[i, s]) for s in seats})
            for s, good in ok.items():
                illegal[i, s] = not good
            rewards[i] = table.shaped()  # Meteor's optional shaping, else 0
            if table.done:
                terminated[i], truncated[i] = table.over, not table.over
                rewards[i] += [table.reward(s) for s in range(n)]
                final_obs[i], final_masks[i] = self._rows(i)
                self._reset_one(i)
        obs, masks = self._batch()
        ended = terminated | truncated
        infos: dict[str, Any] = {"illegal": illegal, "_final": ended}
        if ended.any():
            infos["final_observations"] = np.stack([f if f is not None else np.zeros_like(obs[0])
                                                    for f in final_obs])
            infos["final_action_masks"] = np.stack([f if f is not None else np.zeros_like(masks[0])
                                                    for f in final_masks])
        return obs, masks, rewards, terminated, truncated, infos


def batched_env(game_id: str, players: int = 2, num_envs: int = 8, **options: Any) -> BatchedEnv:
    """``num_envs`` games of ``game_id`` stepped at once, all seats' observations per step (module docstring)."""
    return BatchedEnv(game_id, players, num_envs=num_envs, **options)
