"""Per-card and per-mission tallies of one game, from the events the engine emits.

The simulator feeds every event of a game (the full, unredacted events: the game is played by
bots that never see this) to an observer for that game, then asks it for the game's tallies once
the game is over. A tally is JSON-ready:

``{"per_card": {id: {"seats": [...], counter: n, ...}}, "per_mission": {id: {...}}, ...}``

keyed by the card or mission id of the game's data file. ``seats`` lists the seats that played or
held the card (or held / revealed the mission); :mod:`cosmodeck.sim.cardstats` aggregates them.
Only what showed up in the game is listed (a run's tables name every id seen in any of its games).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Protocol

from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State


class Observer(Protocol):
    def __call__(self, seat: int | None, events: list[Event], now: float) -> None: ...

    def finish(self, state: State, result: dict[str, Any], decisions: int) -> dict[str, Any]: ...


def field(e: Event, key: str) -> Any:
    """``e.to_dict()[key]``: the unredacted event's field (a private one over a public one of the same name),
    without building the dict."""
    private = e.private
    if private and key in private:
        return private[key]
    return e.data[key]


def field_or(e: Event, key: str, default: Any = None) -> Any:
    """``e.to_dict().get(key, default)``, without building the dict."""
    private = e.private
    if private and key in private:
        return private[key]
    return e.data.get(key, default)


class Tally:
    """Counters per id, and which seats touched each id."""

    def __init__(self) -> None:
        self.counts: defaultdict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.seats: defaultdict[str, set[int]] = defaultdict(set)

    def add(self, key: str, counter: str, n: float = 1.0, seat: int | None = None) -> None:
        self.counts[key][counter] += n
        if seat is not None:
            self.seats[key].add(seat)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        return {k: {"seats": sorted(self.seats.get(k, ())), **dict(sorted(v.items()))}
                for k, v in sorted(self.counts.items())}


def observer_for(game: Any, players: int) -> Observer | None:
    """A fresh observer for one game of ``game`` (``None``: no per-card tallies for it)."""
    game_id, data = game.id, game.data
    if game_id == "shooting-star":
        from cosmodeck.sim.observe.shooting_star import ShootingStarObserver

        return ShootingStarObserver(data, players)
    if game_id == "meteor":
        from cosmodeck.sim.observe.meteor import MeteorObserver

        return MeteorObserver(data, players)
    if game_id == "blast-off":
        from cosmodeck.sim.observe.blast_off import BlastOffObserver

        return BlastOffObserver(game, players)
    return None
