"""Play one game with bots on a virtual clock.

Turn-based games step through ``to_act``. Real-time games run an event queue: every seat
that may act gets a planned moment (now + the bot's reaction time); the earliest of those
and the game's next deadline happens next, so a 5-minute game simulates in milliseconds.
When the game gives a new go signal (``State.cue``, e.g. a countdown call), every seat that may
act is planned afresh at the signal's time plus its bot's call reaction (``bots/reaction.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cosmodeck.bots.base import Bot, LazyView
from cosmodeck.bots.reaction import call_reaction
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State

# Called after every accepted action (the acting seat) and every timer step (``None``) with its events.
EventSink = Callable[[int | None, list[Event]], None]


class StuckGameError(RuntimeError):
    """Nobody can act and no deadline is pending, or the game ran past its limits."""


class DecisionLimitError(StuckGameError):
    """The game went on past ``max_decisions`` (some rules and bots make games that never end)."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    seed: int
    players: int
    decisions: int
    game_time: float
    result: dict[str, Any]
    metrics: dict[str, Any] = field(default_factory=dict)


def _view_of(state: State, seat: int) -> LazyView:
    return LazyView(lambda: state.view(seat))


def _decide(bot: Bot, state: State, seat: int, legal: Sequence[Any], rng: Rng) -> Any | None:
    """The bot's move: from its view, or, for a simulation-only planner (``sees_state``), the state."""
    if getattr(bot, "sees_state", False):
        return bot.act_state(state, seat, legal, rng)  # type: ignore[attr-defined]
    return bot.act(_view_of(state, seat), legal, rng)


def _ignore(seat: int | None, events: list[Event]) -> None:
    return None


def play_game(state: State, bots: Sequence[Bot], rng: Rng, max_decisions: int = 1_000_000,
              sink: EventSink | None = None) -> int:
    """Play ``state`` to the end with ``bots`` (one per seat); returns the number of decisions.

    ``sink`` (the simulator's statistics observer) receives every event; bots never see it.
    """
    emit = sink or _ignore
    if state.game.info.real_time:
        return _play_realtime(state, bots, rng, max_decisions, emit)
    decisions = 0
    while not state.is_over:
        to_act = state.to_act
        if not to_act:
            d = state.next_deadline()
            if d is None:
                raise StuckGameError(f"nobody may act and no deadline is pending ({state!r})")
            emit(None, state.advance(d))
            continue
        seat = min(to_act)
        legal = state.legal_actions(seat)
        action = _decide(bots[seat], state, seat, legal, rng)
        if action is None:
            raise StuckGameError(f"bot {bots[seat].name} at seat {seat} declined to act in a turn-based game")
        emit(seat, state.apply(seat, action))
        decisions += 1
        if decisions > max_decisions:
            raise DecisionLimitError(f"more than {max_decisions} decisions")
    return decisions


def _play_realtime(state: State, bots: Sequence[Bot], rng: Rng, max_decisions: int, emit: EventSink) -> int:
    plans: dict[int, float] = {}
    decisions = 0
    idle_rounds = 0
    cue: float | None = None
    while not state.is_over:
        to_act = state.to_act
        for seat in list(plans):
            if seat not in to_act:
                del plans[seat]
        new_cue = state.cue()
        if new_cue is not None and new_cue != cue:  # a new call: every bot reacts to it afresh
            for seat in sorted(to_act):
                delay = call_reaction(bots[seat], rng)
                if delay is not None:
                    plans[seat] = new_cue + delay
        cue = new_cue
        for seat in sorted(to_act):
            if seat not in plans:
                plans[seat] = state.now + max(0.0, bots[seat].reaction_time(rng))
        deadline = state.next_deadline()
        if plans:
            seat = min(plans, key=lambda s: (plans[s], s))
            t = plans[seat]
        else:
            seat, t = -1, float("inf")
        if deadline is not None and deadline <= t:
            emit(None, state.advance(deadline))
            idle_rounds = 0
            continue
        if seat < 0:
            raise StuckGameError(f"nobody may act and no deadline is pending ({state!r})")
        # No deadline falls before t, so who may act is unchanged until then.
        legal = state.legal_actions(seat)
        action = _decide(bots[seat], state, seat, legal, rng)
        if action is None:  # the bot waits; it looks again after another reaction time
            plans[seat] = t + max(1e-3, bots[seat].reaction_time(rng))
            idle_rounds += 1
            if idle_rounds > 100_000:
                raise StuckGameError("every bot keeps waiting")
            continue
        del plans[seat]
        emit(seat, state.apply(seat, action, at=t))
        decisions += 1
        idle_rounds = 0
        if decisions > max_decisions:
            raise DecisionLimitError(f"more than {max_decisions} decisions")
    return decisions


def bot_rng(seed: int) -> Rng:
    """The bots' generator for a game: separate from the game's own RNG."""
    return Rng(derive_seed(seed, 0xB07))


def random_playout(state: State, rng: Rng, max_decisions: int = 1_000_000) -> int:
    """Play to the end with uniform random actions (real time: random reaction delays)."""
    from cosmodeck.bots.random_bot import RandomBot

    bots = [RandomBot() for _ in range(state.players)]
    return play_game(state, bots, rng, max_decisions)
