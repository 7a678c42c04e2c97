"""One game driven for RL: who decides now, observations and masks, catalog actions, time, rewards.

The three environments (AEC, Parallel, Gymnasium) are thin layers over ``Table``.

Decisions come in *rounds*. In a turn-based game (or Blast Off's turn-based ``timing="steps"``,
BLO-11) a round is the seats in ``state.to_act``; each decides, and the round is recomputed after
every action. In a real-time game every seat that may act gets one decision per tick of
``step_s`` seconds of game time, in a seeded random order (so no seat always wins races): a
catalog action or the ``wait`` no-op. When the round is over the table calls
``state.advance(now + step_s)`` itself. A table never reads a clock.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cosmodeck.api import load_game
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.rl.encoders import make_encoder
from cosmodeck.rl.encoders.base import ILLEGAL, MEMO, Encoder, Legal, Mask, Vector
from cosmodeck.rl.meteor_aids import curriculum_data, progress, shaping_weight

#: Options the environment itself takes; everything else goes to ``load_game``.
ENV_OPTIONS = ("step_s", "max_steps", "meteors", "shaping")
#: Environment options that only Meteor takes (``rl.meteor_aids``).
METEOR_OPTIONS = ("meteors", "shaping")
#: Game options the environments default differently from the game (still overridable).
GAME_DEFAULTS: dict[str, dict[str, Any]] = {"blast-off": {"timing": "steps"}}
DEFAULT_STEP_S = 1.0
DEFAULT_MAX_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat sees when it must decide: its view, the legal catalog indices and their actions."""

    view: Mapping[str, Any]
    legal: dict[int, Any]


