"""The engine's toy real-time game (tests/engine/toy.py), registered for server tests.

It has a timer (``tick``), simultaneous seats and a per-seat ``secret`` in the view: enough to
test deadlines, bots, versions and that no seat ever receives another seat's secret. It is
registered only while a server test runs, so other tests see only the real games.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cosmodeck.api import list_games
from cosmodeck.engine.registry import _REGISTRY, GameSpec, register
from tests.engine.toy import ToyGame

TOY = "toy"


def register_toy() -> None:
    list_games()  # import the real games first, so the registry is complete
    register(GameSpec(ToyGame, "tests.server", "toy.json"))


@contextmanager
def toy_registered() -> Iterator[None]:
    already = TOY in _REGISTRY
    register_toy()
    try:
        yield
    finally:
        if not already:
            _REGISTRY.pop(TOY, None)
