"""Meteor tallies: what each resource card did, and what became of each meteor.

Per card, keyed by the data file's ids (energy letters ``F``/``A``/``S``/``E``, rockets ``R01``...,
technologies ``T01``..., meteors ``M01``/``B01``...):
- resource cards: ``drawn`` (during play, not the opening hands), ``played`` (placed on a site),
  ``built`` (rockets and technologies completed), ``launched``, ``volleys``, ``damage`` (the
  damage its launches brought to volleys), ``meteors_destroyed`` (volleys it joined that
  destroyed their meteor), ``overkills`` (volleys it joined that overkilled);
- meteors: ``destroyed``, ``in_field_at_end``, ``left_at_loss`` (still in the field when the team lost).

``seats`` lists the seats that drew or placed the card. Per game also: ``meteors_left_at_loss``
(the ids still in the field when the team lost, read from the finished state), the zone and game
time reached, and the cause.
"""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.sim.observe import Tally


def _base(card: Any) -> str:
    """``R11#1`` -> ``R11``; ``A#4`` -> ``A``."""
    return str(card).partition("#")[0]


# the event types the tally reads (any other is skipped before its dict is made)
_TALLIED = frozenset({"drew", "placed", "rocket_built", "tech_built", "launch", "volley", "meteor_removed"})


class MeteorObserver:
    def __init__(self, data: Any, players: int) -> None:
        self.data = data
        self.cards = Tally()
        self.launch_damage: dict[str, float] = {}

    def __call__(self, seat: int | None, events: list[Event], now: float) -> None:
        cards = self.cards
        for e in events:
            t = e.type
            if t not in _TALLIED:
                continue
            d = e.to_dict()
            if t == "drew":
                for c in d.get("cards") or ():
                    cards.add(_base(c), "drawn", seat=int(d["seat"]))
            elif t == "placed":
                cards.add(_base(d["card"]), "played", seat=int(d["seat"]))
            elif t in ("rocket_built", "tech_built"):
                cards.add(_base(d["card"]), "built")
            elif t == "launch":
                cards.add(_base(d["card"]), "launched", seat=int(d["seat"]))
                self.launch_damage[str(d["card"])] = float(d.get("damage") or 0)
            elif t == "volley":
                for r in d.get("rockets") or ():
                    rid = _base(r)
                    cards.add(rid, "volleys")
                    cards.add(rid, "damage", self.launch_damage.get(str(r), 0.0))
                    if d.get("result") == "destroyed":
                        cards.add(rid, "meteors_destroyed")
                    elif d.get("result") == "overkill":
                        cards.add(rid, "overkills")
            elif t == "meteor_removed" and d.get("id"):
                cards.add(str(d["id"]), "destroyed" if d.get("cause") == "destroyed" else str(d.get("cause")))

    def finish(self, state: State, result: dict[str, Any], decisions: int) -> dict[str, Any]:
        field = [str(fm.id) for fm in getattr(state, "field", ())]
        lost = not result.get("team_win")
        for mid in field:
            self.cards.add(mid, "in_field_at_end")
            if lost:
                self.cards.add(mid, "left_at_loss")
        details = result.get("details") or {}
        return {"per_card": self.cards.to_dict(), "per_mission": {},
                "meteors_left_at_loss": sorted(field) if lost else [],
                "zone_reached": details.get("zone"), "time_reached": float(state.now)}
