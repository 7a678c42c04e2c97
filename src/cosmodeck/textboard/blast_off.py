"""Text board for Blast Off!: a player view drawn with Rich (the terminal client and RL render)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

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
