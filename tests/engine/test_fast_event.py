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


def _by_dataclass(*args: Any, **kwargs: Any) -> Event:
    """An event made by the dataclass's own generated ``__init__`` (what ``Event(...)`` was before)."""
    e = object.__new__(Event)
    fast_event._DATACLASS_INIT(e, *args, **kwargs)
    return e


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("turn",), {}),
    (("turn", {"seat": 1}), {}),
    (("drew", {"seat": 2}), {"private": {"cards": ["G7"]}, "seats": frozenset({2})}),
    (("x",), {"data": {"k": 1}, "public": False}),
    (("x", {"k": 1}, None, frozenset({0}), 0), {}),  # stored as given, as the dataclass does (no bool())
    ((), {"type": "y", "data": None, "private": [], "seats": frozenset(), "public": True}),
]


def test_event_is_built_by_the_compiled_init() -> None:
    from cosmodeck.engine import events

    assert events.COMPILED_INIT and Event.__init__ is fast_event.event_init


@pytest.mark.parametrize("call", CALLS, ids=range(len(CALLS)))
def test_the_compiled_init_stores_what_the_dataclass_init_stores(call: tuple[Any, ...]) -> None:
    args, kwargs = call
    got, want = Event(*args, **kwargs), _by_dataclass(*args, **kwargs)
    assert got == want and repr(got) == repr(want)
    for f in dataclasses.fields(Event):
        a, b = getattr(got, f.name), getattr(want, f.name)
        assert type(a) is type(b) and (a is b or f.name == "data")
    assert dataclasses.replace(got, type="z") == dataclasses.replace(want, type="z")


def test_the_compiled_init_defaults() -> None:
    a, b = Event("t"), Event("t")
    assert a.data == {} and a.data is not b.data  # a new dict each time, as ``default_factory=dict``
    assert a.seats is Event.__dataclass_fields__["seats"].default and a.private is None and a.public is True
    with pytest.raises(TypeError):
        Event()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Event("t", colour="red")  # type: ignore[call-arg]


def test_init_called_again_releases_the_old_fields() -> None:
    first: dict[str, Any] = {"k": 1}
    e = Event("t", first)
    held = sys.getrefcount(first)
    e.__init__("u", {"k": 2})  # type: ignore[misc]
    assert e == _by_dataclass("u", {"k": 2}) and sys.getrefcount(first) == held - 1


def test_a_subclass_is_built_by_the_dataclass_init() -> None:
    class Noted(Event):  # no __init__ of its own, a slot more: the compiled init leaves it to the dataclass's
        __slots__ = ("note",)

    t = Noted("turn", {"seat": 0}, seats=frozenset({0}))
    assert (t.type, t.data, t.private, t.seats, t.public) == ("turn", {"seat": 0}, None, frozenset({0}), True)
    object.__setattr__(t, "note", "n")
    assert t.note == "n" and t.type == "turn"
