"""A turn: placement (SHS-5), resolution (SHS-6 to SHS-11), end of turn (SHS-12) and game end (SHS-13).

Events follow SHS-D4 in the order of R27: reveal all; then per card ``resolve``, its targets in
data order (``miss``, ``destroy``, ``flip``, ``capture``, ``replace``) or ``shield``, then isolation
captures row-major, then the card's own ``to_debris``; then Shields to debris, ``invader``,
and at game end ``game_end``, hands to debris, ``missions``, ``score``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, KIND_12, Cell, card_id
from cosmodeck.games.shooting_star.rules_score import final_result
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import Placed, ShootingStarState


def _xy(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def _row_major(cell: Cell) -> tuple[int, int]:
    return (cell[1], cell[0])


def place(st: ShootingStarState, seat: int, card: str, cell: Cell, arrow: str) -> list[Event]:
    """SHS-5.2: the card goes face down; when all have placed, the turn resolves."""
    st.hands[seat] = tuple(c for c in st.hands[seat] if c != card)
    st.placed = [*st.placed, (seat, card, cell, arrow)]
    events = [Event("place", {"seat": seat, "cell": _xy(cell), "orientation": arrow},
                    private={"card": card_id(st.factions[seat], card)}, seats=frozenset({seat}))]
    if len(st.placed) == st.players:
        resolve_turn(st, events)
    return events


def resolve_turn(st: ShootingStarState, events: list[Event]) -> None:
    """SHS-6.1-6.3, SHS-12, SHS-13."""
    cards = st.game.data.cards
    fac = st.factions
    for seat, kind, cell, arrow in st.placed:  # SHS-6.1
        events.append(Event("reveal", {"seat": seat, "card": card_id(fac[seat], kind), "cell": _xy(cell),
                                       "orientation": arrow}))
    on_board: dict[int, Placed] = dict(enumerate(st.placed))
    order = sorted((i for i, p in on_board.items() if not cards[p[1]].shield),
                   key=lambda i: (-(cards[on_board[i][1]].priority or 0), i))  # SHS-6.2
    for i in order:
        if i in on_board:  # SHS-6.3
            resolve_card(st, i, on_board, events)
    for seat, kind, _cell, _arrow in on_board.values():  # SHS-12.1: Shields left in play
        cid = card_id(fac[seat], kind)
        st.debris[seat] = (*st.debris[seat], cid)
        events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "turn_end"}))
    st.placed = []
    st.invader = (st.invader + 1) % st.players  # SHS-12.2
    events.append(Event("invader", {"seat": st.invader}))
    reason = end_reason(st)  # SHS-13.1
    if reason is None:
        st.turn += 1
    else:
        end_game(st, reason, events)


def resolve_card(st: ShootingStarState, i: int, on_board: dict[int, Placed], events: list[Event]) -> None:
    """SHS-6.4-6.7 for card ``i`` of this turn's placement order."""
    data = st.game.data
    opts = st.game.options
    cards = data.cards
    planets = data.planets
    fac = st.factions
    board = st.board
    seat, kind, origin, arrow = on_board[i]
    cid = card_id(fac[seat], kind)
    events.append(Event("resolve", {"seat": seat, "card": cid}))
    ox, oy = origin
    targets = [(ox + dx, oy + dy) for dx, dy in cards[kind].rotated[arrow]]  # SHS-6.4
    by_cell = {p[2]: j for j, p in on_board.items() if j != i}
    shelter = opts["dark_planet_shelters_cards"]

    def sheltered(cell: Cell) -> bool:  # R10 option: cards on Dark Planets are immune
        return bool(shelter) and planets[board[cell][0]].dark

    acting = -1
    for t in targets:  # SHS-6.5, SHS-9.3: the earliest Shield hit acts
        j = by_cell.get(t, -1)
        if j >= 0 and cards[on_board[j][1]].shield and not sheltered(t) and (acting < 0 or j < acting):
            acting = j
    if acting >= 0:
        if opts["shield_scope"] == "planets":  # R8 option: other cards are still destroyed
            for t in targets:
                j = by_cell.get(t, -1)
                if j >= 0 and j in on_board and not cards[on_board[j][1]].shield and not sheltered(t):
                    _destroy(st, seat, j, on_board, events)
        dseat, dkind, dcell, _ = on_board.pop(acting)
        del on_board[i]
        st.conquest[dseat] = (*st.conquest[dseat], cid, card_id(fac[dseat], dkind))  # SHS-9.2
        events.append(Event("shield", {"attacker": seat, "card": cid, "defender": dseat, "cell": _xy(dcell)}))
        return
    shape = st.shape
    emptied: list[Cell] = []
    for t in targets:  # SHS-6.6
        if t not in shape:
            events.append(Event("miss", {"cell": _xy(t), "reason": "off_grid"}))
            continue
        here = board.get(t)
        if here is None:
            events.append(Event("miss", {"cell": _xy(t), "reason": "empty"}))
            continue
        j = by_cell.get(t, -1)
        if j >= 0 and j in on_board:
            if sheltered(t):
                events.append(Event("miss", {"cell": _xy(t), "reason": "dark"}))
            else:
                _destroy(st, seat, j, on_board, events)  # SHS-8.1, SHS-8.2
            continue
        if here[1] == DARK_LEVEL:  # SHS-11.2
            events.append(Event("miss", {"cell": _xy(t), "reason": "dark"}))
            continue
        if hit(st, seat, t, events):  # SHS-7
            emptied.append(t)
    isolate(st, seat, i, on_board, emptied, events)  # SHS-6.7, SHS-10
    del on_board[i]
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "resolved"}))


