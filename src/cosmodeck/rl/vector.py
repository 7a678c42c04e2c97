"""``vector_env``: K games stepped in one call as a native Gymnasium ``VectorEnv``.

Each sub-environment is a ``CosmodeckGym`` (the agent's seat against its opponents), but the batch
steps their tables itself instead of going through Gymnasium's per-environment wrappers: ``step``
applies the K actions, lets each game's opponents play until its agent decides again, and writes
the K observations and masks straight into preallocated ``(K, obs_size)`` float32 and
``(K, actions)`` int8 arrays (the observations come from the encoders' direct path, straight from
the state through the agent's information filter). What is returned is a fresh copy of them. For a turn-based
game whose encoder decodes, applies and writes in compiled code (Shooting Star) that whole loop over the K
games is one compiled call (``steps_fast.vector_step``); ``_step_py`` is the readable reference (and the
path of the other games), and ``tests/rl/test_steps_fast.py`` proves the two equal step by step.

Autoreset is same-step (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): when a game
ends, ``step`` already returns the first position of that sub-environment's next game, so every mask
a policy receives has a legal move; the game that ended is in ``infos["final_obs"][i]`` (its own
observation and its mask, all zero for a finished game: nobody decides) and
``infos["final_info"]``, flagged by ``infos["_final_obs"]``. ``infos["seat"]`` is the agent's seat
per sub-environment.

Sub-environment ``i`` reset with ``seed=S`` uses ``S + i``; later autoresets continue each
sub-environment's own seeded stream, so a run is a function of ``S`` (and the actions). Game ``i``
is exactly ``gym_env`` reset with ``seed=S + i`` and then reset without a seed after each episode
(``tests/rl/test_vector.py`` checks it step by step against Gymnasium's own ``SyncVectorEnv``).
``action_masks()`` gives the ``(K, actions)`` boolean masks of the current observations
(sb3-contrib's MaskablePPO reads it). ``opponents`` is as ``gym_env``'s (``cosmodeck.rl.opponents``):
sub-environment 0 plays the ``Bot`` objects given, every other one deep copies of them (no bot's
memory spans two games); policies are shared by all.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl.gym_env import CosmodeckGym
from cosmodeck.rl.opponents import copy_bots

try:  # the compiled step (``rl/steps_fast.pyx``); without the extension ``_step_py`` runs
    from cosmodeck.rl import steps_fast as _STEPS

    _FAST: Any = _STEPS
except ImportError:  # pragma: no cover - a build without the extension
    _FAST = None

MAX_ENVS = 4096

Obs = dict[str, npt.NDArray[Any]]


class CosmodeckVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """See the module docstring; made by ``cosmodeck.rl.vector_env``."""

    def __init__(self, game_id: str, players: int = 2, num_envs: int = 8, opponents: object = "random",
                 seat: int | str = 0, render_mode: str | None = None, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be an integer in 1..{MAX_ENVS}, not {num_envs!r}")
        first = CosmodeckGym(game_id, players, opponents=opponents, seat=seat, render_mode=render_mode, **options)
        # every sub-environment shares the first one's game definition and encoder (and their caches)
        self.envs = [first] + [CosmodeckGym(game_id, players, opponents=copy_bots(opponents, first.table.game),
                                            seat=seat, render_mode=render_mode, table_like=first.table, **options)
                               for _ in range(num_envs - 1)]
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}
        self.num_envs = num_envs
        self.game_id = game_id
        self.players = players
        self.render_mode = render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        enc = first.table.encoder
        self._obs = np.zeros((num_envs, enc.obs_size), dtype=np.float32)
        self._mask = np.zeros((num_envs, enc.num_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._term = np.zeros(num_envs, dtype=np.bool_)
        self._trunc = np.zeros(num_envs, dtype=np.bool_)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        # each row's views, made once: the direct path writes item by item into a row's memoryview
        self._obs_rows = list(self._obs)
        self._obs_views = [memoryview(r.data) for r in self._obs_rows]
        self._mask_rows = list(self._mask)
        self._ready = False
        self._zero_obs = enc.row_writer is None
        self._shaping = bool(first.table.shaping)
        # the loop of ``step`` compiled (``rl/steps_fast.pyx``) for a turn-based game whose encoder decodes, applies
        # and writes in compiled code (Shooting Star); ``_step_py`` is the readable reference (and the other games)
        self._fast: Any = _FAST if (_FAST is not None and enc.actor is not None and enc.row_writer is not None
                                    and enc.mask_writer is not None and not first.table.real_time
                                    and not self._shaping) else None
        self._term_u8 = self._term.view(np.uint8)
        self._trunc_u8 = self._trunc.view(np.uint8)

    # ---- rows ------------------------------------------------------------------------------
    def _clear(self) -> None:
        """Zero every observation row that ``_write`` needs zeroed (the direct path writes only its non-zero
        items; a compiled ``row_writer`` and ``Table.write_mask`` clear their rows themselves)."""
        if self._zero_obs:
            self._obs.fill(0.0)

    def _write(self, i: int) -> None:
        """Row ``i`` of the batch (all zero: ``_clear``): sub-environment ``i``'s agent observation and mask now."""
        env = self.envs[i]
        table, seat = env.table, env.seat
        enc = table.encoder
        direct = enc.direct
        if enc.row_writer is not None:  # compiled, in place (``Encoder.row_writer``)
            enc.row_writer(table.state, seat, self._obs_rows[i])
        elif direct is not None:  # in place, no copy (``Encoder.write_state`` on a zeroed contiguous row)
            direct.write(table.state, seat, self._obs_views[i], table._cache)
        else:
            enc.write_state(table.state, seat, self._obs_rows[i], table._cache)
        table.write_mask(seat, self._mask_rows[i])
        self._seats[i] = seat

    def _out(self) -> Obs:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    # ---- the VectorEnv API -------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise OptionError(f"reset got {len(seeds)} seeds for {self.num_envs} sub-environments")
        self._clear()
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            env._start(s)  # ``env.reset(seed=s)`` without its observation's copies: ``_write`` writes the row
            self._write(i)
        self._ready = True
        return self._out(), {"seat": self._seats.copy(), "_seat": np.ones(self.num_envs, dtype=np.bool_)}

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        if not self._ready:
            raise RuntimeError("step() before reset(): call reset() first")
        acts = np.asarray(actions).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise OptionError(f"step got {acts.shape[0]} actions for {self.num_envs} sub-environments")
        if self._fast is not None:
            illegal, finished = self._fast.vector_step(self.envs, acts.tolist(), self._obs_rows, self._mask_rows,
                                                      self._rewards, self._term_u8, self._trunc_u8, self._seats,
                                                      self._obs, self._mask)
            infos: dict[str, Any] = {}
            for i, final_obs, info in finished:
                infos = self._add_info(infos, {"final_obs": final_obs, "final_info": info}, i)
        else:
            infos, illegal = self._step_py(acts)
        infos["seat"] = self._seats.copy()
        infos["_seat"] = np.ones(self.num_envs, dtype=np.bool_)
        if illegal:
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            flags[illegal] = True
            infos["illegal_action"], infos["_illegal_action"] = flags, flags.copy()
        return self._out(), self._rewards.copy(), self._term.copy(), self._trunc.copy(), infos

    def _step_py(self, acts: npt.NDArray[Any]) -> tuple[dict[str, Any], list[int]]:
        """``step``'s loop in readable Python (the reference of ``steps_fast.vector_step``): the K actions, the
        opponents' moves, the autoresets and the rows; returns the infos so far and the illegal indices."""
        infos: dict[str, Any] = {}
        illegal: list[int] = []
        self._clear()
        rewards, term, trunc = self._rewards, self._term, self._trunc
        shaping = self._shaping
        for i, (env, act) in enumerate(zip(self.envs, acts.tolist(), strict=True)):
            table, seat = env.table, env.seat
            if table.act_index(seat, int(act)):
                env._run_bots()
            else:
                illegal.append(i)
            bonus = table.shaped() if shaping else 0.0  # Meteor's optional shaping
            if not table.done:
                rewards[i] = bonus
                term[i] = trunc[i] = False
            else:
                over = table.over
                rewards[i] = bonus + table.reward(seat)
                term[i], trunc[i] = over, not over
                info: dict[str, Any] = {"seat": seat}
                res = table.state.result
                if res is not None:
                    info["winners"] = sorted(res.winners)
                infos = self._add_info(infos, {"final_obs": table.observe(seat), "final_info": info}, i)
                env._start(None)
            self._write(i)
        return infos, illegal

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks of the current observations, one row per sub-environment."""
        return self._mask.astype(bool)

    def action_to_string(self, action: int) -> str:
        """The catalog entry of ``action`` in the game's notation (as every sub-environment's)."""
        return self.envs[0].action_to_string(action)

    def render(self) -> tuple[Any, ...] | None:
        """Every sub-environment's ``render()`` (``render_mode="ansi"``: the boards as text)."""
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


def vector_env(game_id: str, players: int = 2, num_envs: int = 8, opponents: object = "random",
               seat: int | str = 0, render_mode: str | None = None, **options: Any) -> CosmodeckVectorEnv:
    """``num_envs`` games of ``game_id`` stepped as one Gymnasium ``VectorEnv`` (see the module docstring)."""
    return CosmodeckVectorEnv(game_id, players, num_envs=num_envs, opponents=opponents, seat=seat,
                              render_mode=render_mode, **options)


__all__ = ["MAX_ENVS", "CosmodeckVectorEnv", "vector_env"]
