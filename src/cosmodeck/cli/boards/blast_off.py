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
from rich.text import Text

from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State

STYLE = {"O": "bold dark_orange", "G": "bold green", "P": "bold magenta", "R": "bold red", "-": "bold white"}
ARROW = {1: "→ (left)", -1: "← (right)"}
MISSION_VERBS = ("announce", "gesture", "catch")
PROMPTS = ("turn", "drawn_decision", "declare_needed", "choose_needed", "author_needed", "countdown_started")


def _card(name: str, face: str | None = None) -> Text:
    """``O7`` in orange; a Wild with its face: ``W[R4]``; ``BO-G`` in green."""
    letter = name[3] if name.startswith("BO-") else name[0] if name[0] in "OGPR" else "-"
    label = name if face is None or name not in ("W", "CD") or face == "--" else f"{name}[{face}]"
    if name == "W" and face:
        letter = face[0]
    return Text(f" {label} ", style=f"{STYLE.get(letter, 'white')} reverse" if name in ("W", "CD") else
                STYLE.get(letter, "white"))


def render(view: dict[str, Any], console: Console) -> None:
    """Draw the view: turn and direction, the top of the pile, hands, missions, countdown, duties."""
    seat = view.get("seat")
    head = Text(f"Blast Off! · {view.get('phase')} · seat {view.get('turn')} to play · direction "
                f"{ARROW.get(view.get('dir', 1), '?')} · draw pile {view.get('draw_pile')} · "
                f"missions left {view.get('mission_deck')}", style="bold")
    console.print(head)
    top = view.get("top") or {}
    line = Text("Pile: ")
    for c in (view.get("discard") or [])[-6:-1]:
        line.append_text(_card(c["card"], c["face"]))
    line.append(" top ")
    line.append_text(_card(top.get("card", "?"), top.get("face")))
    line.append(f"  face {top.get('face')}")
    console.print(line)
    sizes = view.get("hand_sizes") or []
    seats = Text("Players: ")
    for s, n in enumerate(sizes):
        mark = "▶" if s == view.get("turn") else " "
        place = (view.get("placings") or []).index(s) + 1 if s in (view.get("placings") or []) else None
        txt = f"{mark}{s}{'*' if s == seat else ''}:{'out #' + str(place) if place else n}"
        skips = (view.get("skip_marks") or [0] * len(sizes))[s]
        seats.append(txt + (f" skip×{skips}" if skips else "") + "  ", style="bold" if s == view.get("turn") else "")
    console.print(seats)
    if view.get("hand") is not None:
        hand = Text("Your hand: ")
        for c in view["hand"]:
            hand.append_text(_card(c))
        console.print(hand)
    for m in view.get("missions_in_force") or []:
        console.print(Text(f"Mission {m['id']} {m['name']}: {m['text']}", style="cyan"))
    cd = view.get("countdown")
    if cd:
        console.print(countdown_line(cd))
    for o in view.get("obligations") or []:
        arg = f" {o['expect']}" if o.get("expect") else ""
        console.print(Text(f"You owe: {o['do']} {o['token']}{arg} ({o['mission']})", style="yellow"))
    d = view.get("decision")
    if d:
        console.print(Text(f"Waiting for seat {d['seat']} to {d['kind']}", style="italic"))
    if view.get("drawn"):
        console.print(Text(f"You drew {view['drawn']}: play it or keep it", style="italic"))
    if view.get("over"):
        console.print(Text(f"Game over: {view.get('result')}", style="bold"))


def countdown_line(cd: Mapping[str, Any]) -> Text:
    """``10 9 [8:P2] 7 ...``: filled slots show their player; the called value is highlighted."""
    out = Text(f"COUNTDOWN (rocket: seat {cd['rocket']}): ", style="bold")
    for v in cd["sequence"]:
        if v in cd["slots"]:
            out.append(f"{v}:P{cd['slots'][v]} ", style="green")
        elif v == cd.get("called"):
            out.append(f">{v}< ", style="bold black on yellow")
        elif v in cd["skipped"]:
            out.append(f"{v} ", style="grey42 strike")
        else:
            out.append(f"{v} ", style="white")
    return out


