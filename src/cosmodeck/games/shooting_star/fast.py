"""Shooting Star's fast path: the same legal lists, events and states as the reference rules, computed faster.

The reference is ``ShootingStarState._legal`` and ``rules_turn.place``/``resolve_turn``/``resolve_card``;
``tests/shooting_star/test_fast_path.py`` plays seeded games on both and compares records, results, views,
events and legal lists. It is used when ``game.fast`` is true (the default; ``load_game(..., fast=False)``
runs the reference only) in the placement phase; building a custom sector (``PlacePlanet``) always runs
the reference.

What is precomputed:
- legal actions: per sector shape, one flat tuple of ``Place`` actions per card kind over the shape's cells in
  row-major order; per board (the set of planet cells, which changes only when a turn resolves), the offsets
  of the empty cells; a seat's list is its hand's tuples with the empty and covered cells' slices cut out
  (a few list extends instead of one per cell and card);
- hit patterns: the target cells of every (card kind, arrow, origin cell), per game;
- card ids (``faction:kind``) per game; the sector shape's order and neighbours per shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, Cell
from cosmodeck.games.shooting_star.loader import neighbours
from cosmodeck.games.shooting_star.rules_turn import end_game, end_reason, hit, isolate

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.game import ShootingStarGame
    from cosmodeck.games.shooting_star.state import Placed, ShootingStarState


class ShapeRows:
    """The ``Place`` actions of every card kind over one sector shape's cells, row-major (per game and shape)."""

    __slots__ = ("pos", "rows", "width")

    def __init__(self, game: ShootingStarGame, order: tuple[Cell, ...]) -> None:
        self.pos = {c: k for k, c in enumerate(order)}
        self.width = len(game.arrows)
        rows: dict[str, tuple[Any, ...]] = {}
        for card, row in game.place_rows.items():
            flat: list[Any] = []
            for c in order:
                flat.extend(row[c])
            rows[card] = tuple(flat)
        self.rows = rows


class BoardActions:
    """Where the shape's rows are cut for one set of planet cells (immutable once built; shared by clones)."""

    __slots__ = ("holes", "keys", "shape", "spans")

    def __init__(self, st: ShootingStarState) -> None:
        board = st.board
        self.keys = frozenset(board)
        self.shape = shape_rows(st)
        w = self.shape.width
        self.holes = [k * w for k, c in enumerate(st.shape_order) if c not in board]
        self.spans = _spans(self.holes, w, len(st.shape_order) * w)


def _spans(cuts: list[int], w: int, end: int) -> list[tuple[int, int]]:
    """The ``[a, b)`` runs of a row left when the ``w``-wide blocks at the sorted offsets ``cuts`` go."""
    spans: list[tuple[int, int]] = []
    lo = 0
    for cut in cuts:
        if cut > lo:
            spans.append((lo, cut))
        lo = cut + w
    if lo < end:
        spans.append((lo, end))
    return spans


class Tables:
    """Per game: hit patterns and card ids (filled on first use; the game's data never changes)."""

    __slots__ = ("cids", "rows", "shapes", "targets")

    def __init__(self) -> None:
        self.targets: dict[tuple[str, str, Cell], tuple[Cell, ...]] = {}
        self.cids: dict[tuple[str, str], str] = {}
        self.shapes: dict[frozenset[Cell], tuple[tuple[Cell, ...], Mapping[Cell, tuple[Cell, ...]], bool]] = {}
        self.rows: dict[tuple[Cell, ...], ShapeRows] = {}


def tables(game: ShootingStarGame) -> Tables:
    t = game.fast_tables
    if t is None:
        t = game.fast_tables = Tables()
    return t


