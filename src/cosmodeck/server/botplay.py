"""Fair bots in a room's real-time races: every bot reacts to each new call afresh.

A real-time game may give a *go signal* (``State.cue``: e.g. each value a Blast Off! countdown
calls). A room's bots have planned moments (``Room.plans``, wall times); a plan made before the
call would let a bot act a few milliseconds after it, faster than any person. So when a room sees
a new cue, ``CallPlanner.replan`` forgets the plan of every seat that may act and plans its first
look at ``wall time the call was made + the bot's call reaction`` (``bots/reaction.py``: a human-like,
shifted log-normal reaction with a floor), and a bot whose planned move would land on a call that
came after its plan (``CallPlanner.is_new``) does not act: it is planned afresh too.

The room's ``bot_speed`` (a test setting, 1 by default) scales these times like every other bot
time; the floor holds at the default.
"""

from __future__ import annotations

from collections.abc import Callable

from cosmodeck.bots.base import Bot
from cosmodeck.bots.reaction import call_reaction
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State


class CallPlanner:
    """The last cue a room's bots were planned for; plans the bots afresh at each new one."""

    def __init__(self, rng: Rng, speed: float) -> None:
        self.rng = rng
        self.speed = speed
        self.cue: float | None = None  # game time of the call the bots were last planned for

    def is_new(self, state: State) -> bool:
        """Has the game called a signal since the bots were last planned?"""
        cue = state.cue()
        return cue is not None and cue != self.cue

    def replan(self, state: State, plans: dict[int, float], bot_of: Callable[[int], Bot | None],
               wall_of: Callable[[float], float], now: float) -> None:
        """On a new cue, plan every bot seat that may act at the call's wall time plus its call reaction.

        The call's wall time is when the room made it (and told everyone), ``now`` if that came later
        than its deadline, so the reaction counts from the moment a person could have seen it.
        """
        cue = state.cue()
        if cue is not None and cue != self.cue:
            call_wall = max(wall_of(cue), now)
            for seat in sorted(state.to_act):
                bot = bot_of(seat)
                delay = None if bot is None else call_reaction(bot, self.rng)
                if delay is not None:
                    plans[seat] = call_wall + delay * self.speed
        self.cue = cue
