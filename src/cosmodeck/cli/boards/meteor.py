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
from rich.table import Table
from rich.text import Text

from cosmodeck.cli.boards.meteor_bot import choose
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.games.meteor.actions import Chat, Emote, Signal

ENERGY_STYLE = {"F": "red", "A": "yellow", "S": "green", "E": "blue"}


def _card_text(card: str, full: bool = False) -> Text:
    base = card.split("#", maxsplit=1)[0]
    return Text(card if full else base, style=ENERGY_STYLE.get(base, "bold" if base.startswith("R") else "magenta"))


def _cards(cards: Iterable[str], full: bool = False) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(_card_text(c, full))
    return out


def _meteor(m: Mapping[str, Any]) -> str:
    if not m.get("face_up"):
        kind = "BOSS " if m.get("kind") == "boss" else ""
        return f"{kind}{m['back'][0]}-{m['back'][1]} face down" + (" (hit)" if m.get("hit") else "")
    trait = f" {m['trait']}" if m.get("trait") else ""
    marks = (" shield spent" if m.get("shield_spent") else "") + (f" +{m['store']} stored" if m.get("store") else "")
    return f"{m['id']} size {m['size']}{trait}{marks}"


def timer_line(view: Mapping[str, Any]) -> Text:
    """The sand timer, as one line: zone, seconds left, open volley window."""
    timer = view["timer"]
    now = float(view["now"])
    line = Text(f"Zone {view['zone']} {view['zone_name']}  ", style="bold")
    if view.get("time_out"):
        line.append(f"TIME OUT ({timer['remaining']:.0f} s left)", style="bold yellow")
    elif timer["deadline"] is None:
        line.append("timer not started (host: start)", style="grey50")
    else:
        left = max(0.0, float(timer["deadline"]) - now)
        full = float(timer["length"])
        bar = round(10 * left / full) if full else 0
        style = "red" if left < 10 else "white"
        line.append(f"⏳ {'█' * bar}{'░' * (10 - bar)} {left:4.1f} s", style=style)
    volley = view.get("volley")
    if volley:
        line.append(f"  volley closes in {max(0.0, float(volley['closes']) - now):.1f} s "
                    f"({len(volley['launches'])} rocket(s))", style="bold red")
    line.append(f"  meteors {len(view['field'])} · deck {view['resource_deck']}")
    return line


def render(view: dict[str, Any], console: Console) -> None:
    """Draw the view: timer, field, sites, hands, techs, powers, talk rules."""
    console.print(timer_line(view))
    field = Table(title="Meteor field", box=None, padding=(0, 1), title_justify="left")
    field.add_column("ref")
    field.add_column("meteor")
    for m in view["field"]:
        field.add_row(m["ref"], _meteor(m))
    console.print(field)
    sites = Table(title="Launch sites", box=None, padding=(0, 1), title_justify="left")
    for col in ("site", "name", "cards", "status", "pass"):
        sites.add_column(col)
    for s in view["sites"]:
        status = s["status"] + (f" (needs {s['missing']})" if s.get("missing") else "")
        if s.get("countdown") is not None:
            status += f" launch at {s['countdown']:.1f}"
        sites.add_row(s["site"], s["name"], _cards(s["cards"]), status, "P" if view["passes"][s["seat"]] else "")
    console.print(sites)
    for h in view["hands"]:
        who = "you" if h["seat"] == view.get("seat") else f"seat {h['seat']}"
        line = Text(f"  {who}: {h['count']} cards ")
        if h["cards"] is not None:
            line.append_text(_cards(h["cards"], full=True))
        elif h["known"]:
            line.append("known: ").append_text(_cards(h["known"]))
        console.print(line)
    legend = Text("  cards: ", style="grey62")
    for code, name in (("F", "Fuel 1"), ("A", "Atomic 1"), ("S", "Solar 2"), ("E", "Electric 2")):
        legend.append(f"{code}", style=ENERGY_STYLE[code]).append(f"={name} energy  ", style="grey62")
    legend.append("R..=rocket  T..=technology: place it on a site, then pay its cost with energy", style="grey62")
    console.print(legend)
    if view["techs"]:
        console.print("  techs: " + ", ".join(t["key"] for t in view["techs"]))
    for kind in ("powers", "challenges"):
        cards = []
        for i, p in enumerate(view[kind]):
            if p:
                used = [*p.get("used_game", []), *p.get("used_zone", [])] if kind == "powers" else []
                cards.append(f"{i}:{p['key']}" + (f" (used: {', '.join(used)})" if used else ""))
        if cards:
            console.print(f"  {kind}: " + ", ".join(cards))
    talk = view.get("talk") or {}
    console.print(Text(f"  talk: {'chat allowed' if talk.get('chat') else 'signals and emotes only'}",
                       style="grey62"))
    if view.get("result"):
        res = view["result"]
        console.print(Text(f"Game over: {res['reason']}", style="bold green" if res.get("team_win") else "bold red"))


