"""Turns wall-clock moments into ticks for a room's actor.

A room asks for one wake-up at a time (the earliest of its next deadline, its bots' next
moves and its seat takeovers); the actor then calls ``advance`` and moves the bots.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Scheduler:
    """One pending wake-up at a wall-clock time; asking again replaces it."""

    def __init__(self, fire: Callable[[], None]) -> None:
        self._fire = fire
        self._handle: asyncio.TimerHandle | None = None
        self._when: float | None = None
        self._fn: Callable[[], None] | None = None

    @property
    def when(self) -> float | None:
        return self._when

    def at(self, wall: float, fn: Callable[[], None] | None = None) -> None:
        fn = fn or self._fire
        if self._handle is not None and self._when == wall and self._fn is fn:
            return
        self.cancel()
        loop = asyncio.get_running_loop()
        self._when, self._fn = wall, fn
        self._handle = loop.call_later(max(0.0, wall - time.time()), self._run)

    def _run(self) -> None:
        fn = self._fn
        self._handle = self._when = self._fn = None
        if fn is not None:
            fn()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._when = self._fn = None
