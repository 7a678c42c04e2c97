"""Frozen card types of Shooting Star: planets, Destruction cards, missions, factions.

Cells are ``(x, y)`` tuples; ``x`` grows to the right and ``y`` downward (SHS glossary).
Arrows rotate card-frame offsets as in SHS-5.3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Cell = tuple[int, int]

KIND_12 = "12"
KIND_34 = "34"
KIND_DARK = "dark"
DARK_LEVEL = 0  # internal level of a Dark Planet (it has none; views show null)

ORIENTATIONS = ("N", "E", "S", "W")
ORIENTATIONS_2 = ("N", "S")  # R5: orientations=2
NEIGHBOURS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def rotate(offset: Cell, arrow: str) -> Cell:
    """SHS-5.3: a card-frame offset ``(dx, dy)`` as a board offset for ``arrow``."""
    dx, dy = offset
    if arrow == "N":
        return (dx, dy)
    if arrow == "E":
        return (-dy, dx)
    if arrow == "S":
        return (-dx, -dy)
    if arrow == "W":
        return (dy, -dx)
    raise ValueError(f"unknown arrow {arrow!r}")


def card_id(faction: str, kind: str) -> str:
    """The id of one physical Destruction card, e.g. ``blastroid:P6``."""
    return f"{faction}:{kind}"


def is_planet_id(cid: str) -> bool:
    return ":" not in cid


@dataclass(frozen=True, slots=True)
class Planet:
    """A planet card (SHS-1.1). A 1/2 card shows levels 1/2, a 3/4 card levels 3/4."""

    id: str
    kind: str
    name: str | None
    moons: int

    @property
    def dark(self) -> bool:
        return self.kind == KIND_DARK

    @property
    def faces(self) -> tuple[int, ...]:
        """Levels the card can show (a Dark Planet has the single internal face 0)."""
        if self.kind == KIND_12:
            return (1, 2)
        if self.kind == KIND_34:
            return (3, 4)
        return (DARK_LEVEL,)


@dataclass(frozen=True, slots=True)
class CardType:
    """One card of the (identical) Destruction set (SHS-1.2): priority None = Space Shield."""

    id: str
    priority: int | None
    shield: bool
    hits: tuple[Cell, ...]
    # offsets rotated per arrow, precomputed at load (SHS-5.3)
    rotated: Mapping[str, tuple[Cell, ...]]


@dataclass(frozen=True, slots=True)
class Mission:
    """A secret mission (SHS-15): thresholds in ``need`` or named planets."""

    id: str
    points: int
    need: Mapping[str, int]
    named: tuple[str, ...]
    score_by_found: tuple[int, ...]
    # what players read, per language code ("en" always; others optional): shown, never scored
    name: Mapping[str, str] = field(default_factory=dict)
    text: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Faction:
    id: str
    name: str
    colour: str
    proposed: bool
