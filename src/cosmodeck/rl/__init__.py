"""Reinforcement-learning environments on player views (DESIGN.md "RL", docs/rl.md).

``aec_env`` (PettingZoo AEC), ``parallel_env`` (PettingZoo Parallel) and ``gym_env`` (Gymnasium,
one learning seat against bots). Observations are dicts with ``observation`` (a fixed-length
float vector in [0, 1] encoded from ``state.view(seat)`` only) and ``action_mask`` over a fixed
action catalog per (game, players, options).

>>> from cosmodeck.rl import gym_env
>>> env = gym_env("shooting-star", players=2)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape == (env.table.encoder.obs_size,) and bool(obs["action_mask"].any())
True

The Gymnasium environments are also registered as ``cosmodeck/<game>-v0``:

>>> import gymnasium
>>> env = gymnasium.make("cosmodeck/meteor-v0", players=3, step_s=2.0)
>>> env.unwrapped.table.players
3
"""

import gymnasium

from cosmodeck.rl.aec import aec_env
from cosmodeck.rl.batched import batched_env
from cosmodeck.rl.describe import describe
from cosmodeck.rl.gym_env import gym_env
from cosmodeck.rl.parallel import parallel_env
from cosmodeck.rl.vector import vector_env

for _game in ("shooting-star", "blast-off", "meteor"):
    if f"cosmodeck/{_game}-v0" not in gymnasium.registry:
        gymnasium.register(id=f"cosmodeck/{_game}-v0", entry_point="cosmodeck.rl.gym_env:gym_env",
                           kwargs={"game_id": _game})

__all__ = ["aec_env", "batched_env", "describe", "gym_env", "parallel_env", "vector_env"]
