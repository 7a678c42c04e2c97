"""Validation of a saved Meteor state core before it is loaded (issue 13).

Schema and types of every field, ranges, ids known to the card data, the census (every
Resource card, meteor, Power and Challenge exactly once, in a zone the rules allow) and the
cross-field facts the rules keep (slots and Twin Pads, built sites and their cards, known cards
inside the hand, Powers and Challenges by difficulty, timers by phase).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game
    from cosmodeck.games.meteor.cards import MeteorData
    from cosmodeck.games.meteor.state import MeteorState

KEYS = ("phase", "deck", "hands", "known", "sites", "built", "discard", "techs", "meteor_deck", "boss_box",
        "removed", "next_ref", "zone", "timer_end", "paused", "window", "countdowns", "passes", "powers",
        "challenges", "power_box", "challenge_box", "used", "zone_used", "last_place", "mulligan_used", "outcome",
        "field")
FIELD_KEYS = ("ref", "id", "up", "shield_spent", "store", "tucked", "hit")
LAUNCH_KEYS = ("seat", "site", "cards", "target", "demolition", "sharpshooter", "at")
COUNTDOWN_KEYS = ("seat", "site", "target", "demolition", "sharpshooter", "at", "due")
OUTCOME_KEYS = ("win", "cause", "zone", "meteors_left", "at")
ONCE_PER_GAME = ("spotter", "chronometrist", "demolition_expert", "sharpshooter")
ONCE_PER_ZONE = ("mechanic", "courier")


def validate_core(game: Game[Any], players: int, raw: Any, now: float) -> None:
    data: MeteorData = game.data
    n = players
    core = V.obj(raw, "core", KEYS)
    res = set(data.resources)
    mets = set(data.meteors)
    V.one_of(core["phase"], "core.phase", ("setup", "play"))
    for k in ("deck", "discard", "techs"):
        V.ids(core[k], f"core.{k}", res)
    V.ids(core["meteor_deck"], "core.meteor_deck", set(data.standard_ids))
    V.ids(core["boss_box"], "core.boss_box", set(data.boss_ids))
    for i, t in enumerate(core["techs"]):
        if not data.resources[t].is_tech:
            V.fail(f"core.techs[{i}]", f"{t} is not a technology", V.CENSUS)
    hands = V.seq(core["hands"], "core.hands", n)
    known = V.seq(core["known"], "core.known", n)
    for s in range(n):
        V.ids(hands[s], f"core.hands[{s}]", res)
        V.ids(known[s], f"core.known[{s}]", res)
        if Counter(known[s]) - Counter(hands[s]):
            V.fail(f"core.known[{s}]", "names cards that are not in that hand", V.INCONSISTENT)
    _powers(core, data, n)
    _sites(core, data, n)
    next_ref = V.integer(core["next_ref"], "core.next_ref", 1, 10_000)
    zone = V.one_of(core["zone"], "core.zone", tuple(data.zones))
    refs: set[str] = set()
    field_ids: list[str] = []
    tucked_all: list[str] = []
    for i, fm in enumerate(V.seq(core["field"], "core.field")):
        f = f"core.field[{i}]"
        V.obj(fm, f, FIELD_KEYS)
        _ref(fm["ref"], f"{f}.ref", next_ref, refs)
        mid = V.card_id(fm["id"], f"{f}.id", mets)
        card = data.meteors[mid]
        field_ids.append(mid)
        up = V.boolean(fm["up"], f"{f}.up")
        if up and card.trait == "stealth":
            V.fail(f"{f}.up", "a Stealth meteor is never face up", V.INCONSISTENT)
        if V.boolean(fm["shield_spent"], f"{f}.shield_spent") and card.trait != "shielded":
            V.fail(f"{f}.shield_spent", "only a Shielded meteor has a shield", V.INCONSISTENT)
        V.boolean(fm["hit"], f"{f}.hit")
        store = V.integer(fm["store"], f"{f}.store", 0, 1000)
        tucked = V.ids(fm["tucked"], f"{f}.tucked", res)
        if (store or tucked) and card.trait != "cracked":
            V.fail(f, "only a Cracked meteor stores damage or holds rockets", V.INCONSISTENT)
        for j, r in enumerate(tucked):
            if not data.resources[r].is_rocket:
                V.fail(f"{f}.tucked[{j}]", f"{r} is not a rocket", V.CENSUS)
        tucked_all.extend(tucked)
    removed_ids: list[str] = []
    for i, r in enumerate(V.seq(core["removed"], "core.removed")):
        f = f"core.removed[{i}]"
        V.obj(r, f, ("ref", "id", "cause", "zone"))
        _ref(r["ref"], f"{f}.ref", next_ref, refs)
        removed_ids.append(V.card_id(r["id"], f"{f}.id", mets))
        V.string(r["cause"], f"{f}.cause")
        V.one_of(r["zone"], f"{f}.zone", tuple(data.zones))
    launched = _window(core, data, n)
    _countdowns(core, n)
    _times(core, n, now)
    V.census([*core["deck"], *(c for h in hands for c in h), *(c for seat in core["sites"] for sl in seat for c in sl),
              *core["discard"], *core["techs"], *tucked_all, *launched],
             dict.fromkeys(data.resource_order, 1), "resource card")
    V.census([*core["meteor_deck"], *core["boss_box"], *field_ids, *removed_ids], dict.fromkeys(data.meteors, 1),
             "meteor")
    passes = V.seq(core["passes"], "core.passes", n)
    for s in range(n):
        V.boolean(passes[s], f"core.passes[{s}]")
    V.boolean(core["mulligan_used"], "core.mulligan_used")
    out = core["outcome"]
    if out is not None:
        V.obj(out, "core.outcome", OUTCOME_KEYS)
        V.boolean(out["win"], "core.outcome.win")
        V.string(out["cause"], "core.outcome.cause")
        V.one_of(out["zone"], "core.outcome.zone", tuple(data.zones))
        V.integer(out["meteors_left"], "core.outcome.meteors_left", 0, len(data.meteors))
        V.number(out["at"], "core.outcome.at", 0.0)
    if core["phase"] == "setup":
        if core["timer_end"] is not None or core["window"] is not None or core["countdowns"] or out is not None:
            V.fail("core.phase", "in set-up no timer runs, no rocket is launched and the game is not over",
                   V.INCONSISTENT)
        if zone != max(data.zones):
            V.fail("core.zone", f"set-up happens in zone {max(data.zones)}", V.INCONSISTENT)
    elif out is None and not core["field"]:
        V.fail("core.field", "an empty field during play is a won game (MET-14.2), but outcome is null",
               V.INCONSISTENT)
    elif out is None and core["timer_end"] is None:
        V.fail("core.timer_end", "a zone timer runs during play", V.INCONSISTENT)


def validate_loaded(st: MeteorState) -> None:
    """Checks that need the rules' helpers on the built state: built sites hold a built rocket."""
    from cosmodeck.games.meteor.rules_sites import split

    for s in range(st.players):
        for k, cards in enumerate(st.sites[s]):
            if st.built[s][k]:
                _energy, rockets, techs = split([st.data.resources[c] for c in cards])
                if len(rockets) != 1 or techs:
                    V.fail(f"core.built[{s}][{k}]", "a built site holds one rocket and its energy",
                           V.INCONSISTENT)


