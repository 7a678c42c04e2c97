"""Fast random playouts for search bots (they run on the bot's own determinized copy).

The bots layer may not import the simulator, so this is the search's own small loop: turn
by turn for turn-based games, an event queue with random reaction times for real-time games
(the same model as ``sim.runner``).

By default every action is uniform among the legal ones. A ``policy`` (a game's playout
knowledge, e.g. from an ISMCTS :class:`~cosmodeck.bots.ismcts.Guide`) chooses instead: it
returns a legal action, or ``None`` to wait. In real time a waiting seat looks again after a
reaction time once something has changed (an action, a timer event), or after ``idle_s``
seconds if nothing has, so that a playout does not spend its time asking idle seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State

# (state, seat, rng) -> a legal action of ``seat``, or None (wait; turn-based: a random action)
RolloutPolicy = Callable[[State, int, Rng], Any]


def rollout(state: State, rng: Rng, max_decisions: int = 100_000, median_s: float = 1.0,
            sigma: float = 0.35, policy: RolloutPolicy | None = None, idle_s: float = 5.0) -> int:
    """Play ``state`` to the end (random actions, or ``policy``'s); returns the decisions made."""
    if state.game.info.real_time:
        if policy is not None:
            return _realtime_policy(state, rng, max_decisions, median_s, sigma, policy, idle_s)
        return _realtime(state, rng, max_decisions, median_s, sigma)
    decisions = 0
    while not state.is_over and decisions < max_decisions:
        to_act = state.to_act
        if not to_act:
            d = state.next_deadline()
            if d is None:
                break
            state.advance(d)
            continue
        seat = min(to_act)
        action = policy(state, seat, rng) if policy is not None else None
        if action is None:
            legal = state.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
        state.apply(seat, action)
        decisions += 1
    return decisions


def _realtime(state: State, rng: Rng, max_decisions: int, median_s: float, sigma: float) -> int:
    plans: dict[int, float] = {}
    decisions = 0
    while not state.is_over and decisions < max_decisions:
        to_act = state.to_act
        for seat in [s for s in plans if s not in to_act]:
            del plans[seat]
        for seat in to_act:
            if seat not in plans:
                plans[seat] = state.now + rng.lognormal(median_s, sigma)
        deadline = state.next_deadline()
        if plans:
            seat = min(plans, key=lambda s: (plans[s], s))
            t = plans[seat]
        else:
            seat, t = -1, float("inf")
        if deadline is not None and deadline <= t:
            state.advance(deadline)
            continue
        if seat < 0:
            break
        del plans[seat]
        legal = state.legal_actions(seat)
        if legal:
            state.apply(seat, legal[rng.randbelow(len(legal))], at=t)
            decisions += 1
        else:
            state.advance(t)
    return decisions


def _realtime_policy(state: State, rng: Rng, max_decisions: int, median_s: float, sigma: float,
                     policy: RolloutPolicy, idle_s: float) -> int:
    plans: dict[int, float] = {}
    waiting: dict[int, int] = {}  # seat -> the version it last looked at
    version = 0  # bumped by every action and timer event
    decisions = looks = 0
    while not state.is_over and decisions < max_decisions and looks < 20 * max_decisions:
        to_act = state.to_act
        for seat in [s for s in plans if s not in to_act]:
            del plans[seat]
            waiting.pop(seat, None)
        for seat in to_act:
            if seat not in plans:
                plans[seat] = state.now + rng.lognormal(median_s, sigma)
            elif waiting.get(seat, version) != version:
                plans[seat] = min(plans[seat], state.now + rng.lognormal(median_s, sigma))
                del waiting[seat]
        deadline = state.next_deadline()
        if plans:
            seat = min(plans, key=lambda s: (plans[s], s))
            t = plans[seat]
        else:
            seat, t = -1, float("inf")
        if deadline is not None and deadline <= t:
            state.advance(deadline)
            version += 1
            continue
        if seat < 0:
            break
        looks += 1
        action = policy(state, seat, rng)
        if action is not None:
            try:
                state.apply(seat, action, at=t)
            except IllegalActionError:
                action = None
        if action is None:
            plans[seat] = t + idle_s * rng.lognormal(1.0, sigma)
            waiting[seat] = version
            continue
        del plans[seat]
        waiting.pop(seat, None)
        decisions += 1
        version += 1
    return decisions