def shape_info(game: ShootingStarGame, cells: Iterable[Cell]
               ) -> tuple[frozenset[Cell], tuple[Cell, ...], Mapping[Cell, tuple[Cell, ...]], bool]:
    """``set_shape``'s results for ``cells``, computed once per distinct shape."""
    shape = frozenset(cells)
    cache = tables(game).shapes
    hit_ = cache.get(shape)
    if hit_ is None:
        order = tuple(sorted(shape, key=lambda c: (c[1], c[0])))
        nbrs = {c: tuple(n for n in neighbours(c) if n in shape) for c in order}
        hit_ = cache[shape] = (order, nbrs, any(not n for n in nbrs.values()))
    return shape, hit_[0], hit_[1], hit_[2]


def shape_rows(st: ShootingStarState) -> ShapeRows:
    cache = tables(st.game).rows
    rows = cache.get(st.shape_order)
    if rows is None:
        rows = cache[st.shape_order] = ShapeRows(st.game, st.shape_order)
    return rows


def legal(st: ShootingStarState, seat: int) -> list[Any]:
    """The placement phase's legal list (SHS-D1), in the reference's order: hand x free cells x arrows."""
    acts = st.fast_actions
    if acts is None or acts.keys != st.board.keys():
        acts = st.fast_actions = BoardActions(st)
    shape = acts.shape
    rows = shape.rows
    placed = st.placed
    if placed:
        pos = shape.pos
        w = shape.width
        spans = _spans(sorted([*acts.holes, *(pos[p[2]] * w for p in placed)]), w, len(pos) * w)
    else:
        spans = acts.spans
    out: list[Any] = []
    if len(spans) == 1:
        a, b = spans[0]
        for card in st.hands[seat]:
            out += rows[card][a:b]
        return out
    for card in st.hands[seat]:
        row = rows[card]
        for a, b in spans:
            out += row[a:b]
    return out


def place(st: ShootingStarState, seat: int, card: str, cell: Cell, arrow: str) -> list[Event]:
    """``rules_turn.place`` with the fast resolution."""
    st.hands[seat] = tuple(c for c in st.hands[seat] if c != card)
    st.placed = [*st.placed, (seat, card, cell, arrow)]
    events = [Event("place", {"seat": seat, "cell": [cell[0], cell[1]], "orientation": arrow},
                    private={"card": _cid(st, seat, card)}, seats=frozenset({seat}))]
    if len(st.placed) == st.players:
        resolve_turn(st, events)
    return events


def _cid(st: ShootingStarState, seat: int, kind: str) -> str:
    fac = st.factions[seat]
    cids = tables(st.game).cids
    cid = cids.get((fac, kind))
    if cid is None:
        cid = cids[(fac, kind)] = f"{fac}:{kind}"
    return cid


def resolve_turn(st: ShootingStarState, events: list[Event]) -> None:
    """``rules_turn.resolve_turn`` (SHS-6.1-6.3, SHS-12, SHS-13)."""
    cards = st.game.data.cards
    placed = st.placed
    cids = [_cid(st, seat, kind) for seat, kind, _, _ in placed]
    for (seat, _kind, cell, arrow), cid in zip(placed, cids, strict=True):  # SHS-6.1
        events.append(Event("reveal", {"seat": seat, "card": cid, "cell": [cell[0], cell[1]],
                                       "orientation": arrow}))
    on_board: dict[int, Placed] = dict(enumerate(placed))
    order = sorted((i for i, p in on_board.items() if not cards[p[1]].shield),
                   key=lambda i: (-(cards[on_board[i][1]].priority or 0), i))  # SHS-6.2
    for i in order:
        if i in on_board:  # SHS-6.3
            resolve_card(st, i, on_board, cids, events)
    debris = st.debris
    for i, (seat, _kind, _cell, _arrow) in on_board.items():  # SHS-12.1
        cid = cids[i]
        debris[seat] = (*debris[seat], cid)
        events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "turn_end"}))
    st.placed = []
    st.invader = (st.invader + 1) % st.players  # SHS-12.2
    events.append(Event("invader", {"seat": st.invader}))
    reason = end_reason(st)  # SHS-13.1
    if reason is None:
        st.turn += 1
    else:
        end_game(st, reason, events)


