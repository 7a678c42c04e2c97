"""Gymnasium environment: one learning seat against bots made by ``cosmodeck.bots.make_bot``."""

from __future__ import annotations

import functools
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from cosmodeck.bots import LazyView
from cosmodeck.bots.random_bot import RandomBot
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.rl.aec import observation_space
from cosmodeck.rl.conveniences import CatalogHelpers
from cosmodeck.rl.opponents import PolicyOpponent, Seat, resolve
from cosmodeck.rl.table import Table

try:  # the compiled steps (``rl/steps_fast.pyx``); without the extension the readable loop below runs
    from cosmodeck.rl import steps_fast as _STEPS

    _FAST: Any = _STEPS
except ImportError:  # pragma: no cover - a build without the extension
    _FAST = None


class CosmodeckGym(CatalogHelpers, gymnasium.Env[dict[str, Any], np.int64]):
    """``cosmodeck.rl.gym_env(game_id, players=N, opponents="random", seat=0, **options)``.

    The agent plays ``seat`` (an int, or ``"random"``: a seeded draw at each reset); the other seats
    are played by ``opponents``: bot specs, ``Bot`` objects or policies ``(obs, mask) -> index``
    (one for all, or one per opponent in seat order; see ``cosmodeck.rl.opponents``). ``step`` applies
    the agent's action, then lets the bots play until the agent decides again or the game ends.
    Real-time games: bots act once their reaction time has elapsed, else wait. The reward is the
    agent's end-of-game reward (docs/rl.md); ``action_masks()`` serves sb3-contrib's MaskablePPO.
    An action outside the mask changes nothing and sets ``info["illegal_action"]``.
    """

    def __init__(self, game_id: str, players: int = 2, opponents: object = "random", seat: int | str = 0,
                 render_mode: str | None = None, *, table_like: Table | None = None, **options: Any) -> None:
        super().__init__()
        self.metadata = {"render_modes": ["ansi"], "render_fps": 4}
        # ``table_like`` (vector_env): a table of the same game, players and options whose game definition
        # and encoder (with its content-keyed caches) this environment shares
        self.table = Table(game_id, players, options) if table_like is None else table_like.copy()
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise OptionError(f"seat must be 'random' or 0..{players - 1}, not {seat!r}")
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.bots: list[Seat] = resolve(opponents, self.table.game, players)
        # every opponent is the plain random bot in a turn-based game: ``_run_bots`` draws their moves itself
        # (what ``RandomBot.act`` does, without the view it ignores)
        self._random_only = not self.table.real_time and all(type(b) is RandomBot for b in self.bots)
        #: the compiled ``_run_bots`` of random opponents (``rl/steps_fast.pyx``), ``None`` without the extension
        self._fast: Any = _FAST if self._random_only else None
        enc, table = self.table.encoder, self.table
        #: the compiled ``step`` (``steps_fast.gym_step``) for a turn-based table whose encoder decodes, applies
        #: and observes in compiled code (Shooting Star), without shaping; else ``None``
        self._fast_step: Any = _FAST.gym_step if (_FAST is not None and enc.actor is not None
                                                  and enc.observer is not None and not table.real_time
                                                  and not table.shaping) else None
        self.render_mode = render_mode
        self.observation_space = observation_space(self.table)
        self.action_space = spaces.Discrete(self.table.encoder.num_actions)
        self._by_seat: dict[int, Seat] = {}
        self._plans: dict[int, float] = {}
        self.bot_rng = Rng(0)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self._start(seed)
        return self.table.observe(self.seat), {"seat": self.seat}

    def _start(self, seed: int | None) -> None:
        """``reset`` without building the observation (``vector_env`` writes it into its batch row)."""
        if self._fast_step is not None:
            _FAST.gym_start(self, seed)  # compiled (``steps_fast.gym_start``)
            return
        self._start_py(seed)

    def _start_py(self, seed: int | None) -> None:
        """``_start`` in readable Python (the reference of ``steps_fast.gym_start``)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.table.reset(game_seed)
        self.bot_rng = Rng(derive_seed(game_seed, 0xB07))
        n = self.table.players
        if self.seat_option == "random":
            self.seat = self.bot_rng.randbelow(n)
        others = [s for s in range(n) if s != self.seat]
        self._by_seat = dict(zip(others, self.bots, strict=True))
        self._plans = {}
        self._run_bots()
        self.table.shaped()  # progress the bots made before the agent's first decision pays nothing

    def _run_bots(self) -> None:
        table = self.table
        me, by_seat = self.seat, self._by_seat
        if self._random_only:
            if self._fast is not None:
                self._fast.run_random(table, me, self.bot_rng)
                return
            randbelow = self.bot_rng.randbelow
            while True:
                cur = table.current
                if cur is None or cur == me:
                    return
                legal = table.state.legal_actions(cur)
                if not legal:
                    raise RuntimeError("bot random declined to act in a turn-based game")
                table.act(cur, legal[randbelow(len(legal))])  # ``RandomBot.act``
        while True:
            cur = table.current
            if cur is None or cur == me:
                return
            bot = by_seat[cur]
            st = table.state
            action: Any | None = None
            if isinstance(bot, PolicyOpponent):
                obs = table.observe(cur)
                table.act_index(cur, bot.choose(obs["observation"], obs["action_mask"]))
                continue
            if table.real_time:
                to_act = st.to_act
                for s in [s for s in self._plans if s not in to_act]:
                    del self._plans[s]  # a seat that could not act plans afresh (as sim.runner does)
                plan = self._plans.get(cur)
                if plan is None:
                    plan = self._plans[cur] = st.now + max(0.0, bot.reaction_time(self.bot_rng))
                if plan <= st.now:
                    legal = st.legal_actions(cur)
                    action = bot.act(LazyView(functools.partial(st.view, cur)), legal, self.bot_rng)
                    self._plans[cur] = st.now + max(1e-3, bot.reaction_time(self.bot_rng))
            else:
                action = bot.act(LazyView(functools.partial(st.view, cur)), st.legal_actions(cur), self.bot_rng)
                if action is None:
                    raise RuntimeError(f"bot {bot.name} declined to act in a turn-based game")
            table.act(cur, action)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._fast_step is not None:
            return self._fast_step(self, action)  # type: ignore[no-any-return]
        return self._step_py(action)

    def _step_py(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """``step`` in readable Python (the reference of ``steps_fast.gym_step``)."""
        table = self.table
        seat = self.seat
        info: dict[str, Any] = {"seat": seat}
        if table.done:
            raise RuntimeError("step() after the episode ended: call reset()")
        if not table.act_index(seat, int(action)):
            info["illegal_action"] = True
        else:
            self._run_bots()
        reward = table.shaped() if table.shaping else 0.0  # Meteor's optional shaping
        if not table.done:
            return table.observe(seat), reward, False, False, info
        reward += table.reward(seat)
        over = table.over
        if over:
            res = table.state.result
            info["winners"] = sorted(res.winners) if res is not None else []
        return table.observe(seat), reward, over, not over, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal-action mask (sb3-contrib's MaskablePPO calls this)."""
        return self.table.mask(self.seat).astype(bool)

    def _agent_seat(self, agent: str | int | None) -> int:
        return self.seat if agent is None else super()._agent_seat(agent)

    def _render_seat(self) -> int | None:
        return self.seat  # the learning seat's own view: its hand, nobody else's


def gym_env(game_id: str, players: int = 2, opponents: object = "random", seat: int | str = 0,
            render_mode: str | None = None, **options: Any) -> CosmodeckGym:
    """A Gymnasium environment: the agent at ``seat`` against ``opponents`` bots (see docs/rl.md)."""
    return CosmodeckGym(game_id, players, opponents=opponents, seat=seat, render_mode=render_mode, **options)
