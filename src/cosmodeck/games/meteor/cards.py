"""Frozen card types of Meteor (MET-1) and the card tables built from the data file.

Every physical copy of a Resource card has an instance id: its base id, ``#`` and a copy
number from 1 (``F#3`` is the third Fuel, ``R10#2`` the second rocket R10, ``T01#1`` the
Communications Satellite). Meteors, Power and Challenge cards are unique: their id is the
data id (``M10``, ``B03``, ``P04``, ``C11``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

ResourceKind = Literal["energy", "rocket", "tech"]
MeteorKind = Literal["standard", "boss"]


@dataclass(frozen=True, slots=True)
class EnergyType:
    """One of the four energy types (6.1)."""

    key: str
    code: str
    colour: str
    value: int
    count: int


@dataclass(frozen=True, slots=True)
class ResourceCard:
    """One copy of an Energy, Rocket or Technology card (MET-1.2)."""

    id: str
    base: str
    kind: ResourceKind
    code: str = ""  # energy: its letter (F, A, S, E)
    damage: int = 0  # rocket: printed damage
    cost: tuple[str, ...] = ()  # rocket / tech: energy letters, sorted
    key: str = ""  # energy key or tech key
    effect: str = ""  # tech effect

    @property
    def is_energy(self) -> bool:
        return self.kind == "energy"

    @property
    def is_rocket(self) -> bool:
        return self.kind == "rocket"

    @property
    def is_tech(self) -> bool:
        return self.kind == "tech"


@dataclass(frozen=True, slots=True)
class MeteorCard:
    """A Standard or Boss Meteor (6.5): its back (size range), exact size and trait."""

    id: str
    kind: MeteorKind
    back: tuple[int, int]
    size: int | None
    size_by_zone: Mapping[int, int] | None
    trait: str | None
    name: str = ""

    def size_in(self, zone: int) -> int:
        """Exact size S; Ablating meteors use the current zone's size (6.4)."""
        if self.size_by_zone is not None:
            return self.size_by_zone[zone]
        assert self.size is not None
        return self.size

    def face(self, zone: int) -> dict[str, Any]:
        """The printed face, JSON-ready."""
        out: dict[str, Any] = {"id": self.id, "trait": self.trait, "name": self.name}
        if self.size_by_zone is not None:
            out["size"] = self.size_by_zone[zone]
            out["size_by_zone"] = {str(z): s for z, s in sorted(self.size_by_zone.items(), reverse=True)}
        else:
            out["size"] = self.size
        return out


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One line of the Set-Up Chart (6.7)."""

    meteors: int
    start_hand: int
    draw_per_change: int
    retrofit_split: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Difficulty:
    """One difficulty level (R16)."""

    bosses: int
    powers: int
    challenges: int


@dataclass(frozen=True, slots=True)
class MeteorData:
    """Every card and table of a validated data file (the engine hard-codes no card value)."""

    energy: tuple[EnergyType, ...]
    resources: Mapping[str, ResourceCard]
    resource_order: tuple[str, ...]
    meteors: Mapping[str, MeteorCard]
    standard_ids: tuple[str, ...]
    boss_ids: tuple[str, ...]
    powers: Mapping[str, str]
    challenges: Mapping[str, str]
    sites: tuple[str, ...]
    zones: Mapping[int, str]
    chart: Mapping[int, ChartRow]
    difficulty: Mapping[str, Difficulty]
    retrofit_cards: int
    retrofit_draw: int
    costs: tuple[tuple[str, ...], ...]  # every distinct rocket and tech cost (for the `dead` flag)
    energy_by_key: Mapping[str, str] = field(default_factory=dict)  # key -> letter
    warnings: tuple[str, ...] = ()
    default_options: Mapping[str, Any] | None = None
    texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # key -> {"en": ..., "es": ...}

    def card(self, card_id: str) -> ResourceCard:
        return self.resources[card_id]

    def code_of(self, key: str) -> str:
        """The letter of an energy key (``"" `` when the data has no such energy)."""
        return self.energy_by_key.get(key, "")
