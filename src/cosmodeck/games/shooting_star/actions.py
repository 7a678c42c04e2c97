"""Actions of Shooting Star and their stable text notation (SHS-D1).

Notation (one line, single spaces, integers without leading zeros or ``+``):

``place CARD X,Y ARROW``
    ``Place``: put Destruction card ``CARD`` (a set id such as ``P6`` or ``SH``) face down on
    the planet at cell ``(X, Y)`` with its arrow ``N``, ``E``, ``S`` or ``W`` (SHS-5.2, SHS-5.3).
    Example: ``place P6 1,0 N``.

``planet PLANET X,Y FACE``
    ``PlacePlanet`` (custom sector variant, SHS-16): put planet card ``PLANET`` on cell
    ``(X, Y)`` showing level ``FACE`` (``1``-``4``), or ``D`` for a Dark Planet.
    Coordinates may be negative. Example: ``planet P34-A1 -1,0 4``.

``str(action)`` gives the notation and ``Game.parse_action(text)`` reads it back exactly;
anything else raises ``NotationError``.

>>> import cosmodeck
>>> game = cosmodeck.load_game("shooting-star")
>>> action = game.parse_action("place P6 1,0 N")
>>> action
Place(card='P6', cell=(1, 0), orientation='N')
>>> str(action)
'place P6 1,0 N'
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from cosmodeck.engine.errors import NotationError
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, Cell

_INT = r"(0|-?[1-9][0-9]*)"
_PLACE = re.compile(rf"place (\S+) {_INT},{_INT} ([NESW])")
_PLANET = re.compile(rf"planet (\S+) {_INT},{_INT} ([1-4]|D)")


@dataclass(frozen=True, slots=True)
class Place:
    """Place Destruction card ``card`` face down on ``cell`` with arrow ``orientation``."""

    card: str
    cell: Cell
    orientation: str

    def __str__(self) -> str:
        return f"place {self.card} {self.cell[0]},{self.cell[1]} {self.orientation}"


@dataclass(frozen=True, slots=True)
class PlacePlanet:
    """Custom sector: place planet ``planet`` on ``cell`` showing ``face`` (0 = Dark Planet)."""

    planet: str
    cell: Cell
    face: int

    def __str__(self) -> str:
        face = "D" if self.face == DARK_LEVEL else str(self.face)
        return f"planet {self.planet} {self.cell[0]},{self.cell[1]} {face}"


Action = Place | PlacePlanet


def parse_action(text: str, cards: Collection[str], planets: Collection[str]) -> Action:
    """Parse the notation; ``cards``/``planets`` are the ids the data knows."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    m = _PLACE.fullmatch(text)
    if m is not None:
        card, x, y, arrow = m.groups()
        if card not in cards:
            raise NotationError(f"unknown Destruction card {card!r} in {text!r}; cards: {', '.join(cards)}")
        return Place(card, (int(x), int(y)), arrow)
    m = _PLANET.fullmatch(text)
    if m is not None:
        pid, x, y, face = m.groups()
        if pid not in planets:
            raise NotationError(f"unknown planet {pid!r} in {text!r}")
        return PlacePlanet(pid, (int(x), int(y)), DARK_LEVEL if face == "D" else int(face))
    raise NotationError(
        f"cannot read {text!r}: expected 'place CARD X,Y N|E|S|W' or 'planet PLANET X,Y 1|2|3|4|D'"
    )