def _line(e: Mapping[str, Any]) -> str | None:
    t = e["type"]
    s = e.get("seat")
    lines: dict[str, Callable[[], str]] = {
        "turn": lambda: f"seat {s}'s turn",
        "played": lambda: f"seat {s} plays {e['card']} (face {e['face']}), {e['left']} left"
                          + (" — the drawn card" if e.get("drawn") else ""),
        "drew": lambda: f"seat {s} draws {e['count']} ({e['reason']})"
                        + (f": {' '.join(e['cards'])}" if e.get("cards") else ""),
        "kept": lambda: f"seat {s} keeps the drawn card",
        "passed": lambda: f"seat {s} passes (nothing to draw)",
        "reshuffled": lambda: f"the discard pile is reshuffled ({e['count']} cards)",
        "countdown_started": lambda: f"COUNTDOWN! seat {s} plays a rocket — from {e['from']}",
        "countdown_called": lambda: f"   ▶ {e['value']}{'  BLAST OFF!' if e['value'] == 'BO' else ''}",
        "slap_accepted": lambda: f"   seat {s} slaps {e['card']} for {e['value']}, {e['left']} left",
        "slap_bounced": lambda: f"   seat {s} is too late for {e['value']}: the card bounces back",
        "value_skipped": lambda: f"   ({e['value']} skipped)",
        "countdown_ended": lambda: "countdown over" + (" — Blast Off!" if e["blast_off"] else ""),
        "declared": lambda: f"seat {s} declares {e['face']}",
        "mission_revealed": lambda: f"NEW MISSION {e['mission']} {e['name']}: {e['text']}",
        "mission_authored": lambda: f"seat {s} writes mission {e['mission']}",
        "no_mission": lambda: "no mission card left",
        "effect": lambda: f"mission {e['mission']}: {e['effect'].replace('_', ' ')}"
                          + (f" → seat {e['target']}" if e.get("target") is not None else ""),
        "turn_skipped": lambda: f"seat {s} loses a turn",
        "announced": lambda: f"seat {s} says {e['token']}{' ' + str(e['arg']) if e.get('arg') else ''}",
        "gestured": lambda: f"seat {s} does {e['token']}",
        "obligation": lambda: f"you must {e['do']} {e['token']} ({e['mission']})",
        "caught": lambda: f"CAUGHT! seat {e['by']} catches seat {e['target']} ({e['mission']}): draw 4",
        "catch_failed": lambda: f"seat {e['by']}'s catch of seat {e['target']} fails",
        "catch_duplicate": lambda: f"seat {e['by']}'s catch of seat {e['target']} was already made",
        "penalized": lambda: f"referee: seat {s} forgot {e['mission']} and draws 4",
        "went_out": lambda: f"seat {s} is out of cards — place {e['place']}",
        "game_over": lambda: f"game over: ranking {e['ranking']}",
        "declare_needed": lambda: f"seat {s} must declare the Wild",
        "choose_needed": lambda: f"seat {s} chooses whom to swap hands with",
        "author_needed": lambda: f"seat {s} writes a new mission",
        "timeout": lambda: f"seat {s} ran out of time",
        "hand": lambda: f"your hand is now {' '.join(e['cards'])}" if e.get("cards") else "",
    }
    f = lines.get(t)
    return f() if f else None


def event_lines(events: list[dict[str, Any]]) -> list[str]:
    """One human line per event worth showing (in order)."""
    return [x for x in (_line(e) for e in events) if x]


def action_help() -> str:
    return ("Actions: play O7 | play BO-G | play CD | play W[R4] | draw | pass | keep | declare R4 | choose 2\n"
            "  countdown: slap O6 6 | slap W 4 | slap BO-R BO | slap W[R2] BO | pass   (shortcut: type the card)\n"
            "  missions: announce HOUSTON | announce COUNT 3 | gesture TAP | catch 1 [M01] | done (turn-based)\n"
            "  a number picks from the list, ? lists legal actions, v shows the board, q quits; "
            "hot seat: '2: play O7'")


# ---- bots and the host loop ---------------------------------------------------------------------


class _Bot:
    """Random turns; slaps an eligible card after its reaction time; keeps most promises."""

    def __init__(self, median_s: float = 0.8, p_forget: float = 0.15) -> None:
        self.median_s, self.p_forget = median_s, p_forget
        self.forgot: set[tuple[str, str]] = set()

    def reaction_time(self, rng: Rng) -> float:
        return rng.lognormal(self.median_s, 0.35)

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
    try:
        while not state.is_over and now_of() < max_time:
            while not inbox.empty():
                got = inbox.get()
                if got is None:
                    console.print("(input closed: your seats wait from now on)")
                elif not host.human(got, now_of()):
                    console.print("Game abandoned.")
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
