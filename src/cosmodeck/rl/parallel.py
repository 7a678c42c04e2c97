"""PettingZoo Parallel environment over a ``Table``: every live agent submits an action each step."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from cosmodeck.rl.aec import SeatAgents


class CosmodeckParallel(SeatAgents, ParallelEnv):  # type: ignore[misc]
    """``cosmodeck.rl.parallel_env(game_id, players=N, **options)``.

    Each step, the seats of the current round (the seat to move in a turn-based game, every seat
    that may act in a real-time tick) have a non-empty ``action_mask``; the others' masks are all
    zero and their actions are ignored. Round actions apply in the round's order; a real-time step
    then advances game time by ``step_s``. An action outside the mask changes nothing and sets
    ``illegal_action`` in that agent's info.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "cosmodeck_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game_id: str, players: int = 2, render_mode: str | None = None, **options: Any) -> None:
        self._setup(game_id, players, render_mode, options)

    def _observations(self) -> dict[str, dict[str, Any]]:
        table, seats = self.table, self.seats
        return {a: table.observe(seats[a]) for a in self.agents}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._seeds.reseed(seed)
        self.table.reset(self._seeds.next())
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        if self._fast is not None:
            return self._fast.parallel_step(self, actions)  # type: ignore[no-any-return]
        return self._step_py(actions)

    def _step_py(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, dict[str, Any]]]:
        """``step`` in readable Python (the reference of ``steps_fast.parallel_step``)."""
        table = self.table
        seats = self.seats
        round_seats = table.legal_seats()
        submitted: dict[int, int] = {}
        for a, act in actions.items():
            if act is not None and a in seats:
                s = seats[a]
                if s in round_seats:
                    submitted[s] = int(act)
        ok = table.act_all(submitted)
        agents = self.agents
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        for s, good in ok.items():
            if not good:
                infos[self.possible_agents[s]] = {"illegal_action": True}
        obs = {a: table.observe(seats[a]) for a in agents}
        bonus = table.shaped() if table.shaping else 0.0  # Meteor's optional shaping
        if table.done:
            over = table.over
            rewards = {a: bonus + table.reward(seats[a]) for a in agents}
            terminations = dict.fromkeys(agents, over)
            truncations = dict.fromkeys(agents, not over)
            self.agents = []
        else:
            rewards = dict.fromkeys(agents, bonus)
            terminations = dict.fromkeys(agents, False)
            truncations = dict.fromkeys(agents, False)
        return obs, rewards, terminations, truncations, infos

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray[Any, Any]:
        raise NotImplementedError("a global state would reveal hidden information; use per-agent observations")


def parallel_env(game_id: str, players: int = 2, render_mode: str | None = None, **options: Any) -> CosmodeckParallel:
    """A PettingZoo Parallel environment for ``game_id`` with ``players`` seats (see docs/rl.md)."""
    return CosmodeckParallel(game_id, players, render_mode=render_mode, **options)
