"""Stack Shooting Star states from the spec's scenario notation (§7 conventions).

Grid tokens: ``4 3 2 1`` a planet at that level (3/4 card at 3-4, 1/2 card at 1-2), ``D`` a Dark
Planet, ``.`` a sector cell without a planet. Cards: ``R:P6@(1,0)N#2`` (faction letter, card,
cell, arrow, placement order); a missing arrow means N.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import cosmodeck
from cosmodeck.engine.events import Event
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK, Cell
from cosmodeck.games.shooting_star.state import ShootingStarState

FACTION = {"R": "blastroid", "Y": "krakenian", "G": "alligish", "B": "conquid", "P": "nebulid"}
LETTER = {v: k for k, v in FACTION.items()}
_CARD = re.compile(r"([RYGBP]):(\w+)@\((-?\d+),(-?\d+)\)([NESW]?)#(\d+)")


def parse_card(token: str) -> tuple[str, str, Cell, str, int]:
    m = _CARD.fullmatch(token)
    assert m is not None, token
    letter, kind, x, y, arrow, order = m.groups()
    return letter, kind, (int(x), int(y)), arrow or "N", int(order)


def stack(rows: Sequence[str], cards: Sequence[str] = (), *, players: int | None = None,
          letters: str | None = None, reserve: Sequence[str] | None = None, turn: int = 1,
          hands: Sequence[Sequence[str]] | None = None, planets: dict[Cell, str] | None = None,
          seed: int = 0, place: bool = True, **options: Any) -> tuple[ShootingStarState, list[Event]]:
    """A state with the board ``rows`` whose cards ``#1..#k`` are then placed through ``apply``.

    Seat i plays placement order ``#i+1`` (the Dark Invader is seat 0); ``letters`` adds
    factions for seats that place nothing yet. Returns the state and the events of the placements.
    """
    parsed = sorted((parse_card(c) for c in cards), key=lambda c: c[4])
    seat_letters = [c[0] for c in parsed] + list(letters or "")
    n = players or len(seat_letters)
    assert len(seat_letters) == n, "one faction letter per seat"
    game = cosmodeck.load_game("shooting-star", factions=[FACTION[x] for x in seat_letters], first_player=0,
                               **options)
    st = game.new_game(players=n, seed=seed)
    data = game.data
    fixed = dict(planets or {})
    taken = set(fixed.values()) | set(reserve or ())
    pools = {k: [p.id for p in data.planets.values() if p.kind == k and p.id not in taken]
             for k in (KIND_12, KIND_34, KIND_DARK)}
    board: dict[Cell, tuple[str, int]] = {}
    cells: list[Cell] = []
    for y, row in enumerate(rows):
        for x, tok in enumerate(row.split()):
            cells.append((x, y))
            if tok == ".":
                continue
            level = 0 if tok == "D" else int(tok)
            kind = KIND_DARK if tok == "D" else KIND_34 if level >= 3 else KIND_12
            pid = fixed.get((x, y)) or pools[kind].pop(0)
            board[(x, y)] = (pid, level)
    st.board = board
    st.set_shape(cells)
    on_board = {p for p, _ in board.values()}
    st.reserve = tuple(sorted(reserve)) if reserve is not None else tuple(
        sorted(p for p in data.planet_order if p not in on_board))
    st.turn = turn
    st.invader = 0
    if hands is not None:
        order = data.card_index
        st.hands = [tuple(sorted(h, key=order.__getitem__)) for h in hands]
    events: list[Event] = []
    if place:
        for seat, (_, kind, (x, y), arrow, _) in enumerate(parsed):
            events += st.apply(seat, f"place {kind} {x},{y} {arrow}")
    return st, events


def tokens(st: ShootingStarState) -> list[str]:
    """The board as grid-token rows (levels, D, or . for an empty sector cell)."""
    xs = [c[0] for c in st.shape]
    ys = [c[1] for c in st.shape]
    out = []
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            here = st.board.get((x, y))
            row.append("." if here is None else "D" if here[1] == 0 else str(here[1]))
        out.append(" ".join(row))
    return out


def kinds(st: ShootingStarState, pile: Sequence[str]) -> list[str]:
    """Pile entries as 'LETTER:CARD' for Destruction cards and '12'/'34'/'DK' for planets."""
    out = []
    for cid in pile:
        if ":" in cid:
            fac, card = cid.split(":")
            out.append(f"{LETTER[fac]}:{card}")
        else:
            k = st.game.data.planets[cid].kind
            out.append("DK" if k == KIND_DARK else k)
    return out


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def after_resolve(events: Sequence[Event], card: str) -> list[Event]:
    """Events from the ``resolve`` of ``card`` (a full id) up to the next ``resolve`` or turn end."""
    out: list[Event] = []
    inside = False
    for e in events:
        if e.type == "resolve":
            inside = e.data["card"] == card
            if inside:
                continue
        if e.type == "invader":
            inside = False
        if inside:
            out.append(e)
            if e.data.get("card") == card and (e.type == "shield" or e.data.get("cause") == "resolved"):
                inside = False
    return out
