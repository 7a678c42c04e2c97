"""Terminal board for Shooting Star: the sector as a coloured grid, hands, piles and scores.

``render(view, console)`` draws a player view; ``event_lines(events)`` gives one human line per
(redacted) event for step-by-step display; ``action_help()`` explains the action notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
LEVEL_STYLE = {1: "grey62", 2: "white", 3: "bright_cyan", 4: "bold bright_white"}
COLOURS = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "purple": "magenta"}


def _colour(view: Mapping[str, Any], seat: int) -> str:
    factions = view.get("factions") or []
    colour = factions[seat]["colour"] if 0 <= seat < len(factions) else "white"
    return COLOURS.get(colour, colour)


def _who(view: Mapping[str, Any], seat: int) -> Text:
    factions = view.get("factions") or []
    name = factions[seat]["name"] if 0 <= seat < len(factions) else f"seat {seat}"
    return Text(f"{name} ({seat})", style=f"bold {_colour(view, seat)}")


def _cell_text(view: Mapping[str, Any], cell: Mapping[str, Any] | None) -> Text:
    if cell is None:
        return Text("     ")
    if cell.get("planet") is None:
        return Text("  ·  ", style="grey35")
    if cell["kind"] == "dark":
        t = Text(" D ", style="bold white on grey11")
    else:
        label = f"{cell['level']}{(cell.get('name') or '')[:2]}"
        t = Text(f"{label:<3}", style=LEVEL_STYLE.get(cell["level"], "white"))
    t.append("☾" if cell.get("moons") else " ", style="yellow")
    card = cell.get("card")
    if card is not None:
        colour = _colour(view, card["seat"])
        mark = ARROWS.get(card["orientation"], "?")
        t.append(mark, style=f"bold black on {colour}")
    else:
        t.append(" ")
    return t


def render(view: dict[str, Any], console: Console) -> None:
    """Draw the view: header, sector grid, placed cards, hands, piles, missions, scores."""
    head = Text(f"Turn {view.get('turn')}/{view.get('max_turns')} · phase {view.get('phase')} · Dark Invader: ")
    inv = view.get("invader")
    if isinstance(inv, int):
        head.append_text(_who(view, inv))
    head.append(f" · reserve {view.get('reserve')} · planets left {view.get('planets_left')}")
    console.print(head)
    cells = view.get("grid", {}).get("cells", [])
    if cells:
        x0, y0, x1, y1 = view["grid"]["bounds"]
        by_xy = {(c["x"], c["y"]): c for c in cells}
        table = Table(show_header=True, box=None, padding=(0, 1))
        table.add_column("")
        for x in range(x0, x1 + 1):
            table.add_column(str(x), justify="center")
        for y in range(y0, y1 + 1):
            table.add_row(str(y), *(_cell_text(view, by_xy.get((x, y))) for x in range(x0, x1 + 1)))
        console.print(table)
    else:
        console.print(Text("(the sector is empty)", style="grey50"))
    for p in view.get("placed", []):
        line = Text(f"  #{p['order']} ")
        line.append_text(_who(view, p["seat"]))
        line.append(f" on ({p['cell'][0]},{p['cell'][1]}) {ARROWS.get(p['orientation'], '?')} "
                    f"{p['card'] or 'face down'}")
        console.print(line)
    for h in view.get("hands", []):
        s = h["seat"]
        line = _who(view, s)
        cards = (" ".join(h["cards"]) or "-") if h.get("cards") is not None else f"{h['count']} cards"
        line.append(f"  hand: {cards}  used: {' '.join(h['used']) or '-'}")
        con = view.get("conquest", [[]] * (s + 1))[s]
        deb = view.get("debris", [[]] * (s + 1))[s]
        line.append(f"  conquest {len(con)}  debris {len(deb)}", style="grey70")
        console.print(line)
        for label, pile in (("conquest", con), ("debris", deb)):
            if pile:
                console.print(Text(f"    {label}: {' '.join(pile)}", style="grey62"))
        missions = (view.get("missions") or [None] * (s + 1))[s]
        if missions:
            console.print("    missions: " + "; ".join(mission_text(m) for m in missions))
        if h.get("cards"):
            legend = card_legend(view, h["cards"])
            if legend is not None:
                console.print(legend)
    for ph in view.get("planet_hands") or []:
        line = _who(view, ph["seat"])
        line.append("  planets: " + (" ".join(ph["planets"]) if ph["planets"] is not None else f"{ph['count']}"))
        console.print(line)
    scores = view.get("scores")
    if scores:
        table = Table(title=f"Final scores ({view.get('end_reason')})")
        for col in ("player", "cards", "moons", "missions", "debris bonus", "total", "captured", "moons (tie)"):
            table.add_column(col)
        for s, b in enumerate(scores):
            table.add_row(_who(view, s), str(b["cards"]), str(b["moons"]),
                          " ".join(f"{k}:{v}" for k, v in b["missions"].items()), str(b["debris_bonus"]),
                          str(b["total"]), str(b["captured"]), str(b["moon_count"]))
        console.print(table)
        result = view.get("result") or {}
        if result.get("winners") is not None:
            console.print("Winner(s): " + ", ".join(f"seat {w}" for w in result["winners"]))


NEED_WORDS = {"planets": "planets", "12": '"1/2" planets', "34": '"3/4" planets', "moon": "planets with moons"}


def mission_text(m: Mapping[str, Any]) -> str:
    """``M1-C (1 pt): 3 "1/2" planets`` or ``M3-E (3 pts): Exo + Zero (one: 1, both: 3)``."""
    pts = f"{m['points']} pt{'s' if m['points'] != 1 else ''}"
    if m.get("named"):
        what = " + ".join(m["named"]) + " (one: 1, both: 3)"
    else:
        what = ", ".join(f"{n} {NEED_WORDS.get(k, k)}" for k, n in m.get("need", {}).items())
    return f"{m['id']} ({pts}): {what}"


def card_legend(view: Mapping[str, Any], hand: Sequence[str]) -> Table | None:
    """Each card in hand as a mini-grid with the arrow pointing N: ■ the card, ● a hit."""
    by_id = {c["id"]: c for c in view.get("card_set") or []}
    cards = [by_id[c] for c in hand if c in by_id]
    if not cards:
        return None
    table = Table(box=None, padding=(0, 1), show_header=True, title="your cards (arrow ↑; ■ card, ● hit)",
                  title_justify="left", title_style="grey62")
    for c in cards:
        table.add_column(f"{c['id']}", justify="center")
    rows = []
    for dy in range(-2, 2):
        row = []
        for c in cards:
            hits = {(h[0], h[1]) for h in c["hits"]}
            cells = []
            for dx in range(-1, 2):
                if (dx, dy) == (0, 0):
                    cells.append("◉" if (0, 0) in hits else ("S" if c.get("shield") else "■"))
                else:
                    cells.append("●" if (dx, dy) in hits else "·")
            row.append("".join(cells))
        rows.append(row)
    for row in rows:
        table.add_row(*row)
    return table


def _xy(cell: Sequence[int]) -> str:
    return f"({cell[0]},{cell[1]})"


def _line(e: Mapping[str, Any]) -> str:
    t = e.get("type")
    if t == "place":
        card = f" {e['card']}" if e.get("card") else " a card"
        return f"seat {e['seat']} places{card} face down on {_xy(e['cell'])}, arrow {e['orientation']}"
    if t == "reveal":
        return f"reveal: {e['card']} on {_xy(e['cell'])} {ARROWS.get(e['orientation'], '')}"
    if t == "resolve":
        return f"{e['card']} resolves"
    if t == "miss":
        return f"  {_xy(e['cell'])}: no effect ({e['reason'].replace('_', ' ')})"
    if t == "shield":
        return f"  seat {e['defender']}'s Space Shield on {_xy(e['cell'])} captures {e['card']}"
    if t == "destroy":
        return f"  {e['card']} on {_xy(e['cell'])} is destroyed by seat {e['by']}"
    if t == "flip":
        return f"  {_xy(e['cell'])}: {e['planet']} flips from {e['from']} to {e['to']}"
    if t == "capture":
        how = "isolated" if e["cause"] == "isolation" else "captured"
        return f"  {_xy(e['cell'])}: {e['planet']} {how} by seat {e['seat']} into {e['pile']}"
    if t == "replace":
        return f"  {_xy(e['cell'])}: replaced by {e['planet']} at level 2"
    if t == "to_debris":
        return f"  {e['card']} goes to seat {e['seat']}'s debris ({e['cause'].replace('_', ' ')})"
    if t == "invader":
        return f"the Dark Invader passes to seat {e['seat']}"
    if t == "game_end":
        return "game over: " + ("seven cards played" if e["reason"] == "seven_cards" else "few planets left")
    if t == "missions":
        return f"seat {e['seat']} reveals missions {', '.join(e['ids'])}"
    if t == "score":
        b = e["breakdown"]
        return (f"seat {e['seat']} scores {b['total']} (cards {b['cards']}, moons {b['moons']}, "
                f"missions {sum(b['missions'].values())}, debris bonus {b['debris_bonus']})")
    if t == "place_planet":
        face = "D" if e.get("face") is None else e["face"]
        return f"seat {e['seat']} places planet {e['planet']} on {_xy(e['cell'])} showing {face}"
    if t == "to_reserve":
        what = e.get("planet") or "a Dark Planet"
        return f"seat {e['seat']} cannot place {what}: it goes to the reserve"
    return f"{t}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")


def event_lines(events: list[dict[str, Any]]) -> list[str]:
    """One human line per event, in order."""
    return [_line(e) for e in events]


def action_help() -> str:
    return (
        "Place a Destruction card face down:  place CARD X,Y ARROW   e.g. place P6 1,0 N\n"
        "  CARD is P1..P8 or SH (Space Shield); X grows right, Y grows down; ARROW is N, E, S or W.\n"
        "  Higher priorities resolve first; a hit lowers a planet one level; level 1 or 3 hit = captured.\n"
        "Custom sector only, place a planet:  planet PLANET X,Y FACE   e.g. planet P34-A1 -1,0 4\n"
        "  FACE is the level shown (1-4), or D for a Dark Planet.\n"
        "Type a number to pick from the list, ? to list every legal action, v to redraw, q to quit."
    )
