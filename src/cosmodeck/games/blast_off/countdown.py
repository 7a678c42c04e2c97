"""BLO-5, 6, 10, 11: the countdown, in real time (deadlines) or as simultaneous steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off.actions import Slap
from cosmodeck.games.blast_off.cards import BLAST_OFF, value_text
from cosmodeck.games.blast_off.missions import countdown_from
from cosmodeck.games.blast_off.phases import COUNTDOWN as PH_COUNTDOWN
from cosmodeck.games.blast_off.rules_core import next_turn

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def called_text(st: BlastOffState) -> str | int:
    v = st.cd_seq[st.cd_idx]
    return "BO" if v == BLAST_OFF else v


def start(st: BlastOffState, rocket: int) -> list[Event]:
    """5.1, 10.2: ``countdown_started``; real time calls the first value after ``tick_s``."""
    frm = countdown_from(st)
    st.phase = PH_COUNTDOWN
    st.cd_rocket = rocket
    st.cd_seq = (*range(frm, 0, -1), BLAST_OFF)
    st.cd_idx = -1
    st.cd_slots = {}
    st.cd_acted = set()
    st.cd_last = -1
    st.extra = -1  # 5.9 decides who plays next
    ev = [Event("countdown_started", {"seat": rocket, "from": frm})]
    if st.rt:
        st.cd_t = st.now + st.g.options["tick_s"]
        return ev
    return ev + call_next(st)


def call_next(st: BlastOffState) -> list[Event]:
    st.cd_idx += 1
    if st.cd_idx >= len(st.cd_seq):
        return end(st)
    st.phase = PH_COUNTDOWN
    st.cd_acted = set()
    st.pend = {}
    if st.rt:
        st.cd_t = st.now + st.g.options["tick_s"]
    return [Event("countdown_called", {"value": called_text(st)})]


def next_value(st: BlastOffState) -> list[Event]:
    """The current value ends (5.7: an unfilled value is skipped); the next is called."""
    ev: list[Event] = []
    if st.cd_idx >= 0 and st.cd_seq[st.cd_idx] not in st.cd_slots:
        ev.append(Event("value_skipped", {"value": called_text(st)}))
    return ev + call_next(st)


def tick(st: BlastOffState) -> list[Event]:
    """Real time: the call of the current value expires (10.2, 10.5, 10.6)."""
    st.cd_t = -1.0
    return next_value(st)


def end(st: BlastOffState) -> list[Event]:
    """10.6, 5.9 (R7): play resumes left of the last countdown player, else of the rocket player."""
    frm = st.cd_last if st.cd_last >= 0 else st.cd_rocket
    filled = [value_text(v) for v in st.cd_seq if v in st.cd_slots]
    ev = [Event("countdown_ended", {"blast_off": BLAST_OFF in st.cd_slots, "filled": filled, "last": st.cd_last})]
    st.cd_t = -1.0
    st.cd_rocket = -1
    st.cd_idx = -1
    st.cd_seq = ()
    st.cd_slots = {}
    st.cd_acted = set()
    st.cd_last = -1
    st.pend = {}
    return ev + next_turn(st, frm)


def collide(st: BlastOffState) -> tuple[int, list[int]]:
    """11.2: the winner among contenders by a reaction-time ``CHANCE``; the others bounce."""
    contenders = [s for s in sorted(st.pend) if isinstance(st.pend[s], Slap)]
    if not contenders:
        return -1, []
    if len(contenders) == 1:
        return contenders[0], []
    winner = race(st, contenders)
    return winner, [s for s in contenders if s != winner]


def race(st: BlastOffState, seats: list[int]) -> int:
    """The fastest of ``seats``: uniform by default, else log-normal per-seat reaction times."""
    dists = st.g.options["reaction_time"]
    if dists is None:
        return seats[st.rng.randbelow(len(seats))]
    return min(seats, key=lambda s: (reaction(st, s), s))


def reaction(st: BlastOffState, seat: int) -> float:
    dists = st.g.options["reaction_time"]
    if dists is None:
        return st.rng.random()
    median, sigma = dists[seat % len(dists)]
    return st.rng.lognormal(float(median), float(sigma))
