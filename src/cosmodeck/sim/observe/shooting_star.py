"""Shooting Star tallies: what each Destruction card did, and each secret mission dealt.

Per card (the ``destruction_set`` id, e.g. ``P8``; every seat holds the whole set):
``played`` (placed), ``hits`` (planets damaged: flipped or captured by damage), ``captures``
(planets won by its damage), ``points`` (SHS-14.1/14.2 points of those captures: the card, and a
moon point when the planet has a moon), ``misses``, ``cards_destroyed`` (other cards it destroyed),
``destroyed`` (times it was destroyed), ``shielded`` (times a Shield stopped it), ``blocks`` (a
Shield's catches). ``seats``: the seats that played it.

Per mission (``M1-A``...): ``dealt``, ``completed`` (full points), ``points``; ``seats``: the
holders (a secret mission is in force for its holder the whole game).
"""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.sim.observe import Tally, field, field_or


def _kind(card: Any) -> str:
    """``blastroid:P8`` -> ``P8``."""
    return str(card).rpartition(":")[2]


class ShootingStarObserver:
    def __init__(self, data: Any, players: int) -> None:
        self.data = data
        self.cards = Tally()
        self.resolving: str | None = None
        self.shield = next((cid for cid, c in data.cards.items() if c.shield), "")

    def __call__(self, seat: int | None, events: list[Event], now: float) -> None:
        cards = self.cards
        for e in events:  # each event's fields as ``e.to_dict()`` has them (``field``), the dict never built
            t = e.type
            if t == "place":
                cards.add(_kind(field(e, "card")), "played", seat=int(field(e, "seat")))
            elif t == "resolve":
                self.resolving = _kind(field(e, "card"))
            elif t == "to_debris":
                if field_or(e, "cause") == "resolved":
                    self.resolving = None
            elif t == "shield":
                cards.add(_kind(field(e, "card")), "shielded")
                cards.add(self.shield, "blocks")
            elif t == "destroy":
                cards.add(_kind(field(e, "card")), "destroyed")
                if self.resolving is not None:
                    cards.add(self.resolving, "cards_destroyed")
            elif self.resolving is None:
                continue
            elif t == "miss":
                cards.add(self.resolving, "misses")
            elif t == "flip":
                cards.add(self.resolving, "hits")
            elif t == "capture" and field_or(e, "cause") == "damage":
                cards.add(self.resolving, "hits")
                cards.add(self.resolving, "captures")
                planet = self.data.planets.get(field_or(e, "planet"))
                moon = 1 if planet is not None and planet.moons >= 1 else 0
                cards.add(self.resolving, "points", 1 + moon)

    def finish(self, state: State, result: dict[str, Any], decisions: int) -> dict[str, Any]:
        missions = Tally()
        for seat, b in enumerate(result["details"]["breakdown"]):
            for mid, pts in b["missions"].items():
                most = int(self.data.missions[mid].points)
                missions.add(mid, "dealt", seat=seat)
                missions.add(mid, "completed", 1.0 if pts >= most else 0.0)
                missions.add(mid, "points", float(pts))
        return {"per_card": self.cards.to_dict(), "per_mission": missions.to_dict()}
