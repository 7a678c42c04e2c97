"""The engine's toy real-time game (tests/engine/toy.py), registered for server tests.

It has a timer (``tick``), simultaneous seats and a per-seat ``secret`` in the view: enough to
test deadlines, bots, versions and that no seat ever receives another seat's secret.
"""

from __future__ import annotations

from cosmodeck.api import list_games
from cosmodeck.engine.registry import GameSpec, register
from tests.engine.toy import ToyGame

TOY = "toy"


def register_toy() -> None:
    list_games()  # import the real games first, so the registry is complete
    register(GameSpec(ToyGame, "tests.server", "toy.json"))
