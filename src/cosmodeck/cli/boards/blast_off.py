"""Terminal board for Blast Off!: the pile, your hand, missions, and the live countdown.

``render(view, console)`` draws a player view; ``event_lines(events)`` gives one line per
(redacted) event; ``action_help()`` explains the notation; ``play(...)`` runs a whole game in
real time (host clock ``time.monotonic()``), or, when stdin is not a terminal, on a virtual
clock that waits for each human line.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import Console

from cosmodeck.bots.reaction import CALL_LEVELS, call_reaction
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.textboard.blast_off import (
    MISSION_VERBS,
    PROMPTS,
    action_help,
    event_lines,
    render,
)

__all__ = ["MISSION_VERBS", "PROMPTS", "action_help", "event_lines", "play", "render"]


class _Bot:
    """Random turns; slaps an eligible card after its reaction time; keeps most promises."""

    def __init__(self, median_s: float = 0.8, p_forget: float = 0.15) -> None:
        self.median_s, self.p_forget = median_s, p_forget
        self.forgot: set[tuple[str, str]] = set()

    def reaction_time(self, rng: Rng) -> float:
        return rng.lognormal(self.median_s, 0.35)

    def call_reaction_time(self, rng: Rng) -> float:
        return CALL_LEVELS["normal"].sample(rng)

    def act(self, view: Mapping[str, Any], legal: list[Any], rng: Rng) -> Any | None:
        seat = view["seat"]
        texts = [str(a) for a in legal]
        for o in view.get("obligations") or []:
            key = (o["mission"], o["token"])
            want = f"{o['do']} {o['token']}" + (f" {o['expect']}" if o.get("expect") else "")
            if key not in self.forgot and want in texts:
                if rng.random() < self.p_forget:
                    self.forgot.add(key)
                    continue
                return legal[texts.index(want)]
        if view["phase"] == "RESPONSE":
            return legal[texts.index("done")] if "done" in texts else None
        if view["phase"] == "COUNTDOWN":
            slaps = [a for a, t in zip(legal, texts, strict=True) if t.startswith("slap") and "[" not in t]
            if slaps:
                return slaps[rng.randbelow(len(slaps))]
            return legal[texts.index("pass")] if "pass" in texts and view["timing"] != "realtime" else None
        if view["turn"] != seat:
            return None
        own = [a for a, t in zip(legal, texts, strict=True) if not t.startswith(MISSION_VERBS)]
        if not own:
            return None
        cards = sorted({t.split("[")[0] for t in texts if t.startswith("play")})
        if cards and rng.random() < 0.9:
            pick = cards[rng.randbelow(len(cards))]
            options = [a for a, t in zip(legal, texts, strict=True) if t.split("[")[0] == pick]
            return options[rng.randbelow(len(options))]
        return own[rng.randbelow(len(own))]


def _reader(out: queue.Queue[str | None]) -> None:
    for line in sys.stdin:
        out.put(line.rstrip("\n"))
    out.put(None)


class _Host:
    def __init__(self, state: State, humans: set[int], bots: dict[int, _Bot], rng: Rng, console: Console) -> None:
        self.state, self.humans, self.bots, self.rng, self.console = state, humans, bots, rng, console
        self.watch = min(humans) if humans else None
        self.plans: dict[int, float] = {}
        self.cue: float | None = None  # the countdown call the bots were last planned for
        self.menu: list[Any] = []
        self.auto_prompt = True
        self.asked: set[tuple[int, str, str]] = set()

    def show(self, events: list[Event]) -> None:
        for line in event_lines([d for d in (e.for_seat(self.watch) for e in events) if d is not None]):
            self.console.print(f"  {line}")
        if self.auto_prompt and self.watch is not None and any(
                e.type in PROMPTS and e.data.get("seat") in self.humans for e in events):
            self.prompt(self.watch)

    def prompt(self, seat: int) -> None:
        render(self.state.view(seat), self.console)
        legal = self.state.legal_actions(seat)
        self.menu = [a for a in legal if not str(a).startswith(MISSION_VERBS)]
        if len(self.menu) <= 30:
            self.console.print("  " + "  ".join(f"[cyan]{i}[/] {a}" for i, a in enumerate(self.menu, 1)))

    def bots_due(self, now: float) -> None:
        cue = self.state.cue()
        if cue is not None and cue != self.cue:  # a new call: no bot carries its plan into it (fair bots)
            for seat, bot in self.bots.items():
                delay = call_reaction(bot, self.rng)
                if delay is not None:
                    self.plans[seat] = max(now, cue) + delay
        self.cue = cue
        for seat, bot in self.bots.items():
            if self.state.is_over:
                return
            if seat not in self.plans:
                self.plans[seat] = now + bot.reaction_time(self.rng)
            if self.plans[seat] <= now:
                del self.plans[seat]
                if seat in self.state.to_act:
                    action = bot.act(self.state.view(seat), self.state.legal_actions(seat), self.rng)
                    if action is not None:
                        self.show(self.state.apply(seat, action, at=max(now, self.state.now)))

    def next_bot(self) -> float:
        return min(self.plans.values(), default=float("inf"))

    def human(self, text: str, at: float) -> bool:
        """Handle one typed line at game time ``at``; ``False`` to quit."""
        text, seat = text.strip(), self.watch
        if len(text) > 2 and text[0].isdigit() and text[1] == ":":
            seat, text = int(text[0]), text[2:].strip()
        if seat is None or seat not in self.humans:
            self.console.print("[red]no such human seat[/]")
            return True
        if text in ("q", "quit", "exit"):
            return False
        if text in ("v", "view", ""):
            self.prompt(seat)
            return True
        if text in ("?", "list", "help"):
            self.console.print(action_help())
            self.console.print("  " + "  ".join(str(a) for a in self.state.legal_actions(seat)))
            return True
        action: Any = _shortcut(self.state, text)
        if text.isdigit() and 0 < int(text) <= len(self.menu):
            action = self.menu[int(text) - 1]
        try:
            self.show(self.state.apply(seat, action, at=max(self.state.now, at)))
        except CosmodeckError as e:
            self.console.print(f"[red]{e.message}[/]")
        return True


def _shortcut(state: State, text: str) -> str:
    """A bare card means: slap it for the called value in a countdown, else play it."""
    first = text.split(" ", maxsplit=1)[0]
    if first in ("play", "slap", "draw", "pass", "keep", "declare", "choose", "done", "author") or \
            first in MISSION_VERBS or not text:
        return text
    cd = state.view(None).get("countdown")
    if cd and cd.get("called"):
        return f"slap {text} {cd['called']}"
    return f"play {text}"


def play(game: Game[Any], human_seats: set[int], bot_names: dict[int, str], seed: int, console: Console, *,
         clock: Callable[[], float] | None = None, lines: Iterable[str] | None = None,
         sleep: Callable[[float], None] = time.sleep, max_time: float = 3600.0) -> None:
    """Run a whole game: in real time on a terminal, else on a virtual clock reading lines.

    ``clock``/``lines``/``sleep`` let tests drive the real-time loop without waiting.
    """
    players = len(human_seats) + len(bot_names)
    state = game.new_game(players=players, seed=seed)
    rng = Rng(derive_seed(seed, 0xB07))
    host = _Host(state, set(human_seats), {s: _Bot() for s in bot_names}, rng, console)
    console.print(f"Blast Off!: {players} players; you are seat(s) {sorted(human_seats) or 'none'}; "
                  + ", ".join(f"seat {s}: {n}" for s, n in sorted(bot_names.items())))
    if human_seats:
        console.print(action_help())
    interactive = lines is not None or clock is not None or (sys.stdin.isatty() and console.is_terminal)
    if not interactive or not game.info.real_time:
        _play_virtual(host, console)
    else:
        _play_realtime(host, console, clock, lines, sleep, max_time)
    if state.is_over:
        console.rule("Game over")
        render(state.view(host.watch), console)


def _play_realtime(host: _Host, console: Console, clock: Callable[[], float] | None, lines: Iterable[str] | None,
                   sleep: Callable[[float], None], max_time: float) -> None:
    state = host.state
    t0 = time.monotonic()
    now_of = clock or (lambda: time.monotonic() - t0)
    inbox: queue.Queue[str | None] = queue.Queue()
    if lines is not None:
        for line in lines:
            inbox.put(line)
    elif host.humans:
        threading.Thread(target=_reader, args=(inbox,), daemon=True).start()
    if host.watch is not None:
        host.prompt(host.watch)
    closed = False
    try:
        while not state.is_over and now_of() < max_time:
            while not inbox.empty():
                got = inbox.get()
                if got is None:
                    closed = True
                    console.print("(input closed: your seats wait from now on)")
                elif not host.human(got, now_of()):
                    console.print("Game abandoned.")
                    return
            if closed and state.next_deadline() is None and state.to_act <= host.humans:
                console.print("Game abandoned (input closed and only your seats can move).")
                return
            now = max(state.now, now_of())
            host.show(state.advance(now))
            host.bots_due(now)
            sleep(0.05)
    except KeyboardInterrupt:
        console.print("Game abandoned.")


def _needs_human(host: _Host) -> int | None:
    """A human seat with a decision of its own (a turn, a choice, a countdown value to answer),
    or with a new obligation to answer (it may also just press Enter)."""
    st = host.state
    for seat in sorted(host.humans & st.to_act):
        if any(not str(a).startswith(MISSION_VERBS) for a in st.legal_actions(seat)):
            return seat
        for o in st.view(seat)["obligations"]:
            key = (seat, o["mission"], str(o["deadline"] or o["due_step"]))
            if key not in host.asked:
                host.asked.add(key)
                return seat
    return None


def _play_virtual(host: _Host, console: Console, human_delay: float = 0.6) -> None:
    """No terminal: time is virtual. Each human decision reads one line; a countdown answer
    arrives ``human_delay`` seconds after the call, racing the bots' reaction times."""
    state = host.state
    host.auto_prompt = False
    while not state.is_over:
        seat = _needs_human(host)
        if seat is not None:
            host.watch = seat
            host.prompt(seat)
            try:
                text = console.input(f"seat {seat}> ")
            except EOFError:
                console.print("Game abandoned (input closed).")
                return
            at = state.now + (human_delay if state.view(None)["phase"] == "COUNTDOWN" else 0.0)
            bots_first = min(at, state.next_deadline() or at)
            host.bots_due(state.now)
            while host.next_bot() <= bots_first and not state.is_over:
                host.bots_due(host.next_bot())
            if text.strip() and not state.is_over and not host.human(text, at):
                console.print("Game abandoned.")
                return
            continue
        for bot in host.bots:
            host.plans.setdefault(bot, state.now + host.bots[bot].reaction_time(host.rng))
        deadline = state.next_deadline()
        t = min(host.next_bot(), deadline if deadline is not None else float("inf"))
        if t == float("inf"):
            if not host.bots or not state.to_act:
                console.print("Nobody can act: game stopped.")
                return
            t = state.now + 1.0
        if deadline is not None and deadline <= host.next_bot():
            host.show(state.advance(deadline))
        else:
            host.bots_due(max(t, state.now))
