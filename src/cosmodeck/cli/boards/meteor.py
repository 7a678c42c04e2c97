"""Terminal board for Meteor, played in real time.

``render(view, console)`` draws a player view; ``event_lines(events)`` gives one line per
(redacted) event; ``action_help()`` explains the notation; ``play(...)`` runs a whole game on the
host clock (``time.monotonic``): the board supplies ``at=`` and calls ``advance``, the engine
never reads a clock. Input is line based (a reader thread), so it also works when stdin is
not a terminal.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import Console

from cosmodeck.cli.boards.meteor_bot import choose
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.games.meteor.actions import Chat, Emote, Signal
from cosmodeck.textboard.meteor import (
    action_help,
    event_lines,
    render,
    timer_line,
)

__all__ = ["action_help", "event_lines", "play", "render", "timer_line"]


class _Helper:
    """The board's own bot: random, preferring useful moves; reacts in ~1.5 s (log-normal)."""

    name = "random"

    def __init__(self, data: Any) -> None:
        self.data = data

    def act(self, view: Mapping[str, Any], legal: list[Any], rng: Rng) -> Any | None:
        return choose(view, legal, rng, self.data)

    def reaction_time(self, rng: Rng) -> float:
        return rng.lognormal(1.5, 0.5)


def _make_bot(game: Game[Any], name: str) -> Any:
    """A registered bot by name; ``random`` (or an unknown name) gets the board's helper."""
    if name.partition(":")[0].strip() != "random":
        try:
            from cosmodeck.bots.registry import make_bot

            return make_bot(game.id, name, game)
        except (ImportError, ValueError):
            pass
    return _Helper(game.data)


def _reader(out: queue.Queue[str | None]) -> None:
    for line in sys.stdin:
        out.put(line.rstrip("\n"))
    out.put(None)


class _Host:
    """The real-time loop: host clock, bot reaction times, human lines."""

    def __init__(self, state: State, humans: set[int], bots: Mapping[int, Any], rng: Rng, console: Console,
                 clock: Callable[[], float]) -> None:
        self.state, self.humans, self.bots, self.rng, self.console = state, humans, bots, rng, console
        self.clock = clock
        self.plans: dict[int, float] = {}
        self.menu: list[Any] = []
        self.watch = min(humans) if humans else None
        self.shown_second = -1

    def show(self, events: list[Event]) -> None:
        seat = self.watch
        for line in event_lines([d for d in (e.for_seat(seat) for e in events) if d is not None]):
            self.console.print(f"  {line}")
        if any(e.type in ("zone_change", "started") for e in events) and not self.state.is_over:
            render(self.state.view(seat), self.console)

    def tick(self) -> None:
        now = max(self.state.now, self.clock())
        self.show(self.state.advance(now))
        if self.state.is_over:
            return
        view = self.state.view(self.watch)
        left = view["timer"]["remaining"]
        if left is not None and not view["time_out"] and int(left) != self.shown_second:
            self.shown_second = int(left)
            if self.shown_second % 10 == 0 or self.shown_second <= 5:
                self.console.print(timer_line(view))
        for seat, bot in self.bots.items():
            if seat not in self.plans:
                self.plans[seat] = now + max(0.0, bot.reaction_time(self.rng))
            if self.plans[seat] <= now and not self.state.is_over:
                del self.plans[seat]
                action = bot.act(self.state.view(seat), self.state.legal_actions(seat), self.rng)
                if action is not None:
                    self.show(self.state.apply(seat, action, at=now))

    def human(self, text: str) -> bool:
        """Handle a line; ``False`` to quit."""
        text = text.strip()
        seat = self.watch
        if len(text) > 2 and text[0].isdigit() and text[1] == ":":
            seat, text = int(text[0]), text[2:].strip()
        if seat is None or seat not in self.humans:
            self.console.print("[red]no such human seat[/]")
            return True
        if text in ("q", "quit", "exit"):
            return False
        if text in ("v", "view", ""):
            render(self.state.view(seat), self.console)
            return True
        legal = self.state.legal_actions(seat)
        if text in ("?", "list", "help"):
            self.menu = [a for a in legal if not isinstance(a, (Signal, Emote, Chat))] + [
                a for a in legal if isinstance(a, Signal)]
            self.console.print(action_help())
            for i, a in enumerate(self.menu, 1):
                self.console.print(f"  [cyan]{i:>3}[/] {a}")
            return True
        action: Any = self.menu[int(text) - 1] if text.isdigit() and 0 < int(text) <= len(self.menu) else text
        try:
            self.show(self.state.apply(seat, action, at=max(self.state.now, self.clock())))
        except CosmodeckError as e:
            self.console.print(f"[red]{e.message}[/]")
        return True


def play(game: Game[Any], human_seats: set[int], bot_names: dict[int, str], seed: int, console: Console, *,
         clock: Callable[[], float] | None = None, lines: Iterable[str] | None = None,
         sleep: Callable[[float], None] = time.sleep, max_time: float = 3600.0) -> None:
    """Run a whole game in real time: humans type lines, bots act after a reaction time.

    ``clock``, ``lines`` and ``sleep`` let tests drive the loop without waiting.
    """
    players = len(human_seats) + len(bot_names)
    state = game.new_game(players=players, seed=seed)
    t0 = time.monotonic()
    host_clock = clock or (lambda: time.monotonic() - t0)
    rng = Rng(derive_seed(seed, 0xB07))
    bots = {seat: _make_bot(game, name) for seat, name in bot_names.items()}
    host = _Host(state, set(human_seats), bots, rng, console, host_clock)
    console.print(f"Meteor: {players} player(s); you are seat(s) {sorted(human_seats) or 'none'}; "
                  + ", ".join(f"seat {s}: {n}" for s, n in sorted(bot_names.items())))
    render(state.view(host.watch), console)
    if human_seats:
        console.print(action_help())
    inbox: queue.Queue[str | None] = queue.Queue()
    if lines is not None:
        for line in lines:
            inbox.put(line)
    elif human_seats:
        threading.Thread(target=_reader, args=(inbox,), daemon=True).start()
    closed = False
    try:
        while not state.is_over and host_clock() < max_time:
            while not inbox.empty():
                got = inbox.get()
                if got is None:
                    closed = True
                    console.print("(input closed: your seats wait from now on)")
                elif not host.human(got):
                    console.print("Game abandoned.")
                    return
            if closed and state.next_deadline() is None:  # the clock is stopped and only you could start it
                console.print("Game abandoned (input closed and the clock is not running).")
                return
            host.tick()
            sleep(0.05)
    except KeyboardInterrupt:
        console.print("Game abandoned.")
        return
    console.rule("Game over")
    render(state.view(host.watch), console)
