"""BLO-12.3 turn-based RESPONSE steps: simultaneous, hidden until every active player is done."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off import missions
from cosmodeck.games.blast_off.actions import Announce, Catch, Done, Gesture
from cosmodeck.games.blast_off.countdown import reaction
from cosmodeck.games.blast_off.phases import RESPONSE

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def start_response(st: BlastOffState, then: str) -> list[Event]:
    st.resp_no += 1
    st.phase = RESPONSE
    st.rthen = then
    st.pend = {s: [] for s, h in enumerate(st.hands) if h}
    st.rdone = set()
    return [Event("response_started", {"step": st.resp_no})]


def submit(st: BlastOffState, seat: int, a: Any) -> list[Event]:
    """Add one announcement, gesture or catch to ``seat``'s hidden list, or finish it (``done``)."""
    if isinstance(a, Done):
        st.rdone.add(seat)
        return [Event("responded", {"seat": seat}, private={"actions": [str(x) for x in st.pend[seat]]},
                      seats=frozenset((seat,)))]
    st.pend[seat].append(a)
    return [Event("response_added", {"seat": seat}, private={"action": str(a)}, seats=frozenset((seat,)),
                  public=False)]


def all_done(st: BlastOffState) -> bool:
    return len(st.rdone) >= len(st.pend)


def resolve(st: BlastOffState) -> list[Event]:
    """Announcements, then catches in reaction-time order, then missed obligations (12.2-12.6)."""
    subs: dict[int, list[Any]] = st.pend
    st.pend = {}
    st.rdone = set()
    ev: list[Event] = []
    for s in sorted(subs):
        for a in subs[s]:
            if isinstance(a, (Announce, Gesture)):
                ev.extend(missions.announce(st, s, isinstance(a, Gesture), a.token,
                                            a.arg if isinstance(a, Announce) else None))
    catchers = [s for s in sorted(subs) if any(isinstance(a, Catch) for a in subs[s])]
    if len(catchers) > 1:
        if st.g.options["reaction_time"] is None:
            st.rng.shuffle(catchers)
        else:
            times = {s: reaction(st, s) for s in catchers}
            catchers.sort(key=lambda s: (times[s], s))
    for s in catchers:
        for a in subs[s]:
            if isinstance(a, Catch) and st.hands[a.target]:
                ev.extend(missions.catch(st, s, a.target, a.mission))
    ev.extend(missions.expire_steps(st))
    ev.extend(missions.prune(st))
    ev.append(Event("response_ended", {"step": st.resp_no}))
    return ev
