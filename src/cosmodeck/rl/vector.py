"""``vector_env``: K Gymnasium environments stepped as one, with a same-step autoreset.

Built on Gymnasium's own ``SyncVectorEnv`` in ``AutoresetMode.SAME_STEP``: when a sub-environment's
episode ends, ``step`` returns the first observation (and action mask) of its next episode, and the
last one of the episode that ended in ``infos["final_obs"][i]`` (with ``infos["final_info"]``). So
the masks a policy receives always belong to a position where it must decide, never the all-zero
mask of a finished game, which breaks masked policies under the default next-step autoreset.

Sub-environment ``i`` reset with ``seed=S`` uses ``S + i``; later autoresets continue each
sub-environment's own seeded stream, so a run is a function of ``S``. ``action_masks()`` gives the
``(num_envs, num_actions)`` boolean masks of the current observations (sb3-contrib's MaskablePPO
reads it). Opponent ``Bot`` objects are copied for every sub-environment; policies are shared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl.gym_env import CosmodeckGym
from cosmodeck.rl.opponents import copy_bots

MAX_ENVS = 4096


class CosmodeckVectorEnv(SyncVectorEnv):
    """See the module docstring; made by ``cosmodeck.rl.vector_env``."""

    def __init__(self, game_id: str, players: int = 2, num_envs: int = 8, opponents: object = "random",
                 seat: int | str = 0, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be an integer in 1..{MAX_ENVS}, not {num_envs!r}")
        first = CosmodeckGym(game_id, players, opponents=opponents, seat=seat, **options)
        envs = [first] + [CosmodeckGym(game_id, players, opponents=copy_bots(opponents, first.table.game),
                                       seat=seat, **options) for _ in range(num_envs - 1)]
        super().__init__([_const(e) for e in envs], copy=True, autoreset_mode=AutoresetMode.SAME_STEP)
        self.game_id = game_id
        self.players = players

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks of the current observations, one row per sub-environment."""
        return np.stack([e.unwrapped.action_masks() for e in self.envs])  # type: ignore[attr-defined]

    def action_to_string(self, action: int) -> str:
        """The catalog entry of ``action`` in the game's notation (as every sub-environment's)."""
        name: str = self.envs[0].unwrapped.action_to_string(action)  # type: ignore[attr-defined]
        return name


def _const(env: CosmodeckGym) -> Any:
    return lambda: env


def vector_env(game_id: str, players: int = 2, num_envs: int = 8, opponents: object = "random",
               seat: int | str = 0, **options: Any) -> CosmodeckVectorEnv:
    """``num_envs`` games of ``game_id`` stepped as one Gymnasium ``VectorEnv`` (see the module docstring)."""
    return CosmodeckVectorEnv(game_id, players, num_envs=num_envs, opponents=opponents, seat=seat, **options)
