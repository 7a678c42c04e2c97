"""Building positions from named zones (``game.position(...)``): the game-agnostic part.

A position names only the cards that matter (a hand, the top of a pile, the meteors in the field); a
``Picker`` resolves those names to the game's card ids and hands back the rest for the default zone (the
draw pile, the reserve). A name is either an exact id (``R9#2``) or, for games whose copies are
interchangeable, the card without its copy number (``R9``: the first copy not named elsewhere).
Every mistake is a ``StateFormatError`` naming the argument (``hands[1][0]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cosmodeck.engine import validate as V


class Picker:
    """Resolves card names of a position to ids, each id at most once, and knows what is left."""

    def __init__(self, ids: Iterable[str], what: str = "card") -> None:
        self.order: list[str] = list(ids)
        self.what = what
        self.known = set(self.order)
        self.copies: dict[str, list[str]] = {}
        for i in self.order:
            if "#" in i:
                self.copies.setdefault(i.rsplit("#", 1)[0], []).append(i)
        self.taken: dict[str, str] = {}  # id -> the argument that named it

    def zones(self, zones: Sequence[tuple[str, Any]]) -> list[list[str]]:
        """Resolve several zones (argument name, list of names): exact ids first, then bare names."""
        raw: list[list[Any]] = [names(z, field) for field, z in zones]
        out: list[list[str | None]] = [[None] * len(z) for z in raw]
        for bare in (False, True):
            for zi, (field, _) in enumerate(zones):
                for i, name in enumerate(raw[zi]):
                    f = f"{field}[{i}]"
                    V.string(name, f)
                    if (name in self.known) != bare:
                        out[zi][i] = self.one(name, f)
        return [[x for x in z if x is not None] for z in out]

    def one(self, name: Any, field: str) -> str:
        V.string(name, field)
        if name in self.known:
            if name in self.taken:
                V.fail(field, f"{name} is already named by {self.taken[name]}", V.CENSUS)
            self.taken[name] = field
            return str(name)
        copies = self.copies.get(name)
        if copies is None:
            V.fail(field, f"{str(name)[:40]!r} is not a {self.what} of this game", V.UNKNOWN)
        for c in copies:
            if c not in self.taken:
                self.taken[c] = field
                return c
        V.fail(field, f"every {name} of the deck ({len(copies)}) is already named", V.CENSUS)

    def rest(self) -> list[str]:
        """The ids no zone named, in the order given to the picker."""
        return [i for i in self.order if i not in self.taken]


def names(value: Any, field: str) -> list[Any]:
    """A list (or tuple) argument of a position, as a list."""
    return list(V.seq(list(value) if isinstance(value, tuple) else value, field))


def per_seat(value: Any, field: str, players: int) -> list[Any]:
    """One entry per seat (a list or tuple of ``players`` entries)."""
    return list(V.seq(list(value) if isinstance(value, tuple) else value, field, players))
