"""Altitude zones, sand timers, draws, Pass and Time Out: MET-3 to MET-6, MET-14, R10-R13, R18.

The host is the Timekeeper (MET-3.5): the zone timer is a deadline in the state, and
``fire`` handles every deadline due at ``st.now`` in the MET-D2 order: a volley window
closes first, then the zone timer expires, then Countdown launches take effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState


def deal(st: MeteorState, order: Sequence[int], quotas: Mapping[int, int], reason: str) -> list[Event]:
    """Deal one card at a time round-robin in ``order`` until each seat has its quota (R18).

    Draws that an empty Resource Deck cannot serve are lost (MET-6.1).
    """
    got = dict.fromkeys(order, 0)
    drawn: dict[int, list[str]] = {s: [] for s in order}
    sequence: list[int] = []
    lost = 0
    while True:
        progress = False
        for s in order:
            if got[s] < quotas.get(s, 0):
                got[s] += 1
                progress = True
                if st.deck:
                    card = st.deck.pop()
                    st.hands[s].append(card)
                    drawn[s].append(card)
                    sequence.append(s)
                else:
                    lost += 1
        if not progress:
            break
    events = [Event("deal", {"reason": reason, "order": sequence, "lost": lost, "deck": len(st.deck)})]
    for s in order:
        if drawn[s]:
            events.append(st.hand_event("drew", s, {"seat": s, "count": len(drawn[s]), "reason": reason},
                                        drawn[s]))
    return events


def draws_per_change(st: MeteorState, seat: int) -> int:
    """MET-4.1 step 4: the chart's draw, plus Research Laboratory and Quartermaster (R18)."""
    n = st.data.chart[st.players].draw_per_change
    if st.has_tech("extra_draw_per_zone_change"):
        n += 1
    if st.has_power(seat, "quartermaster"):
        n += 1
    return n


def zone_change(st: MeteorState, demand: int, cause: str) -> list[Event]:
    """``demand`` full MET-4 changes (R10); in Zone 1 a change is the defeat (MET-4.2, MET-14.3)."""
    from cosmodeck.games.meteor.rules_meteors import remove_meteor

    events: list[Event] = []
    for i in range(demand):
        why = cause if i == 0 else "volatile_overkill"
        if st.zone == 1:
            events.extend(st.finish(False, why))
            return events
        old = st.zone
        st.zone -= 1
        st.timer_end = st.now + float(st.game.options["zone_timer_s"])
        events.append(Event("zone_change", {"from": old, "to": st.zone, "cause": why, "deadline": st.timer_end}))
        seats = list(range(st.players))
        events.extend(deal(st, seats, {s: draws_per_change(st, s) for s in seats}, "zone_change"))
        st.passes = [False] * st.players
        st.zone_used = [[] for _ in seats]
        if st.zone == 2:
            for fm in [m for m in st.field if st.data.meteors[m.id].trait == "burn_up"]:
                events.extend(remove_meteor(st, fm, "burn_up"))
        for s in seats:
            if st.has_challenge(s, "leaky_hold") and st.hands[s]:
                card = st.hands[s][st.rng.randbelow(len(st.hands[s]))]
                st.take_from_hand(s, card)
                st.discard.append(card)
                events.append(Event("leaky_hold", {"seat": s, "card": card}))
        if not st.field:
            events.extend(st.finish(True, "field_cleared"))
            return events
    return events


def settle(st: MeteorState, demand: int, cause: str) -> list[Event]:
    """After a resolution: victory first (MET-14.2), else the merged zone change (R9 steps 5-6)."""
    if st.outcome is not None:
        return []
    if not st.field:
        return st.finish(True, "field_cleared")
    if demand:
        return zone_change(st, demand, cause)
    return []


def fire(st: MeteorState) -> list[Event]:
    """Every deadline due at ``st.now``: window close, then timer expiry (R11), then Countdowns."""
    from cosmodeck.games.meteor.rules_volleys import countdown_due, resolve_window

    events: list[Event] = []
    timer_due = st.timer_end is not None and st.timer_end <= st.now
    demand, cause = 0, ""
    if st.window is not None and (st.window["closes"] <= st.now or timer_due):
        ev, demand = resolve_window(st)
        events.extend(ev)
        cause = "overkill"
        if not st.field:  # MET-14.2: victory cancels the pending change, the expiry is ignored
            events.extend(st.finish(True, "field_cleared"))
            return events
    if timer_due:
        events.append(Event("timer_expired", {"zone": st.zone}))
        if not demand:
            cause = "timer"
        demand = max(demand, 1)
    events.extend(settle(st, demand, cause))
    if st.outcome is None:
        events.extend(countdown_due(st))
    return events


def next_deadline(st: MeteorState) -> float | None:
    """The earliest pending deadline; none in set-up or during a Time Out (R13)."""
    if st.phase != "play" or st.paused is not None or st.outcome is not None:
        return None
    times = [cd["due"] for cd in st.countdowns]
    if st.timer_end is not None:
        times.append(st.timer_end)
    if st.window is not None:
        times.append(st.window["closes"])
    return min(times) if times else None


def do_pass(st: MeteorState, seat: int) -> list[Event]:
    """MET-5.1 / R12: set the flag; when every flag is set, the zone changes (R11 if a window is open)."""
    from cosmodeck.games.meteor.rules_volleys import resolve_window

    st.passes[seat] = True
    events = [Event("passed", {"seat": seat, "passes": list(st.passes)})]
    if not all(st.passes):
        return events
    demand, cause = 0, "all_pass"
    if st.window is not None:
        ev, demand = resolve_window(st)
        events.extend(ev)
        if demand:
            cause = "overkill"
    events.extend(settle(st, max(demand, 1), cause))
    return events


def time_out(st: MeteorState, seat: int) -> list[Event]:
    """R13: freeze every deadline (and rate limit) until ``resume``."""
    st.paused = {"by": seat, "at": st.now}
    return [Event("time_out", {"seat": seat, "at": st.now})]


def resume(st: MeteorState, seat: int) -> list[Event]:
    """R13: move every deadline later by the length of the Time Out."""
    assert st.paused is not None
    shift = st.now - float(st.paused["at"])
    st.paused = None
    if st.timer_end is not None:
        st.timer_end += shift
    if st.window is not None:
        st.window["closes"] += shift
    for cd in st.countdowns:
        cd["due"] += shift
    st.last_place = [None if t is None else t + shift for t in st.last_place]
    return [Event("resume", {"seat": seat, "shift": shift, "deadline": st.timer_end})]


def flip_timer(st: MeteorState) -> list[Event]:
    """Mission Control / Chronometrist: new remaining time = ``zone_timer_s`` - old remaining time."""
    assert st.timer_end is not None
    left = st.timer_end - st.now
    st.timer_end = st.now + max(0.0, float(st.game.options["zone_timer_s"]) - left)
    return [Event("timer_flipped", {"remaining_before": left, "deadline": st.timer_end})]
