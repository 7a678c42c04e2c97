"""Bounds on the bots a room may ask for, and each room's CPU budget for search bots.

Every bot parameter is already finite and capped by the registry (``bots/params.py``); a server
caps a search further (``bot_max_iters``, ``bot_max_ms``). While a game runs, the CPU seconds
that a room's search bots spend thinking are counted (the worker thread's own CPU time) against
a budget that refills with wall time: ``bot_cpu_burst_s`` at most, ``bot_cpu_rate`` CPU seconds
per second. A search bot whose room has spent its budget makes a cheap move instead (the
game's heuristic, or a random legal move) until the budget has refilled.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from cosmodeck.bots.base import Bot
from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.bots.registry import make_bot, sees_state
from cosmodeck.engine.game import Game
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.protocol import ProtocolError

T = TypeVar("T")


def check_bot(game: Game[Any], spec: str, cfg: ServerConfig) -> Bot:
    """The bot ``spec`` names, if the server allows it; ``bad_bot`` otherwise."""
    try:
        bot = make_bot(game.id, spec, game)
    except ValueError as e:
        raise ProtocolError("bad_bot", str(e)) from None
    if sees_state(bot):
        raise ProtocolError("bad_bot", f"{spec!r} sees every hidden card: it is a bound for simulation only, "
                                       "never a player in a room")
    if isinstance(bot, ISMCTSBot):
        if bot.iters is not None and bot.iters > cfg.bot_max_iters:
            raise ProtocolError("bad_bot", f"{spec!r}: this server allows at most iters={cfg.bot_max_iters}")
        if bot.ms is not None and bot.ms > cfg.bot_max_ms:
            raise ProtocolError("bad_bot", f"{spec!r}: this server allows at most ms={cfg.bot_max_ms:g}")
    return bot


class CpuBudget:
    """A token bucket of CPU seconds for one room's search bots."""

    def __init__(self, burst_s: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst_s = burst_s
        self.rate = rate
        self._clock = clock
        self._level = burst_s
        self._at = clock()
        self._lock = threading.Lock()
        self._cheap: dict[int, Bot] = {}
        self.spent_s = 0.0  # CPU seconds spent in total (for logs and tests)

    def _refill(self) -> None:
        now = self._clock()
        self._level = min(self.burst_s, self._level + (now - self._at) * self.rate)
        self._at = now

    def available(self) -> bool:
        """May a search bot think now? (Some budget is left.)"""
        with self._lock:
            self._refill()
            return self._level > 0.0

    def charge(self, cpu_s: float) -> None:
        with self._lock:
            self._refill()
            self._level -= cpu_s
            self.spent_s += cpu_s

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Call ``fn(*args)`` in this thread and charge the CPU time it used."""
        start = time.thread_time()
        try:
            return fn(*args)
        finally:
            self.charge(time.thread_time() - start)

    def cheap(self, seat: int, bot: Bot) -> Bot:
        """``bot`` itself, unless it is a search: then the cheap bot that moves for it over budget."""
        if not isinstance(bot, ISMCTSBot):
            return bot
        if seat not in self._cheap:
            try:
                self._cheap[seat] = make_bot(bot.game.id, "heuristic", bot.game)
            except ValueError:  # no heuristic for this game
                self._cheap[seat] = make_bot(bot.game.id, "random", bot.game)
        return self._cheap[seat]