def split_options(game_id: str, options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(environment options, game options), with the environment's game defaults filled in."""
    env = {k: v for k, v in options.items() if k in ENV_OPTIONS}
    game = dict(GAME_DEFAULTS.get(game_id, {}))
    game.update({k: v for k, v in options.items() if k not in ENV_OPTIONS})
    return env, game


def reward_of(result: Result, seat: int) -> float:
    """+1 a sole win, 0 a shared win, -1 a loss; cooperative games: +1 / -1 for the team."""
    if result.team_win is not None:
        return 1.0 if result.team_win else -1.0
    if seat in result.winners:
        return 1.0 if len(result.winners) == 1 else 0.0
    return -1.0


class SeedStream:
    """The game seeds of an environment's resets (AEC, Parallel, each game of ``batched_env``): after
    ``reseed(S)`` the stream is a function of ``S`` alone; before any seed it starts from fresh entropy.
    ``SplitMix64`` (``engine/rng.py``) over ``derive_seed(S, ...)``: a reset with a seed costs about a
    microsecond, where a NumPy ``default_rng(S)`` costs about eight."""

    __slots__ = ("_rng",)

    def __init__(self) -> None:
        self._rng = Rng(secrets.randbits(63))

    def reseed(self, seed: int) -> None:
        self._rng = Rng(derive_seed(int(seed), 0x5EED))

    def next(self) -> int:
        """The next game seed (62 bits)."""
        return self._rng.next64() >> 2


class Table:
    """See the module docstring. ``reset(seed)`` before use."""

    state: State
    order_rng: Rng | None

    def __init__(self, game_id: str, players: int, options: Mapping[str, Any] | None = None) -> None:
        env_opts, game_opts = split_options(game_id, options or {})
        self.game_id = game_id
        self.game: Game[Any] = load_game(game_id, **game_opts)
        self.game.new_game(players=players, seed=0)  # refuses a bad player count with OptionError
        self.players = players
        self.encoder: Encoder = make_encoder(self.game, players)  # the full game's layout and catalog
        self.shaping = 0.0
        if game_id != "meteor" and any(k in env_opts for k in METEOR_OPTIONS):
            raise OptionError(f"options {', '.join(METEOR_OPTIONS)} are Meteor's learning aids")
        if "meteors" in env_opts:
            self.game = load_game(game_id, data=curriculum_data(players, env_opts["meteors"]), **game_opts)
        if "shaping" in env_opts:
            self.shaping = shaping_weight(env_opts["shaping"])
        self._progress = 0.0
        self.real_time = self.encoder.noop is not None
        step_s = env_opts.get("step_s", DEFAULT_STEP_S)
        if isinstance(step_s, bool) or not isinstance(step_s, (int, float)) or not 0 < step_s <= 60:
            raise OptionError(f"option 'step_s': {step_s!r} must be a number of seconds in (0, 60]")
        max_steps = env_opts.get("max_steps", DEFAULT_MAX_STEPS)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise OptionError(f"option 'max_steps': {max_steps!r} must be a positive integer")
        self.step_s = float(step_s)
        self.max_steps = max_steps
        self.queue: list[int] = []
        self.steps = 0
        self.stuck = False
        self._decisions: dict[int, Decision] = {}
        self._legal: dict[int, Legal] = {}
        self._memo: dict[str, Any] = {}  # what the encoder follows from position to position (``MEMO``)
        self._cache: dict[str, Any] = {MEMO: self._memo}  # what it computes once per position (public facts)
        self._buffers()

    def _buffers(self) -> None:
        """Each seat's observation and mask rows, preallocated and rewritten in place; ``_ver`` counts the
        state's changes and ``_obs_ver``/``_mask_ver`` say at which change each row was written."""
        n, enc = self.players, self.encoder
        self._obs_size = enc.obs_size  # (the encoder computes it from its layout at each call)
        self._num_actions = enc.num_actions
        self._obs_buf: Vector = np.zeros((n, self._obs_size), dtype=np.float32)
        self._mask_buf: Mask = np.zeros((n, self._num_actions), dtype=np.int8)
        self._obs_rows: list[Vector] = list(self._obs_buf)  # each seat's row (a contiguous view), made once
        self._mask_rows: list[Mask] = list(self._mask_buf)
        self._ver = 0
        self._obs_ver = [-1] * n
        self._mask_ver = [-1] * n
        self._done_ver = -1  # ``done`` read at this change (``_done``)
        self._done = False

    # ---- lifecycle ---------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.state = self.game.new_game(players=self.players, seed=seed)
        self.order_rng = Rng(derive_seed(seed, 0x0E1)) if self.real_time else None  # (a real-time round's order)
        self.steps = 0
        self.stuck = False
        self._begin_round()
        self._progress = progress(self.state.view(None)) if self.shaping else 0.0

    def shaped(self) -> float:
        """The shaping reward earned since the last call (0 unless ``shaping`` is set; rl.meteor_aids)."""
        if not self.shaping:
            return 0.0
        now = progress(self.state.view(None))
        gain, self._progress = now - self._progress, now
        return self.shaping * gain

    def copy(self, state: State | None = None) -> Table:
        """An independent table at the same point (sharing the immutable game and encoder), on a clone of
        the state, or on ``state`` (a determinization for search) with this table's round order."""
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        if hasattr(self, "state"):  # else not reset yet
            new.state = self.state.clone() if state is None else state
            new.order_rng = self.order_rng.copy() if self.order_rng is not None else None
        new.queue = list(self.queue)
        new._decisions = {}
        new._legal = {}
        new._memo = {}
        new._cache = {MEMO: new._memo}
        new._buffers()
        return new

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def truncated(self) -> bool:
        return not self.state.is_over and (self.stuck or self.steps >= self.max_steps)

    @property
    def done(self) -> bool:
        """Over or truncated (read once per change of the state: every step asks several times)."""
        if self._done_ver != self._ver:
            self._done = self.state.is_over or self.stuck or self.steps >= self.max_steps
            self._done_ver = self._ver
        return self._done

    def reward(self, seat: int) -> float:
        res = self.state.result
        return 0.0 if res is None else reward_of(res, seat)

    def _changed(self) -> None:
        self._ver += 1
        if self._decisions:
            self._decisions.clear()
        if self._legal:
            self._legal.clear()
        cache = self._cache
        if len(cache) > 1:
            cache.clear()
            cache[MEMO] = self._memo

    def _begin_round(self) -> None:
        """Fill ``queue`` with the seats that decide next, advancing time as needed."""
        self._changed()
        st = self.state
        while not st.is_over:
            to_act = sorted(st.to_act)
            if to_act:
                if self.order_rng is not None:  # real-time
                    self.order_rng.shuffle(to_act)
                self.queue = to_act
                self._done = self.stuck or self.steps >= self.max_steps  # (not over: ``done`` without asking again)
                self._done_ver = self._ver
                return
            d = st.next_deadline()
            if d is None:
                self.stuck = True
                break
            st.advance(d)
        self.queue = []
        self._done = True  # over, or stuck (``done`` without asking again)
        self._done_ver = self._ver

    def _after_action(self, seat: int) -> None:
        if self.real_time:
            self._changed()
            to_act = self.state.to_act
            self.queue = [s for s in self.queue if s != seat and s in to_act]
            if not self.queue and not self.state.is_over:
                self.state.advance(self.state.now + self.step_s)
                self._begin_round()
        else:
            self._begin_round()  # (it calls ``_changed``)

    # ---- what a seat sees --------------------------------------------------------------
    @property
    def current(self) -> int | None:
        """The seat that decides next (AEC order), or ``None`` when the game is done."""
        queue = self.queue
        if not queue or (self._done if self._done_ver == self._ver else self.done):
            return None
        return queue[0]

    def decision(self, seat: int) -> Decision | None:
        """The view and legal catalog actions of a seat in the current round (else ``None``).

        The reference path (a full view, every legal action keyed through it); stepping uses the
        encoder's direct path (``legal``, ``observation``), which the tests prove equal to it.
        """
        if self.done or seat not in self.queue:
            return None
        d = self._decisions.get(seat)
        if d is None:
            view = self.state.view(seat)
            legal = self.encoder.legal_map(self.state.legal_actions(seat), view)
            if self.encoder.noop is not None:
                legal[self.encoder.noop] = None
            d = self._decisions[seat] = Decision(view, legal)
        return d

    def legal(self, seat: int) -> Legal | None:
        """The seat's legal catalog entries in the current round, from the encoder's direct path."""
        if self.done or seat not in self.queue:
            return None
        got = self._legal.get(seat)
        if got is None:
            got = self.encoder.legal_state(self.state, seat)
            if self.encoder.noop is not None:
                got = got.with_noop(self.encoder.noop)
            self._legal[seat] = got
        return got

    def observation(self, seat: int) -> Vector:
        """The seat's observation now: the table's own buffer row, rewritten in place after the next
        change (copy it to keep it; ``observe`` does)."""
        row = self._obs_rows[seat]
        if self._obs_ver[seat] != self._ver:
            self.write_observation(seat, row)
            self._obs_ver[seat] = self._ver
        return row

    def write_observation(self, seat: int, row: Vector) -> None:
        """Write the seat's observation now into ``row`` (a contiguous float32 row, any content)."""
        writer = self.encoder.row_writer
        if writer is not None:
            writer(self.state, seat, row)
        else:
            self.encoder.write_state(self.state, seat, row, self._cache)

    def mask_row(self, seat: int) -> Mask:
        """The seat's legal-action mask now, as the table's own buffer row (like ``observation``)."""
        row = self._mask_rows[seat]
        if self._mask_ver[seat] != self._ver:
            self.write_mask(seat, row)
            self._mask_ver[seat] = self._ver
        return row

    def write_mask(self, seat: int, row: Mask) -> None:
        """Write the seat's legal-action mask now into ``row`` (a contiguous int8 row, any content)."""
        writer = self.encoder.mask_writer
        if writer is not None and not self.done and seat in self.queue:  # (else ``legal`` is ``None``: all zero)
            writer(self.state, seat, row)
            return
        row.fill(0)
        legal = self.legal(seat)
        if legal is not None:
            legal.fill(row)

    def mask(self, seat: int) -> Mask:
        """A fresh copy of ``mask_row(seat)``."""
        return self.mask_row(seat).copy()

    def observe(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        """A fresh dict of fresh arrays (callers may keep or modify what they get; the table never writes
        into them again). A row not written since the last change is written straight into the new array
        (no buffer row, no copy); one already written is copied."""
        enc = self.encoder
        ver = self._ver
        observer = enc.observer
        if observer is not None:  # compiled: both arrays written fresh in one call
            return observer(self.state, seat, seat in self.queue
                            and not (self._done if self._done_ver == ver else self.done))
        if self._obs_ver[seat] == ver:
            obs = self._obs_rows[seat].copy()
        else:
            obs = np.empty(self._obs_size, dtype=np.float32)
            writer = enc.row_writer
            if writer is not None:
                writer(self.state, seat, obs)
            else:
                enc.write_state(self.state, seat, obs, self._cache)
        if self._mask_ver[seat] == ver:
            mask = self._mask_rows[seat].copy()
        elif seat not in self.queue or (self._done if self._done_ver == ver else self.done):
            mask = np.zeros(self._num_actions, dtype=np.int8)  # nothing legal (``legal`` is ``None``)
        else:
            mask = np.empty(self._num_actions, dtype=np.int8)
            fill = enc.mask_writer
            if fill is not None:
                fill(self.state, seat, mask)
            else:
                self.write_mask(seat, mask)
        return {"observation": obs, "action_mask": mask}

    # ---- acting ------------------------------------------------------------------------
    def act_index(self, seat: int, index: int) -> bool:
        """Apply catalog action ``index`` for ``seat``; ``False`` (nothing changes) if it is not legal now."""
        actor = self.encoder.actor
        if actor is not None:  # compiled decoding and applying (turn-based: no ``wait``)
            if seat not in self.queue or (self._done if self._done_ver == self._ver else self.done):
                return False
            if not actor(self.state, seat, index):
                return False
            self.steps += 1
            self._begin_round()  # (turn-based: ``_after_action``)
            return True
        action_at = self.encoder.action_at
        if action_at is not None:  # a compiled decoder (turn-based: no ``wait``)
            if seat not in self.queue or (self._done if self._done_ver == self._ver else self.done):
                return False
            state = self.state
            action = action_at(state, seat, index)
            if action is None:
                return False
            state.apply(seat, action)
            self.steps += 1
            self._begin_round()  # (turn-based: ``_after_action``)
            return True
        legal = self.legal(seat)
        if legal is None:
            return False
        action = legal.action(index)
        if action is ILLEGAL:
            return False
        self.act(seat, action)
        return True

    def act(self, seat: int, action: Any | None) -> None:
        """Apply an engine action (``None``: wait, real-time games only) for a seat of the round."""
        if seat not in self.queue or (self._done if self._done_ver == self._ver else self.done):
            raise ValueError(f"seat {seat} does not decide now")
        if action is None:
            if not self.real_time:
                raise ValueError("a turn-based game has no 'wait' action")
        else:
            self.state.apply(seat, action)
        self.steps += 1
        if self.real_time:
            self._after_action(seat)
        else:
            self._begin_round()

    def act_all(self, actions: Mapping[int, int]) -> dict[int, bool]:
        """Parallel step: every seat of the round submits a catalog index at once.

        Applied in the round's order; an index that is illegal (or no longer legal, after a
        faster seat's action in a real-time game) changes nothing. Returns legality per seat.
        """
        action_at = self.encoder.action_at
        done = self.done
        if action_at is not None and len(self.queue) == 1:  # one seat decides (turn-based): no race to settle
            s = self.queue[0]
            if done or s not in actions:
                return {}
            got = action_at(self.state, s, int(actions[s]))
            if got is None:
                return {s: False}
            self.state.apply(s, got)
            self.steps += 1
            self._begin_round()
            return {s: True}
        round_seats = list(self.queue)
        chosen: dict[int, Any] = {}
        for s in round_seats:  # every choice is read against the round's position, before any applies
            if s not in actions:
                continue
            if action_at is not None:
                if not done:
                    got = action_at(self.state, s, int(actions[s]))
                    chosen[s] = ILLEGAL if got is None else got
                continue
            legal = self.legal(s)
            if legal is not None:
                chosen[s] = legal.action(int(actions[s]))
        ok: dict[int, bool] = {}
        applied = False
        for s in round_seats:
            if s not in chosen:
                continue
            action = chosen[s]
            ok[s] = action is not ILLEGAL
            if not ok[s]:
                continue
            if applied and action is not None and not self.state.is_legal(s, action):
                continue  # lost a race in the same tick (before any action applies, the round's choices hold)
            if action is not None:
                self.state.apply(s, action)
                applied = True
            self.steps += 1
            if self.state.is_over:
                break
        if self.real_time and not self.state.is_over:
            self.state.advance(self.state.now + self.step_s)
            self._begin_round()
        elif applied or self.state.is_over:
            self._begin_round()  # (it calls ``_changed``; with nothing applied, nothing changed)
        return ok

    def legal_seats(self) -> Sequence[int]:
        return list(self.queue) if not self.done else []