def _ref(value: Any, field: str, next_ref: int, seen: set[str]) -> None:
    ref = V.string(value, field)
    if not (ref.startswith("m") and ref[1:].isdigit() and ref[1:] == str(int(ref[1:]))
            and 1 <= int(ref[1:]) < next_ref):
        V.fail(field, f"{ref!r} is not a meteor handle m1..m{next_ref - 1}", V.RANGE)
    if ref in seen:
        V.fail(field, f"handle {ref} is used twice", V.CENSUS)
    seen.add(ref)


def _powers(core: dict[str, Any], data: MeteorData, n: int) -> None:
    # Set-up deals one of each per seat at advanced/expert (R16); a position may give any seat one or none
    # (the rules engine handles both), so only the cards themselves are checked here.
    for key, box, table in (("powers", "power_box", data.powers), ("challenges", "challenge_box", data.challenges)):
        dealt = V.seq(core[key], f"core.{key}", n)
        for s, p in enumerate(dealt):
            if p is not None:
                V.card_id(p, f"core.{key}[{s}]", set(table))
        V.ids(core[box], f"core.{box}", set(table))
        V.census([p for p in dealt if p is not None] + core[box], dict.fromkeys(table, 1), key[:-1])
    for key, allowed in (("used", ONCE_PER_GAME), ("zone_used", ONCE_PER_ZONE)):
        rows = V.seq(core[key], f"core.{key}", n)
        for s in range(n):
            for j, u in enumerate(V.seq(rows[s], f"core.{key}[{s}]", max_len=len(allowed))):
                V.one_of(u, f"core.{key}[{s}][{j}]", allowed)
                pid = core["powers"][s]
                if pid is None or data.powers[pid] != u:
                    V.fail(f"core.{key}[{s}][{j}]", f"seat {s} does not have the power {u}", V.INCONSISTENT)
            if len(set(rows[s])) != len(rows[s]):
                V.fail(f"core.{key}[{s}]", "a power is marked used twice", V.INCONSISTENT)


