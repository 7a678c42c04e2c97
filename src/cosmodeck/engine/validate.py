"""Small typed readers for validating a saved state's JSON before anything is built from it.

Every reader takes the value and its field path (``core.hands[2][0]``) and either returns the
value with its exact JSON type or raises ``StateFormatError`` naming the field and the problem,
with a stable code:

- ``state_type``: wrong JSON type or shape (a list where a number belongs, a missing key);
- ``state_range``: a number or a length outside what the game allows;
- ``state_unknown``: an id the game's card data does not know;
- ``state_census``: a card missing, duplicated, or in a zone the rules do not allow;
- ``state_inconsistent``: fields that contradict each other (levels and cards, phase and to-act).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from typing import Any, NoReturn

from cosmodeck.engine.errors import StateFormatError

TYPE, RANGE, UNKNOWN, CENSUS, INCONSISTENT = (
    "state_type", "state_range", "state_unknown", "state_census", "state_inconsistent")


def fail(field: str, problem: str, code: str = TYPE) -> NoReturn:
    raise StateFormatError(f"{field}: {problem}", code, field=field)


def obj(value: Any, field: str, keys: Collection[str], optional: Collection[str] = ()) -> dict[str, Any]:
    """A JSON object with exactly ``keys`` (plus any of ``optional``)."""
    if not isinstance(value, dict):
        fail(field, f"must be an object, not {_kind(value)}")
    for k in keys:
        if k not in value:
            fail(f"{field}.{k}", "is missing")
    allowed = set(keys) | set(optional)
    for k in value:
        if k not in allowed:
            fail(f"{field}.{k}", "is not a field of this state")
    return value


def integer(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, f"must be an integer, not {_kind(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        fail(field, f"{value} is outside {_span(lo, hi)}", RANGE)
    return value


def number(value: Any, field: str, lo: float | None = None, hi: float | None = None) -> float:
    """A finite JSON number (an integer is accepted where a time is expected)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(field, f"must be a number, not {_kind(value)}")
    if not math.isfinite(value):
        fail(field, f"must be finite, not {value}", RANGE)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        fail(field, f"{value} is outside {_span(lo, hi)}", RANGE)
    return float(value)


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        fail(field, f"must be true or false, not {_kind(value)}")
    return value


def string(value: Any, field: str) -> str:
    if not isinstance(value, str):
        fail(field, f"must be a string, not {_kind(value)}")
    return value


def one_of(value: Any, field: str, allowed: Collection[Any]) -> Any:
    # the type first: an unhashable value (a list, an object) cannot be looked up in a set
    if isinstance(value, bool) or type(value) not in {type(a) for a in allowed} or value not in allowed:
        fail(field, f"{value!r} is not one of {sorted(map(str, allowed))}", RANGE)
    return value


def seq(value: Any, field: str, length: int | None = None, max_len: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        fail(field, f"must be a list, not {_kind(value)}")
    if length is not None and len(value) != length:
        fail(field, f"has {len(value)} entries, must have {length}", RANGE)
    if max_len is not None and len(value) > max_len:
        fail(field, f"has {len(value)} entries, at most {max_len} allowed", RANGE)
    return value


def ids(value: Any, field: str, known: Collection[str], length: int | None = None) -> list[str]:
    """A list of card ids, each known to the game's data."""
    out = seq(value, field, length)
    for i, x in enumerate(out):
        card_id(x, f"{field}[{i}]", known)
    return out


def card_id(value: Any, field: str, known: Collection[str]) -> str:
    string(value, field)
    if value not in known:
        fail(field, f"{value!r} is not a card of this game's data", UNKNOWN)
    return str(value)


def ints(value: Any, field: str, lo: int | None = None, hi: int | None = None,
         length: int | None = None) -> list[int]:
    out = seq(value, field, length)
    for i, x in enumerate(out):
        integer(x, f"{field}[{i}]", lo, hi)
    return out


def census(found: Iterable[Any], expected: Mapping[Any, int], what: str = "card") -> None:
    """Every card exactly as many times as the data holds it, and nothing else."""
    have: Counter[Any] = Counter(found)
    for card, n in sorted(have.items(), key=lambda kv: str(kv[0])):
        want = expected.get(card, 0)
        if want == 0:
            fail("core", f"{what} {card!r} is not in this game", UNKNOWN)
        if n > want:
            fail("core", f"{what} {card!r} appears {n} times, the game has {want}", CENSUS)
    for card, want in sorted(expected.items(), key=lambda kv: str(kv[0])):
        if have.get(card, 0) < want:
            fail("core", f"{what} {card!r} is missing (in no zone)", CENSUS)


def _span(lo: float | None, hi: float | None) -> str:
    if lo is None:
        return f"at most {hi}"
    if hi is None:
        return f"at least {lo}"
    return f"{lo}..{hi}"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)
