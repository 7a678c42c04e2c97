"""Frozen events emitted by every transition, with per-seat redaction."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Any


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened.

    ``data`` is what everyone may see (when ``public``); ``private`` adds fields that only
    the seats in ``seats`` may see. An event with ``public=False`` is seen only by ``seats``
    (and by nobody when ``seats`` is empty: engine-only facts, e.g. undetected violations).
    """

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[str, JSON] | None = None
    seats: frozenset[int] = frozenset()
    public: bool = True

    def for_seat(self, seat: int | None) -> dict[str, JSON] | None:
        """The event as ``seat`` may see it (``None``: spectator), or ``None`` if hidden."""
        insider = seat is not None and seat in self.seats
        if not self.public and not insider:
            return None
        out: dict[str, JSON] = {"type": self.type, **self.data}
        if insider and self.private:
            out.update(self.private)
        return out

    def to_dict(self) -> dict[str, JSON]:
        """Full (unredacted) form, for hosts, logs and tests."""
        out: dict[str, JSON] = {"type": self.type, **self.data}
        if self.private:
            out.update(self.private)
        return out


def _install_compiled_init() -> bool:
    """``Event(...)`` through ``engine/fast_event.pyx:event_init`` when the extension is built: the generated
    ``__init__``'s fields, defaults and stored objects, each slot written directly (the dataclass sets each
    field through ``object.__setattr__``, as it must for a frozen class: about 0.6 us an event). Every
    rules module builds its events this way. ``tests/engine/test_fast_event.py`` proves the two equal."""
    try:
        from cosmodeck.engine.fast_event import event_init
    except ImportError:  # pragma: no cover - a build without the extension keeps the dataclass's
        return False
    Event.__init__ = event_init  # type: ignore[method-assign]
    return True


COMPILED_INIT = _install_compiled_init()


def redact(events: Iterable[Event], seat: int | None) -> list[dict[str, JSON]]:
    """The events ``seat`` may see, in order."""
    out = []
    for e in events:
        d = e.for_seat(seat)
        if d is not None:
            out.append(d)
    return out
