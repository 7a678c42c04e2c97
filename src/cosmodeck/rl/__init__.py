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
"""

from cosmodeck.rl.aec import aec_env
from cosmodeck.rl.gym_env import gym_env
from cosmodeck.rl.parallel import parallel_env

__all__ = ["aec_env", "gym_env", "parallel_env"]
