"""Fast random playouts for search bots (they run on the bot's own determinized copy).

The bots layer may not import the simulator, so this is the search's own small loop: turn
by turn for turn-based games, an event queue with random reaction times for real-time games
(the same model as ``sim.runner``).
"""

from __future__ import annotations

from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State


def rollout(state: State, rng: Rng, max_decisions: int = 100_000, median_s: float = 1.0,
            sigma: float = 0.35) -> int:
    """Play ``state`` to the end with uniform random actions; returns the decisions made."""
    if state.game.info.real_time:
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
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
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
