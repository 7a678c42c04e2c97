"""Text board for Meteor: a player view drawn with Rich (the terminal client and RL render)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

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