def _line(e: Mapping[str, Any]) -> str | None:
    t = str(e["type"])
    if t == "placed":
        return f"seat {e['seat']} places {e['card']} on {e['site']}"
    if t == "challenge_discard":
        return f"seat {e['seat']} places {e['card']} blind on {e['site']}: {e['why']}; the card is discarded"
    if t == "rocket_built":
        return f"rocket {e['rocket']} (damage {e['damage']}) built on {e['site']}"
    if t == "tech_built":
        return f"technology {e['key']} completed"
    if t == "retrofit":
        return f"{e['kind']} retrofit on s{e['builder']}: the team draws"
    if t == "drew":
        cards = f": {' '.join(e['cards'])}" if e.get("cards") else ""
        return f"seat {e['seat']} draws {e['count']}{cards}"
    if t == "deal" and e["lost"]:
        return f"{e['lost']} draw(s) lost: the Resource Deck is empty"
    if t == "launch":
        return f"LAUNCH! seat {e['seat']} fires {e['rocket']} ({e['damage']}) at {e['target']}"
    if t == "launch_called":
        return f"seat {e['seat']} calls a launch at {e['target']} (takes effect at {e['due']:.1f})"
    if t == "revealed":
        return f"{e['ref']} revealed: {e['id']} size {e['size']}" + (f" {e['trait']}" if e.get("trait") else "")
    if t == "volley":
        dmg = "" if e["damage"] is None else f" damage {e['damage']}"
        extra = f" ({e['exempt']}: no overkill)" if e.get("exempt") else ""
        return f"volley at {e['target']}:{dmg} -> {e['result'].replace('_', ' ')}{extra}"
    if t == "meteor_removed":
        return f"{e['ref']} ({e['id']}) {'burns up' if e['cause'] == 'burn_up' else 'destroyed'}"
    if t == "meteor_entered":
        return f"a meteor enters the field: {e['ref']}"
    if t == "zone_change":
        return f"ZONE {e['from']} -> {e['to']} ({e['cause'].replace('_', ' ')})"
    if t in ("scorched", "leaky_hold"):
        return f"seat {e['seat']} loses {e['card']} ({t.replace('_', ' ')})"
    if t in ("passed", "signal", "emote", "chat"):
        what = {"passed": "PASS", "signal": f'"{e.get("kind")}!"', "emote": f"*{e.get('kind')}*",
                "chat": f'says "{e.get("text")}"'}[t]
        target = f" {e['target']}" if t == "emote" and e.get("target") else ""
        return f"seat {e['seat']}: {what}{target}"
    if t in ("time_out", "resume"):
        return f"seat {e['seat']}: {'TIME OUT' if t == 'time_out' else 'resume'}"
    if t in ("won", "lost"):
        return "ALL METEORS DESTROYED: the team wins!" if t == "won" else f"IMPACT: the team loses ({e['cause']})"
    if t in ("started", "meteor_mulligan", "timer_flipped", "hand_shown", "power", "project_discarded",
             "countdown_fizzled", "project_dead"):
        return t.replace("_", " ") + "".join(f" {k}={v}" for k, v in e.items() if k in ("seat", "site", "power"))
    return None


def event_lines(events: list[dict[str, Any]]) -> list[str]:
    """One human line per event (quiet bookkeeping events are skipped)."""
    return [line for line in (_line(e) for e in events) if line]


def action_help() -> str:
    return ("Type an action (or its menu number; '?' lists them, 'v' shows the board, 'q' quits; "
            "'N: action' acts for seat N):\n"
            "  place_card R10#2 s1 · discard_project s0 · launch s0 m3 [demolition] [sharpshooter]\n"
            "  pass · signal pass|launch|time_out · emote cheer|groan|gasp|hurry|thumbs_up|thumbs_down\n"
            "  emote point m3 · chat TEXT (after the Satellite) · time_out · resume · start · meteor_mulligan\n"
            "  complete_retrofit s0 · use_power spotter m3|chronometrist|mechanic s0 F#1|courier F#1 p2 · show_hand")


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
    try:
        while not state.is_over and host_clock() < max_time:
            while not inbox.empty():
                got = inbox.get()
                if got is None:
                    console.print("(input closed: your seats wait from now on)")
                elif not host.human(got):
                    console.print("Game abandoned.")
                    return
            host.tick()
            sleep(0.05)
    except KeyboardInterrupt:
        console.print("Game abandoned.")
        return
    console.rule("Game over")
    render(state.view(host.watch), console)
