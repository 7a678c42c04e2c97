"""Blast Off! tallies: each card's plays and draws, and what each mission did while in force.

Per card (the engine's card names: ``O7``, ``BO-G``, ``W``, ``CD``): ``played`` (on a turn),
``slapped`` (thrown into a countdown), ``drawn``; ``seats``: the seats that drew or played it
(opening hands are not in the events, so a card held from the deal and never played is not counted).

Per mission (``M01``...): ``revealed`` (times it came into force), ``obligations`` (owed by a
player), ``kept`` (announcements and gestures that fulfilled one), ``violations``, ``catches``,
``penalties`` (referee penalties), ``decisions_in_force`` and ``time_in_force`` (game seconds);
``seats``: the seats that revealed it.
"""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.sim.observe import Tally, field, field_or


class BlastOffObserver:
    def __init__(self, game: Any, players: int) -> None:
        self.game = game
        self.cards = Tally()
        self.missions = Tally()
        self.since: dict[str, tuple[int, float]] = {}  # in force: mission -> (decisions, time) when revealed
        self.owed: list[tuple[int, str, str]] = []  # (seat, token, mission) of obligations not yet kept
        self.decisions = 0
        self.now = 0.0

    def __call__(self, seat: int | None, events: list[Event], now: float) -> None:
        if seat is not None:
            self.decisions += 1
        self.now = now
        cards, missions = self.cards, self.missions
        for e in events:  # each event's fields as ``e.to_dict()`` has them (``field``), the dict never built
            t = e.type
            if t == "played":
                cards.add(str(field(e, "card")), "played", seat=int(field(e, "seat")))
            elif t == "slap_accepted":
                cards.add(str(field(e, "card")), "slapped", seat=int(field(e, "seat")))
            elif t == "drew":
                for c in field_or(e, "cards") or ():
                    cards.add(str(c), "drawn", seat=int(field(e, "seat")))
            elif t == "mission_revealed":
                for old in field_or(e, "replaced") or ():
                    self._close(str(old))
                mid = str(field(e, "mission"))
                missions.add(mid, "revealed", seat=int(field(e, "seat")))
                self.since.setdefault(mid, (self.decisions, self.now))
            elif t == "obligation":
                missions.add(str(field(e, "mission")), "obligations")
                self.owed.append((int(field(e, "seat")), str(field(e, "token")), str(field(e, "mission"))))
            elif t in ("announced", "gestured") and field_or(e, "fulfilled"):
                who, said = field_or(e, "seat"), field_or(e, "token")
                for i, (s, token, mid) in enumerate(self.owed):
                    if s == who and token == said:
                        missions.add(mid, "kept")
                        del self.owed[i]
                        break
            elif t == "violation":
                missions.add(str(field(e, "mission")), "violations")
            elif t == "caught":
                missions.add(str(field(e, "mission")), "catches")
            elif t == "penalized":
                missions.add(str(field(e, "mission")), "penalties")

    def _close(self, mid: str) -> None:
        start = self.since.pop(mid, None)
        if start is not None:
            self.missions.add(mid, "decisions_in_force", float(self.decisions - start[0]))
            self.missions.add(mid, "time_in_force", self.now - start[1])

    def finish(self, state: State, result: dict[str, Any], decisions: int) -> dict[str, Any]:
        self.now = float(state.now)
        for mid in list(self.since):
            self._close(mid)
        return {"per_card": self.cards.to_dict(), "per_mission": self.missions.to_dict()}
