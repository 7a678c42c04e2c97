"""Game options: declared per game, validated on ``load_game``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

from cosmodeck.engine.errors import OptionError


@dataclass(frozen=True, slots=True)
class TextInput:
    """The text of a file handed to a game (card data, missions), with where it came from.

    The host reads files; games only ever see text, so ``engine`` and ``games`` do no I/O.
    """

    source: str
    text: str
    default: bool = False
    lenient: bool = False  # design mode: the loader reports broken design invariants as warnings

    @property
    def sha(self) -> str:
        return sha256(self.text.encode("utf-8")).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"$file": self.source, "text": self.text}
        if self.lenient:
            out["lenient"] = True
        return out

    @staticmethod
    def from_json(obj: Any) -> TextInput | None:
        if isinstance(obj, dict) and set(obj) in ({"$file", "text"}, {"$file", "text", "lenient"}):
            return TextInput(str(obj["$file"]), str(obj["text"]), lenient=obj.get("lenient") is True)
        return None


@dataclass(frozen=True, slots=True)
class Option:
    """One option: name, default, and either a set of choices or a check.

    ``check`` returns a problem description, or ``None`` when the value is acceptable.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    doc: str = ""

    def validate(self, value: Any) -> None:
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name!r}: {value!r} is not one of {', '.join(map(repr, self.choices))}"
            )
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise OptionError(f"option {self.name!r}: {value!r}: {problem}")


def number(lo: float | None = None, hi: float | None = None, integer: bool = False) -> Callable[[Any], str | None]:
    """A check for a number within [lo, hi]."""

    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return "must be a number"
        if integer and not isinstance(v, int):
            return "must be an integer"
        if lo is not None and v < lo:
            return f"must be at least {lo}"
        if hi is not None and v > hi:
            return f"must be at most {hi}"
        return None

    return check


def boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def resolve_options(
    specs: Iterable[Option], given: Mapping[str, Any], defaults: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Merge ``given`` over the defaults (data-file defaults override declared ones)."""
    table = {o.name: o for o in specs}
    unknown = sorted(set(given) - set(table))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(table))}")
    out: dict[str, Any] = {}
    for name, spec in table.items():
        if name in given:
            value = given[name]
        elif defaults is not None and name in defaults:
            value = defaults[name]
        else:
            value = spec.default
        if not isinstance(value, TextInput):
            spec.validate(value)
        out[name] = value
    return out
