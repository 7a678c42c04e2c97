"""The bot protocol and the lazy player view bots receive."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from cosmodeck.engine.rng import Rng


class LazyView(Mapping[str, Any]):
    """A read-only player view computed on first access (a bot that ignores it costs nothing)."""

    __slots__ = ("_make", "_view")

    def __init__(self, make: Callable[[], dict[str, Any]]) -> None:
        self._make = make
        self._view: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._make()
        return self._view

    def resolve(self) -> dict[str, Any]:
        """The view itself (built now if it was not yet): a bot that reads many keys reads them from it."""
        return self._get()

    def __getitem__(self, key: str) -> Any:
        view = self._view
        return (self._get() if view is None else view)[key]

    def get(self, key: str, default: Any = None) -> Any:
        view = self._view
        return (self._get() if view is None else view).get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


class Bot(Protocol):
    """A player program. ``act`` returns one of ``legal``, or ``None`` to wait (real-time games)."""

    name: str

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None: ...

    def reaction_time(self, rng: Rng) -> float:
        """Seconds of thinking before acting in a real-time game."""
        ...

    def call_reaction_time(self, rng: Rng) -> float:
        """Seconds from a newly called signal (``State.cue``, e.g. a countdown value) to the first look
        at it: a human-like reaction time, never below ``bots.reaction.CALL_FLOOR_S``."""
        ...


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:ms=100,iters=50"`` -> ``("ismcts", {"ms": "100", "iters": "50"})``.

    Parameters are separated by ``;`` or ``+`` when the spec sits in a comma-separated list.
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest:
        for part in rest.replace("+", ";").split(";"):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bot parameter {part!r} in {spec!r} is not key=value")
            params[key.strip()] = value.strip()
    return name.strip(), params
