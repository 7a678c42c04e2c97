"""A search bot (ISMCTS) thinks in a worker thread, off the event loop, so that a long search in one
room does not stall every other room; its moves still land and the game goes on to the end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.engine.rng import Rng
from tests.server.util import create_room, room_info


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_ismcts_thinks_off_the_event_loop(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    act = ISMCTSBot.act

    def spy(self: ISMCTSBot, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        seen.append(_on_event_loop())
        return act(self, view, legal, rng)

    monkeypatch.setattr(ISMCTSBot, "act", spy)
    r = create_room(server, "shooting-star", 2, bots={"0": "ismcts:iters=5", "1": "random"})
    deadline = time.monotonic() + 120
    while room_info(server, r["room"])["status"] != "over":
        assert time.monotonic() < deadline, "the game with an ISMCTS bot did not finish"
        time.sleep(0.2)
    assert seen and not any(seen), seen
