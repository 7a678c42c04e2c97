"""Core moves shared by every rule: seats, drawing and reshuffling, turns, going out, the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event
from cosmodeck.engine.result import Result
from cosmodeck.games.blast_off.cards import TYPE_NAME
from cosmodeck.games.blast_off.phases import OVER, TURN

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def n_active(st: BlastOffState) -> int:
    return sum(1 for h in st.hands if h)


def next_active(st: BlastOffState, frm: int, d: int | None = None) -> int:
    """The next active player from ``frm`` in direction ``d`` (default ``dir``); ``frm`` if alone."""
    n = st.players
    step = st.dir if d is None else d
    hands = st.hands
    i = frm
    for _ in range(n):
        i = (i + step) % n
        if hands[i]:
            return i
    return frm


def can_draw(st: BlastOffState) -> bool:
    """BLO-4.5.2: a card exists in the draw pile or under the top discard."""
    return bool(st.draw) or len(st.disc) > 1


def reshuffle(st: BlastOffState) -> list[Event]:
    """BLO-4.5.1: keep the top discard; the rest, declarations cleared, becomes the draw pile."""
    top = st.disc[-1]
    rest = st.disc[:-1]
    for c in rest:
        st.wface.pop(c, None)
    st.rng.shuffle(rest)
    st.draw = rest + st.draw
    st.disc = [top]
    return [Event("reshuffled", {"count": len(rest)})]


def draw_cards(st: BlastOffState, seat: int, n: int, reason: str) -> list[Event]:
    """Draw ``n`` cards, reshuffling lazily (R19); a short pile gives what exists (R11)."""
    ev: list[Event] = []
    got: list[int] = []
    for _ in range(n):
        if not st.draw:
            if len(st.disc) <= 1:
                break
            ev.extend(reshuffle(st))
        got.append(st.draw.pop())
    st.hands[seat].extend(got)
    types = st.g.ctype
    ev.append(Event("drew", {"seat": seat, "count": len(got), "reason": reason},
                    private={"cards": [TYPE_NAME[types[c]] for c in got]}, seats=frozenset((seat,))))
    return ev


def start_turn(st: BlastOffState, seat: int) -> list[Event]:
    st.phase = TURN
    st.cur = seat
    return [Event("turn", {"seat": seat})]


def next_turn(st: BlastOffState, frm: int) -> list[Event]:
    """The next turn from ``frm``: an ``extra_turn`` first, then skip marks are consumed."""
    ev: list[Event] = []
    if st.extra >= 0:
        p, st.extra = st.extra, -1
        if st.hands[p]:
            return start_turn(st, p)
    p = next_active(st, frm)
    while st.skip[p] > 0:
        st.skip[p] -= 1
        ev.append(Event("turn_skipped", {"seat": p}))
        p = next_active(st, p)
    ev.extend(start_turn(st, p))
    return ev


def go_out(st: BlastOffState, seat: int) -> list[Event]:
    """BLO-8.1-8.3: a player with no cards leaves play; the game may end."""
    st.placings.append(seat)
    st.skip[seat] = 0
    st.known[seat] = frozenset()
    st.obls = [o for o in st.obls if o[0] != seat]
    st.viols = [v for v in st.viols if v[0] != seat]
    if st.extra == seat:
        st.extra = -1
    ev = [Event("went_out", {"seat": seat, "place": len(st.placings)})]
    if not st.g.options["play_for_places"]:
        ev.extend(end_game(st, "out"))
    elif n_active(st) <= 1:
        ev.extend(end_game(st, "places"))
    return ev


def end_game(st: BlastOffState, reason: str) -> list[Event]:
    """Rank the players (8.1, 8.2, 8.4); all pending obligations and violations lapse."""
    tiers: list[tuple[int, ...]] = [(s,) for s in st.placings]
    rest = [s for s in range(st.players) if s not in st.placings]
    if reason == "out":
        if rest:
            tiers.append(tuple(rest))
    else:  # places / stalemate: fewest cards first, ties share (8.4)
        for size in sorted({len(st.hands[s]) for s in rest}):
            tiers.append(tuple(s for s in rest if len(st.hands[s]) == size))
    winners = frozenset(tiers[0])
    st.res = Result(reason, winners, tuple(tiers), {s: (1.0 if s in winners else 0.0) for s in range(st.players)},
                    None, {"hand_sizes": [len(h) for h in st.hands], "placings": list(st.placings)})
    st.phase = OVER
    st.obls = []
    st.viols = []
    st.ctx = None
    st.pend = {}
    st.rdone = set()
    st.cd_t = -1.0
    st.dec_t = -1.0
    return [Event("game_over", {"reason": reason, "ranking": [list(t) for t in tiers], "winners": sorted(winners)})]