def _destroy(st: ShootingStarState, seat: int, j: int, on_board: dict[int, Placed], events: list[Event]) -> None:
    """SHS-8.1: another player's card is destroyed into the attacker's debris."""
    owner, kind, cell, _ = on_board.pop(j)
    cid = card_id(st.factions[owner], kind)
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(Event("destroy", {"card": cid, "owner": owner, "cell": _xy(cell), "by": seat}))


def hit(st: ShootingStarState, seat: int, cell: Cell, events: list[Event]) -> bool:
    """SHS-7.1-7.5: one hit lowers a planet by one level; levels 3 and 1 are captured.

    Returns whether the cell was left empty.
    """
    board = st.board
    pid, level = board[cell]
    if level in (4, 2):
        board[cell] = (pid, level - 1)
        events.append(Event("flip", {"cell": _xy(cell), "planet": pid, "from": level, "to": level - 1}))
        return False
    st.conquest[seat] = (*st.conquest[seat], pid)
    events.append(Event("capture", {"seat": seat, "planet": pid, "cell": _xy(cell), "pile": "conquest",
                                    "cause": "damage"}))
    if level == 3:
        new = draw_replacement(st)
        if new is not None:
            board[cell] = (new, 2)
            events.append(Event("replace", {"cell": _xy(cell), "planet": new}))
            return False
    del board[cell]
    return True


def draw_replacement(st: ShootingStarState) -> str | None:
    """R3, R24: a random 1/2 card from the reserve, drawn at the moment of use; None if there is none."""
    planets = st.game.data.planets
    reserve = st.reserve
    pool = [k for k, p in enumerate(reserve) if planets[p].kind == KIND_12]
    if not pool:
        return None
    k = pool[st.rng.randbelow(len(pool))] if len(pool) > 1 else pool[0]
    st.reserve = reserve[:k] + reserve[k + 1:]
    return reserve[k]


def isolate(st: ShootingStarState, seat: int, i: int, on_board: dict[int, Placed], emptied: list[Cell],
            events: list[Event]) -> None:
    """SHS-10: capture every isolated planet (row-major) into the debris, with any card on it.

    A planet becomes isolated only when a neighbour's cell is emptied, so only those neighbours
    are examined (every cell, if the sector has a cell with no neighbour at all).
    """
    board = st.board
    nbrs = st.nbrs
    if st.lonely:
        near: Iterable[Cell] = st.shape_order
    elif emptied:
        near = sorted({n for c in emptied for n in nbrs[c]}, key=_row_major)
    else:
        return
    lonely = [c for c in near if c in board and not any(n in board for n in nbrs[c])]
    if not lonely:
        return
    fac = st.factions
    for c in lonely:
        pid = board.pop(c)[0]
        st.debris[seat] = (*st.debris[seat], pid)
        events.append(Event("capture", {"seat": seat, "planet": pid, "cell": _xy(c), "pile": "debris",
                                        "cause": "isolation"}))
        for j, (owner, kind, cell, _) in list(on_board.items()):
            if cell == c and j != i:  # SHS-10.3 / R11; the resolving card goes last (R12)
                del on_board[j]
                cid = card_id(fac[owner], kind)
                st.debris[seat] = (*st.debris[seat], cid)
                events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "isolated"}))


def planets_left(st: ShootingStarState) -> int:
    """R20: planet cards in the sector, Dark Planets included unless end_count_includes_dark=false."""
    if st.game.options["end_count_includes_dark"]:
        return len(st.board)
    return sum(1 for _, lvl in st.board.values() if lvl != DARK_LEVEL)


def end_reason(st: ShootingStarState) -> str | None:
    """SHS-13.1: (a) seven cards played by everyone, (b) planets left <= players."""
    if st.turn >= st.game.data.max_cards_played:
        return "seven_cards"
    if planets_left(st) <= st.players:
        return "few_planets"
    return None


def end_game(st: ShootingStarState, reason: str, events: list[Event]) -> None:
    """SHS-13.2: hands to debris, missions revealed, scoring (SHS-14)."""
    events.append(Event("game_end", {"reason": reason}))
    fac = st.factions
    for seat in range(st.players):
        for kind in st.hands[seat]:
            cid = card_id(fac[seat], kind)
            st.debris[seat] = (*st.debris[seat], cid)
            events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "hand"}))
        st.hands[seat] = ()
    for seat in range(st.players):
        events.append(Event("missions", {"seat": seat, "ids": list(st.missions[seat])}))
    st.phase = PHASE_OVER
    st.end = reason
    st.res = final_result(st)
    for seat in range(st.players):
        events.append(Event("score", {"seat": seat, "breakdown": dict(st.res.details["breakdown"][seat])}))
