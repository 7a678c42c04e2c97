"""Launches, volley windows and their resolution: MET-11 to MET-13, rulings R8-R11.

A launch made while no window is open opens one for ``volley_window_s`` (R8); every launch
before it closes joins it. At the close all rockets resolve at one instant, grouped by
target into volleys, in the R9 order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.meteor.actions import Launch, Site
from cosmodeck.games.meteor.rules_meteors import FieldMeteor, enter_field, remove_meteor, reveal

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState

EVASION = {"evasive": 2, "evasive_3": 3}
FRACTURE = {"fracturing": 1, "fracturing_2": 2}


def launch(st: MeteorState, seat: int, a: Launch) -> list[Event]:
    """MET-11.1: the controller launches; Countdown (C11) delays the effect by ``countdown_s``."""
    if a.demolition:
        st.used[seat].append("demolition_expert")
    if a.sharpshooter:
        st.used[seat].append("sharpshooter")
    delay = float(st.game.options["countdown_s"])
    if st.has_challenge(seat, "countdown") and delay > 0:
        cd = {"seat": seat, "site": [a.site.seat, a.site.slot], "target": a.target, "demolition": a.demolition,
              "sharpshooter": a.sharpshooter, "at": st.now, "due": st.now + delay}
        st.countdowns.append(cd)
        return [Event("launch_called", {"seat": seat, "site": str(a.site), "target": a.target, "due": cd["due"]})]
    return issue(st, seat, a.site, a.target, a.demolition, a.sharpshooter)


def issue(st: MeteorState, seat: int, site: Site, target: str, demolition: bool, sharpshooter: bool) -> list[Event]:
    """The rocket and its energy leave the site and join (or open) the volley window (R8)."""
    from cosmodeck.games.meteor.rules_zones import settle

    # The rocket leads the launch whatever order its cards were placed in (energy may come first).
    cards = sorted(st.sites[site.seat][site.slot], key=lambda c: not st.data.resources[c].is_rocket)
    st.sites[site.seat][site.slot] = []
    st.built[site.seat][site.slot] = False
    entry = {"seat": seat, "site": [site.seat, site.slot], "cards": cards, "target": target,
             "demolition": demolition, "sharpshooter": sharpshooter, "at": st.now}
    window = float(st.game.options["volley_window_s"])
    if st.window is None:
        st.window = {"opened": st.now, "closes": st.now + window, "launches": [entry]}
    else:
        st.window["launches"].append(entry)
    rocket = st.data.resources[cards[0]]
    events = [Event("launch", {"seat": seat, "site": str(site), "rocket": rocket.base, "card": rocket.id,
                               "damage": rocket.damage, "energy": cards[1:], "target": target, "demolition": demolition,
                               "sharpshooter": sharpshooter, "closes": st.window["closes"]})]
    if st.window["closes"] <= st.now:  # volley_window_s = 0: each launch resolves alone, at once
        ev, demand = resolve_window(st)
        events.extend(ev)
        events.extend(settle(st, demand, "overkill"))
    return events


def countdown_due(st: MeteorState) -> list[Event]:
    """Countdown launches due now take effect; if the target is gone, the rocket stays built."""
    events: list[Event] = []
    due = [cd for cd in st.countdowns if cd["due"] <= st.now]
    for cd in due:
        if st.outcome is not None:
            break
        st.countdowns.remove(cd)
        site = Site(int(cd["site"][0]), int(cd["site"][1]))
        seat = int(cd["seat"])
        if st.meteor(str(cd["target"])) is None:
            for flag, power in (("demolition", "demolition_expert"), ("sharpshooter", "sharpshooter")):
                if cd[flag] and power in st.used[seat]:
                    st.used[seat].remove(power)
            events.append(Event("countdown_fizzled", {"seat": seat, "site": str(site), "target": cd["target"]}))
            continue
        events.extend(issue(st, seat, site, str(cd["target"]), bool(cd["demolition"]), bool(cd["sharpshooter"])))
    return events


def resolve_window(st: MeteorState) -> tuple[list[Event], int]:
    """Close the window and resolve every volley at one instant (R9 steps 1-4).

    Returns the events and the zone changes demanded by Overkills (0, 1 or 2, R10); the
    victory check and the change itself are the caller's (``rules_zones.settle``).
    """
    assert st.window is not None
    launches: list[dict[str, Any]] = st.window["launches"]
    st.window = None
    by_ref: dict[str, list[dict[str, Any]]] = {}
    for entry in launches:
        by_ref.setdefault(entry["target"], []).append(entry)
    targets = [fm for fm in st.field if fm.ref in by_ref]
    events = [Event("window_closed", {"launches": len(launches), "targets": [fm.ref for fm in targets]})]
    for fm in targets:  # R9.1: reveal first, then on-reveal effects
        events.extend(reveal(st, fm, "hit"))
    demand = 0
    destroyed: list[FieldMeteor] = []
    for fm in targets:
        ev, overkill, gone = _volley(st, fm, by_ref[fm.ref])
        events.extend(ev)
        if gone:
            destroyed.append(fm)
        demand = max(demand, overkill)
    for fm in destroyed:
        events.extend(remove_meteor(st, fm, "destroyed"))
    for fm in sorted(destroyed, key=lambda m: m.id):  # R9.4: Fracturing in meteor-id order
        for _ in range(FRACTURE.get(st.data.meteors[fm.id].trait or "", 0)):
            if st.meteor_deck:
                events.extend(enter_field(st, st.meteor_deck.pop()))
    return events, demand


def _volley(st: MeteorState, fm: FieldMeteor, entries: list[dict[str, Any]]) -> tuple[list[Event], int, bool]:
    """One volley (R9.2): Shielded, Dense, Evasive, D vs S, Overkill exemptions; then the cards."""
    card = st.data.meteors[fm.id]
    trait = card.trait or ""
    fm.hit = True
    rockets = [st.data.resources[e["cards"][0]] for e in entries]
    counted = [(e, r) for e, r in zip(entries, rockets, strict=True) if not (trait == "dense" and r.damage == 1)]
    size = card.size_in(st.zone)
    damage: int | None = None
    overkill = 0
    exempt = ""
    if trait == "shielded" and not fm.shield_spent:
        fm.shield_spent = True
        result = "shielded"
    elif len(counted) < EVASION.get(trait, 1):
        result = "evaded"
    else:
        damage = sum(r.damage + (1 if e["demolition"] else 0) for e, r in counted) + fm.store
        if damage < size:
            result = "no_effect"
        elif damage == size:
            result = "destroyed"
        elif trait == "brittle":
            result, exempt = "destroyed", "brittle"
        elif damage == size + 1 and st.has_tech("overkill_by_one_is_safe"):
            result, exempt = "destroyed", "guidance_computer"
        elif any(e["sharpshooter"] for e in entries):
            result, exempt = "destroyed", "sharpshooter"
        else:
            result = "overkill"
            overkill = 2 if trait == "volatile" else 1
    salvaged: list[str] = []
    tucked: list[str] = []
    stored = 0
    for e, r in zip(entries, rockets, strict=True):
        rocket_id, energy = e["cards"][0], e["cards"][1:]
        st.discard.extend(energy)
        if result in ("destroyed", "overkill"):
            st.discard.append(rocket_id)
        elif st.has_power(int(e["seat"]), "salvager"):
            st.give_to_hand(int(e["seat"]), rocket_id, public=True)
            salvaged.append(rocket_id)
        elif trait == "cracked" and result == "no_effect":
            fm.tucked.append(rocket_id)
            tucked.append(rocket_id)
            if (e, r) in counted:
                stored += r.damage + (1 if e["demolition"] else 0)
        else:
            st.discard.append(rocket_id)
    fm.store += stored
    data: dict[str, Any] = {"target": fm.ref, "rockets": [r.id for r in rockets],
                            "seats": [int(e["seat"]) for e in entries], "damage": damage, "result": result,
                            "exempt": exempt, "salvaged": salvaged, "tucked": tucked, "stored": stored}
    if fm.up or result in ("destroyed", "overkill"):
        data["size"] = size
    return [Event("volley", data)], overkill, result in ("destroyed", "overkill")
