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
from cosmodeck.bots.reaction import call_reaction, sampled_reaction
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.sim.looks import IDLE_LIMIT, sampled_delay_py, skip_waits_py

try:
    from cosmodeck.sim.looks_fast import sampled_delay, skip_waits
except ImportError:  # not built (e.g. a source tree without a C compiler): the readable loop, the same games
    skip_waits, sampled_delay = skip_waits_py, sampled_delay_py

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


# How a loop asks a seat's bot for its move: ``(state, seat, legal, rng) -> action or None``.
Decide = Callable[[State, int, Sequence[Any], Rng], Any | None]


def _view_of(state: State, seat: int) -> LazyView:
    return LazyView(lambda: state.view(seat))


def _decide(bot: Bot, state: State, seat: int, legal: Sequence[Any], rng: Rng) -> Any | None:
    """The bot's move: from its view, or, for a simulation-only planner (``sees_state``), the state.

    A bot whose ``view_for`` attribute is a function ``(state, seat) -> mapping`` (not None) is given what it
    returns instead of the whole view: a projection of ``state.view(seat)`` (some of its keys, the same values)
    that the game's own view code builds alone, for a bot that reads only those keys (e.g.
    ``BlastOffHeuristic.view_for``, which is ``games/blast_off/view.py:bot_view``). The bot's code never reads the
    state; the game's tests prove the projection equal to the view's entries."""
    if getattr(bot, "sees_state", False):
        return bot.act_state(state, seat, legal, rng)  # type: ignore[attr-defined]
    view_for = getattr(bot, "view_for", None)
    return bot.act(_view_of(state, seat) if view_for is None else view_for(state, seat), legal, rng)


def _decider(bot: Bot) -> Decide:
    """``_decide`` for ``bot``, with the choice among its three ways made once (a game's loop asks it often)."""
    if getattr(bot, "sees_state", False):
        act_state: Decide = bot.act_state  # type: ignore[attr-defined]
        return act_state
    act = bot.act
    view_for: Callable[[State, int], Any] | None = getattr(bot, "view_for", None)
    if view_for is not None:
        return lambda state, seat, legal, rng: act(view_for(state, seat), legal, rng)
    return lambda state, seat, legal, rng: act(LazyView(lambda: state.view(seat)), legal, rng)


def _ignore(seat: int | None, events: list[Event]) -> None:
    return None


def play_game(state: State, bots: Sequence[Bot], rng: Rng, max_decisions: int = 1_000_000,
              sink: EventSink | None = None, reference: bool = False) -> int:
    """Play ``state`` to the end with ``bots`` (one per seat); returns the number of decisions.

    ``sink`` (the simulator's statistics observer) receives every event; bots never see it.
    ``reference``: a real-time game runs the readable loop (``_play_realtime_reference``), which plays
    the same games as the default one (to check it, or to time it).
    """
    emit = sink or _ignore
    if state.game.info.real_time:
        loop = _play_realtime_reference if reference else _play_realtime
        return loop(state, bots, rng, max_decisions, emit)
    decide = [_decider(b) for b in bots]
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
        action = decide[seat](state, seat, legal, rng)
        if action is None:
            raise StuckGameError(f"bot {bots[seat].name} at seat {seat} declined to act in a turn-based game")
        emit(seat, state.apply(seat, action))
        decisions += 1
        if decisions > max_decisions:
            raise DecisionLimitError(f"more than {max_decisions} decisions")
    return decisions


def _earliest(plans: dict[int, float]) -> tuple[int, float]:
    """The seat with the earliest planned look (ties: the lowest seat), or ``(-1, inf)``."""
    seat, t = -1, float("inf")
    for s, when in plans.items():
        if when < t or (when == t and s < seat):
            seat, t = s, when
    return seat, t


def _steady(bot: Bot) -> bool:
    """Whether ``bot``'s own class (not a base class: a subclass may read the clock) declares ``steady = True``."""
    return vars(type(bot)).get("steady", False) is True