def _sites(core: dict[str, Any], data: MeteorData, n: int) -> None:
    res = set(data.resources)
    sites = V.seq(core["sites"], "core.sites", n)
    built = V.seq(core["built"], "core.built", n)
    for s in range(n):
        pid = core["powers"][s]
        slots = 2 if pid is not None and data.powers[pid] == "twin_pads" else 1
        V.seq(sites[s], f"core.sites[{s}]", slots)
        V.seq(built[s], f"core.built[{s}]", slots)
        for k in range(slots):
            cards = V.ids(sites[s][k], f"core.sites[{s}][{k}]", res)
            if V.boolean(built[s][k], f"core.built[{s}][{k}]") and not cards:
                V.fail(f"core.built[{s}][{k}]", "an empty site is not built", V.INCONSISTENT)


def _site(value: Any, field: str, core: dict[str, Any], n: int) -> None:
    pair = V.ints(value, field, length=2)
    s = V.integer(pair[0], f"{field}[0]", 0, n - 1)
    V.integer(pair[1], f"{field}[1]", 0, len(core["sites"][s]) - 1)


def _window(core: dict[str, Any], data: MeteorData, n: int) -> list[str]:
    w = core["window"]
    if w is None:
        return []
    V.obj(w, "core.window", ("opened", "closes", "launches"))
    opened = V.number(w["opened"], "core.window.opened", 0.0)
    if V.number(w["closes"], "core.window.closes", 0.0) < opened:
        V.fail("core.window.closes", "a window closes after it opens", V.INCONSISTENT)
    cards: list[str] = []
    for i, e in enumerate(V.seq(w["launches"], "core.window.launches")):
        f = f"core.window.launches[{i}]"
        V.obj(e, f, LAUNCH_KEYS)
        V.integer(e["seat"], f"{f}.seat", 0, n - 1)
        _site(e["site"], f"{f}.site", core, n)
        got = V.ids(e["cards"], f"{f}.cards", set(data.resources))
        if not got or not data.resources[got[0]].is_rocket or any(not data.resources[c].is_energy for c in got[1:]):
            V.fail(f"{f}.cards", "a launch is a rocket (first) and its energy", V.INCONSISTENT)
        V.string(e["target"], f"{f}.target")
        V.boolean(e["demolition"], f"{f}.demolition")
        V.boolean(e["sharpshooter"], f"{f}.sharpshooter")
        V.number(e["at"], f"{f}.at", 0.0)
        cards.extend(got)
    if not w["launches"]:
        V.fail("core.window.launches", "an open window holds at least one launch", V.INCONSISTENT)
    return cards


def _countdowns(core: dict[str, Any], n: int) -> None:
    for i, cd in enumerate(V.seq(core["countdowns"], "core.countdowns")):
        f = f"core.countdowns[{i}]"
        V.obj(cd, f, COUNTDOWN_KEYS)
        V.integer(cd["seat"], f"{f}.seat", 0, n - 1)
        _site(cd["site"], f"{f}.site", core, n)
        V.string(cd["target"], f"{f}.target")
        V.boolean(cd["demolition"], f"{f}.demolition")
        V.boolean(cd["sharpshooter"], f"{f}.sharpshooter")
        if V.number(cd["due"], f"{f}.due", 0.0) < V.number(cd["at"], f"{f}.at", 0.0):
            V.fail(f"{f}.due", "a countdown is due after it is called", V.INCONSISTENT)


def _times(core: dict[str, Any], n: int, now: float) -> None:
    if core["timer_end"] is not None:
        V.number(core["timer_end"], "core.timer_end", 0.0)
    p = core["paused"]
    if p is not None:
        V.obj(p, "core.paused", ("by", "at"))
        V.integer(p["by"], "core.paused.by", 0, n - 1)
        V.number(p["at"], "core.paused.at", 0.0, now)
    last = V.seq(core["last_place"], "core.last_place", n)
    for s in range(n):
        if last[s] is not None:
            V.number(last[s], f"core.last_place[{s}]")