def _targets(st: ShootingStarState, kind: str, arrow: str, origin: Cell) -> tuple[Cell, ...]:
    cache = tables(st.game).targets
    key = (kind, arrow, origin)
    t = cache.get(key)
    if t is None:
        ox, oy = origin
        t = cache[key] = tuple((ox + dx, oy + dy) for dx, dy in st.game.data.cards[kind].rotated[arrow])
    return t


def resolve_card(st: ShootingStarState, i: int, on_board: dict[int, Placed], cids: list[str],
                 events: list[Event]) -> None:
    """``rules_turn.resolve_card`` (SHS-6.4-6.7) with precomputed hit patterns and card ids."""
    game = st.game
    opts = game.options
    cards = game.data.cards
    planets = game.data.planets
    board = st.board
    seat, kind, origin, arrow = on_board[i]
    cid = cids[i]
    events.append(Event("resolve", {"seat": seat, "card": cid}))
    targets = _targets(st, kind, arrow, origin)  # SHS-6.4
    by_cell = {p[2]: j for j, p in on_board.items() if j != i}
    shelter = bool(opts["dark_planet_shelters_cards"])

    acting = -1
    if by_cell:
        for t in targets:  # SHS-6.5, SHS-9.3: the earliest Shield hit acts
            j = by_cell.get(t, -1)
            if j >= 0 and cards[on_board[j][1]].shield and not (shelter and planets[board[t][0]].dark) and (
                    acting < 0 or j < acting):
                acting = j
    if acting >= 0:
        if opts["shield_scope"] == "planets":  # R8 option
            for t in targets:
                j = by_cell.get(t, -1)
                if j >= 0 and j in on_board and not cards[on_board[j][1]].shield and not (
                        shelter and planets[board[t][0]].dark):
                    _destroy(st, seat, j, on_board, cids, events)
        dseat, _dkind, dcell, _ = on_board.pop(acting)
        del on_board[i]
        st.conquest[dseat] = (*st.conquest[dseat], cid, cids[acting])  # SHS-9.2
        events.append(Event("shield", {"attacker": seat, "card": cid, "defender": dseat,
                                       "cell": [dcell[0], dcell[1]]}))
        return
    shape = st.shape
    emptied: list[Cell] = []
    for t in targets:  # SHS-6.6
        if t not in shape:
            events.append(Event("miss", {"cell": [t[0], t[1]], "reason": "off_grid"}))
            continue
        here = board.get(t)
        if here is None:
            events.append(Event("miss", {"cell": [t[0], t[1]], "reason": "empty"}))
            continue
        j = by_cell.get(t, -1)
        if j >= 0 and j in on_board:
            if shelter and planets[here[0]].dark:
                events.append(Event("miss", {"cell": [t[0], t[1]], "reason": "dark"}))
            else:
                _destroy(st, seat, j, on_board, cids, events)  # SHS-8.1, SHS-8.2
            continue
        if here[1] == DARK_LEVEL:  # SHS-11.2
            events.append(Event("miss", {"cell": [t[0], t[1]], "reason": "dark"}))
            continue
        if hit(st, seat, t, events):  # SHS-7
            emptied.append(t)
    if emptied or st.lonely:
        isolate(st, seat, i, on_board, emptied, events)  # SHS-6.7, SHS-10
    del on_board[i]
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(Event("to_debris", {"seat": seat, "card": cid, "cause": "resolved"}))


def _destroy(st: ShootingStarState, seat: int, j: int, on_board: dict[int, Placed], cids: list[str],
             events: list[Event]) -> None:
    """SHS-8.1: another player's card is destroyed into the attacker's debris."""
    owner, _kind, cell, _ = on_board.pop(j)
    cid = cids[j]
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(Event("destroy", {"card": cid, "owner": owner, "cell": [cell[0], cell[1]], "by": seat}))