def _play_realtime(state: State, bots: Sequence[Bot], rng: Rng, max_decisions: int, emit: EventSink) -> int:
    """The real-time loop (the same games as ``_play_realtime_reference``, draw for draw).

    Between two changes of the state (an action or a timer step) who may act, the cue and the next
    deadline stay the same, so they are computed once per change, not once per look. A bot whose own
    class says ``steady = True`` (a subclass must say it again) promises that, asked again at an
    unchanged state, it waits again without drawing from ``rng`` (its answer reads only the view, the
    legal list and what it learnt from earlier views, never how long it waited): after it waits, it is
    not asked again until the state changes, but its reaction time is still drawn at every planned
    look, so the generator's stream, the looks' times and therefore the games are exactly those of the
    reference loop. Runs of such looks are played in one call (``sim/looks.py:skip_waits``, compiled when
    built) for bots whose reaction time is a plain sample (``bots/reaction.py:sampled_reaction``).
    """
    plans: dict[int, float] = {}
    decide = [_decider(b) for b in bots]
    steady = [_steady(b) for b in bots]
    reactions = [sampled_reaction(b) if s else None for b, s in zip(bots, steady, strict=True)]
    waiting: set[int] = set()  # steady seats that waited since the last change of the state
    decisions = 0
    idle_rounds = 0
    cue: float | None = None
    while not state.is_over:
        waiting.clear()
        cue = _replan(state, bots, plans, cue, rng)
        deadline = state.next_deadline()
        while True:  # looks at this unchanged state, until one acts or the deadline comes
            if waiting:
                seat, t, idle_rounds = skip_waits(plans, waiting, deadline, reactions, rng, idle_rounds)
                if idle_rounds > IDLE_LIMIT:
                    raise StuckGameError("every bot keeps waiting")
            else:
                seat, t = _earliest(plans)
            if deadline is not None and deadline <= t:
                emit(None, state.advance(deadline))
                idle_rounds = 0
                break
            if seat < 0:
                raise StuckGameError(f"nobody may act and no deadline is pending ({state!r})")
            # No deadline falls before t, so who may act is unchanged until then.
            action = None if seat in waiting else decide[seat](state, seat, state.legal_actions(seat), rng)
            if action is None:  # the bot waits; it looks again after another reaction time
                r = reactions[seat]
                plans[seat] = t + (max(1e-3, bots[seat].reaction_time(rng)) if r is None else sampled_delay(r, rng))
                idle_rounds += 1
                if idle_rounds > IDLE_LIMIT:
                    raise StuckGameError("every bot keeps waiting")
                if steady[seat]:
                    waiting.add(seat)
                continue
            del plans[seat]
            emit(seat, state.apply(seat, action, at=t))
            decisions += 1
            idle_rounds = 0
            if decisions > max_decisions:
                raise DecisionLimitError(f"more than {max_decisions} decisions")
            break
    return decisions


def _replan(state: State, bots: Sequence[Bot], plans: dict[int, float], cue: float | None,
            rng: Rng) -> float | None:
    """After a change of the state: drop the plans of seats that may no longer act, replan every seat at a
    new call (its call reaction), plan a look for each seat without one; return the state's cue."""
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
    for seat in sorted(to_act):
        if seat not in plans:
            plans[seat] = state.now + max(0.0, bots[seat].reaction_time(rng))
    return new_cue


def _play_realtime_reference(state: State, bots: Sequence[Bot], rng: Rng, max_decisions: int,
                             emit: EventSink) -> int:
    """The readable real-time loop: every look recomputes who may act, the cue and the next deadline, and
    asks the bot. ``_play_realtime`` plays exactly the same games (the same draws from ``rng`` in the same
    order); ``tests/sim/test_realtime_loop.py`` compares both."""
    plans: dict[int, float] = {}
    decisions = 0
    idle_rounds = 0
    cue: float | None = None
    while not state.is_over:
        cue = _replan(state, bots, plans, cue, rng)
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
            if idle_rounds > IDLE_LIMIT:
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
