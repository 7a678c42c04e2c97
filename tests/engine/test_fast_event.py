"""``engine/fast_event.pyx``: the events the compiled fast paths build by writing slots are ``Event(...)``'s."""

from __future__ import annotations

import dataclasses
import gc
import importlib
import sys
from typing import Any

import pytest

from cosmodeck.engine.events import Event

fast_event = importlib.import_module("cosmodeck.engine.fast_event")

CASES: list[tuple[str, dict[str, Any], Any, frozenset[int], bool]] = [
    ("played", {"seat": 0, "card": "R5", "left": 3}, None, frozenset(), True),
    ("drew", {"seat": 2, "count": 1}, {"cards": ["G7"]}, frozenset({2}), True),
    ("violation", {}, {"why": "late"}, frozenset(), False),
    ("chose", {"seat": 1}, {"action": "pass"}, frozenset({1, 3}), False),
]


def test_the_extension_is_built() -> None:
    assert fast_event.__file__ is not None and not fast_event.__file__.endswith((".py", ".pyx"))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_an_event_built_by_its_slots_is_the_dataclass_event(case: tuple[Any, ...]) -> None:
    kind, data, private, seats, public = case
    got = fast_event.make(kind, data, private, seats, public)
    want = Event(kind, data, private=private, seats=seats, public=public)
    assert type(got) is Event
    assert got == want and repr(got) == repr(want)
    for f in dataclasses.fields(Event):  # each field in its own slot, the very object given
        assert getattr(got, f.name) is getattr(want, f.name)
    assert got.public is public  # a bool, not an int
    for seat in (None, 0, 1, 2, 3):
        assert got.for_seat(seat) == want.for_seat(seat)
    assert got.to_dict() == want.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.type = "other"  # type: ignore[misc]


def test_events_hold_their_fields_and_are_freed() -> None:
    data: dict[str, Any] = {"seat": 0}
    private = {"cards": ["B1"]}
    before = sys.getrefcount(data), sys.getrefcount(private)
    events = [fast_event.make("drew", data, private, frozenset({0}), True) for _ in range(1000)]
    assert sys.getrefcount(data) == before[0] + 1000 and sys.getrefcount(private) == before[1] + 1000
    assert gc.is_tracked(events[0])  # as object.__new__(Event) makes it: a cycle through it is collected
    del events
    assert (sys.getrefcount(data), sys.getrefcount(private)) == before
