"""PettingZoo AEC environment over a ``Table``: one agent per seat, agents act one at a time."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cosmodeck.rl.conveniences import CatalogHelpers
from cosmodeck.rl.table import SeedStream, Table

try:  # the compiled steps (``rl/steps_fast.pyx``); without the extension the readable methods run
    from cosmodeck.rl import steps_fast as _STEPS

    _FAST: Any = _STEPS
except ImportError:  # pragma: no cover - a build without the extension
    _FAST = None


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def observation_space(table: Table) -> spaces.Dict:
    enc = table.encoder
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (enc.obs_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
    })


class SeatAgents(CatalogHelpers):
    """What the AEC and Parallel environments share: the table, one agent per seat, their spaces,
    ``legal_actions(agent)``, ``action_to_string(index)`` and the ``ansi`` render (a spectator's board)."""

    def _setup(self, game_id: str, players: int, render_mode: str | None, options: dict[str, Any]) -> None:
        self.table = Table(game_id, players, options)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.seats = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.table)
        self._act_spaces = {a: spaces.Discrete(self.table.encoder.num_actions) for a in self.possible_agents}
        self._seeds = SeedStream()  # the game seeds of the resets (``reset(seed=S)``: a function of ``S``)
        self.agents: list[str] = []
        enc, table = self.table.encoder, self.table
        #: the compiled ``last``/``step`` (``rl/steps_fast.pyx``) for a turn-based table whose encoder decodes,
        #: applies and observes in compiled code (Shooting Star), without shaping; else ``None``
        self._fast: Any = _FAST if (_FAST is not None and enc.actor is not None and enc.observer is not None
                                    and not table.real_time and not table.shaping) else None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_spaces[agent]


class CosmodeckAEC(SeatAgents, AECEnv):  # type: ignore[misc]
    """``cosmodeck.rl.aec_env(game_id, players=N, **options)``.

    ``agent_selection`` is the seat that decides next (turn order; in real-time games, each seat
    once per tick in a seeded order). Rewards arrive at the end of the game (see docs/rl.md).
    An action outside the mask changes nothing: the same agent decides again and its info holds
    ``illegal_action: True``.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "cosmodeck_aec_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": True}

    def __init__(self, game_id: str, players: int = 2, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self._setup(game_id, players, render_mode, options)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.reseed(seed)
        game_seed = self._seeds.next()
        self.table.reset(game_seed)
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self._flagged = False  # some info holds ``illegal_action`` (the next step clears every info)
        self._paid = False  # the last step's rewards were not all 0
        self._select()

    def _select(self) -> None:
        cur = self.table.current
        if cur is not None:
            self.agent_selection = self.possible_agents[cur]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self.seats[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the agent to act: its observation, cumulative reward, termination,
        truncation and info), without the extra ``observe`` call."""
        if self._fast is not None:
            return self._fast.aec_last(self, observe)  # type: ignore[no-any-return]
        agent = self.agent_selection
        if agent is None:
            raise AssertionError("agent_selection is None")
        obs = self.table.observe(self.seats[agent]) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def step(self, action: Any) -> None:
        if self._fast is not None:
            self._fast.aec_step(self, action)
            return
        self._step_py(action)

    def _step_py(self, action: Any) -> None:
        """``step`` in readable Python (the reference of ``steps_fast.aec_step``)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        if self._flagged:  # every step starts with empty infos (most steps: nothing to clear)
            infos = self.infos
            for a in self.agents:
                infos[a] = {}
            self._flagged = False
        if action is None or not table.act_index(self.seats[agent], int(action)):
            self.infos[agent] = {"illegal_action": True}
            self._flagged = True
        bonus = table.shaped() if table.shaping else 0.0  # Meteor's optional shaping
        cur = table.current
        if cur is not None:  # the game goes on
            if bonus or self._paid:  # else every reward is already 0 and accumulating it changes nothing
                self.rewards = dict.fromkeys(self.agents, bonus)
                self._accumulate_rewards()
            self._paid = bool(bonus)
            self.agent_selection = self.possible_agents[cur]
            return
        over = table.over
        self.rewards = dict.fromkeys(self.agents, bonus)
        for a in self.agents:
            self.rewards[a] += table.reward(self.seats[a])
            self.terminations[a] = over
            self.truncations[a] = not over
        self._accumulate_rewards()
        self._paid = bool(bonus)
        self._select()

    def close(self) -> None:
        pass


def aec_env(game_id: str, players: int = 2, render_mode: str | None = None, **options: Any) -> CosmodeckAEC:
    """A PettingZoo AEC environment for ``game_id`` with ``players`` seats (see docs/rl.md)."""
    return CosmodeckAEC(game_id, players, render_mode=render_mode, **options)
