"""Shooting Star's Python fast path: the same legal lists, events and states as the reference rules, faster.

The reference is ``ShootingStarState._legal``, ``rules_turn.place``/``resolve_turn``/``resolve_card``/``hit``/
``end_game`` and ``rules_score.score_all``; ``tests/shooting_star/test_fast_path.py`` plays seeded games on
both and compares records, results, views, events and legal lists. ``ShootingStarState`` uses it when
``game.fast`` is true (``load_game(..., fast=False)`` runs the reference only) in the placement phase, from
the legal list to the final score; setup and building a custom sector (``PlacePlanet``) always run the
reference (only the sector shape's tables are shared). When the compiled extension (``fast.pyx``) is built,
``load_game``'s states are its ``FastShootingStarState`` instead, which uses only ``shape_info`` from here
(through ``ShootingStarState.set_shape``); this module runs whole on a build without the extension, or with the game's
``use_compiled`` set to false.

What is precomputed:
- legal actions: per sector shape, one flat tuple of ``Place`` actions per card kind over the shape's cells in
  row-major order; per board (the set of planet cells, which changes only when a turn resolves), the same
  tuples with the empty cells cut out (from the previous board's tuples when the board only lost cells);
  a seat's list is its hand's tuples with the covered cells' slices cut out (a few list extends instead of
  one per cell and card);
- hit patterns: the target cells of every (card kind, arrow, origin cell), per game;
- card ids (``faction:kind``) per game; the sector shape's order and neighbours per shape;
- scoring (SHS-14, SHS-15): each seat's counted planets are sorted into kinds, names and moons once, not
  once per mission.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, KIND_12, KIND_34, KIND_DARK, Cell
from cosmodeck.games.shooting_star.loader import neighbours
from cosmodeck.games.shooting_star.rules_score import rank
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER
from cosmodeck.games.shooting_star.rules_turn import draw_replacement, end_reason, isolate

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.game import ShootingStarGame
    from cosmodeck.games.shooting_star.state import Placed, ShootingStarState


_EVENT_FIELDS = ("type", "data", "private", "seats", "public")
_SLOTS: list[Any] = [vars(Event).get(name) for name in _EVENT_FIELDS]
_RAW_EVENTS = tuple(f.name for f in dataclasses.fields(Event)) == _EVENT_FIELDS and all(
    isinstance(s, MemberDescriptorType) for s in _SLOTS)
_SET = [s.__set__ for s in _SLOTS] if _RAW_EVENTS else []
_NOBODY: frozenset[int] = frozenset()
_new = object.__new__


def _event(kind: str, data: dict[str, Any], private: dict[str, Any] | None = None,
           seats: frozenset[int] = _NOBODY) -> Event:
    """``Event(kind, data, private=private, seats=seats)``, the same frozen object, built by setting its
    slots directly (the dataclass's frozen ``__init__`` takes twice as long; a game builds about 200 events)."""
    if not _RAW_EVENTS:
        return Event(kind, data, private=private, seats=seats)
    e = _new(Event)
    st, sd, sp, ss, su = _SET
    st(e, kind)
    sd(e, data)
    sp(e, private)
    ss(e, seats)
    su(e, True)
    return e


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
    """The ``Place`` actions of every card kind over one set of planet cells, row-major (immutable once
    built; shared by clones): the shape's rows with the empty cells' slices cut out, or, when the board only
    lost cells since ``prev`` (a turn resolved), ``prev``'s rows with the lost cells' slices cut out."""

    __slots__ = ("cells", "keys", "order", "pos", "rows", "width")
    cells: tuple[Cell, ...]
    keys: frozenset[Cell]
    order: tuple[Cell, ...]
    pos: dict[Cell, int]
    rows: dict[str, tuple[Any, ...]]
    width: int

    def __init__(self, st: ShootingStarState, prev: BoardActions | None = None) -> None:
        board = st.board
        keys = self.keys = frozenset(board)
        self.order = order = st.shape_order
        if prev is not None and prev.order is order and prev.keys > keys:
            w = self.width = prev.width
            pos = prev.pos
            src = prev.rows
            cuts = sorted([pos[c] * w for c in prev.keys - keys])
            end = len(prev.cells) * w
            self.cells = cells = tuple(c for c in prev.cells if c in keys)
        else:
            shape = shape_rows(st)
            w = self.width = shape.width
            src = shape.rows
            cuts = [k * w for k, c in enumerate(order) if c not in board]
            end = len(order) * w
            self.cells = cells = tuple(c for c in order if c in board)
        self.pos = {c: k for k, c in enumerate(cells)}
        if not cuts:
            self.rows = src
            return
        spans = _spans(cuts, w, end)
        rows: dict[str, tuple[Any, ...]] = {}
        for card, row in src.items():
            flat: list[Any] = []
            for a, b in spans:
                flat += row[a:b]
            rows[card] = tuple(flat)
        self.rows = rows


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
    """Per game: hit patterns, card ids, sector shapes and their ``Place`` rows (filled on first use; the
    game's data never changes)."""

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
        acts = st.fast_actions = BoardActions(st, acts)
    rows = acts.rows
    out: list[Any] = []
    placed = st.placed
    if not placed:
        for card in st.hands[seat]:
            out += rows[card]
        return out
    pos = acts.pos
    w = acts.width
    spans = _spans(sorted([pos[p[2]] * w for p in placed]), w, len(pos) * w)
    for card in st.hands[seat]:
        row = rows[card]
        for a, b in spans:
            out += row[a:b]
    return out


def place(st: ShootingStarState, seat: int, card: str, cell: Cell, arrow: str) -> list[Event]:
    """``rules_turn.place`` with the fast resolution."""
    st.hands[seat] = tuple(c for c in st.hands[seat] if c != card)
    st.placed = [*st.placed, (seat, card, cell, arrow)]
    events = [_event("place", {"seat": seat, "cell": [cell[0], cell[1]], "orientation": arrow},
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
        events.append(_event("reveal", {"seat": seat, "card": cid, "cell": [cell[0], cell[1]],
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
        events.append(_event("to_debris", {"seat": seat, "card": cid, "cause": "turn_end"}))
    st.placed = []
    st.invader = (st.invader + 1) % st.players  # SHS-12.2
    events.append(_event("invader", {"seat": st.invader}))
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
    events.append(_event("resolve", {"seat": seat, "card": cid}))
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
        events.append(_event("shield", {"attacker": seat, "card": cid, "defender": dseat,
                                       "cell": [dcell[0], dcell[1]]}))
        return
    shape = st.shape
    emptied: list[Cell] = []
    for t in targets:  # SHS-6.6
        if t not in shape:
            events.append(_event("miss", {"cell": [t[0], t[1]], "reason": "off_grid"}))
            continue
        here = board.get(t)
        if here is None:
            events.append(_event("miss", {"cell": [t[0], t[1]], "reason": "empty"}))
            continue
        j = by_cell.get(t, -1)
        if j >= 0 and j in on_board:
            if shelter and planets[here[0]].dark:
                events.append(_event("miss", {"cell": [t[0], t[1]], "reason": "dark"}))
            else:
                _destroy(st, seat, j, on_board, cids, events)  # SHS-8.1, SHS-8.2
            continue
        if here[1] == DARK_LEVEL:  # SHS-11.2
            events.append(_event("miss", {"cell": [t[0], t[1]], "reason": "dark"}))
            continue
        if _hit(st, seat, t, events):  # SHS-7
            emptied.append(t)
    if emptied or st.lonely:
        isolate(st, seat, i, on_board, emptied, events)  # SHS-6.7, SHS-10
    del on_board[i]
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(_event("to_debris", {"seat": seat, "card": cid, "cause": "resolved"}))


def _destroy(st: ShootingStarState, seat: int, j: int, on_board: dict[int, Placed], cids: list[str],
             events: list[Event]) -> None:
    """SHS-8.1: another player's card is destroyed into the attacker's debris."""
    owner, _kind, cell, _ = on_board.pop(j)
    cid = cids[j]
    st.debris[seat] = (*st.debris[seat], cid)
    events.append(_event("destroy", {"card": cid, "owner": owner, "cell": [cell[0], cell[1]], "by": seat}))


def _hit(st: ShootingStarState, seat: int, cell: Cell, events: list[Event]) -> bool:
    """``rules_turn.hit`` (SHS-7.1-7.5): one hit lowers a planet by one level; levels 3 and 1 are captured.

    Returns whether the cell was left empty.
    """
    board = st.board
    pid, level = board[cell]
    if level in (4, 2):
        board[cell] = (pid, level - 1)
        events.append(_event("flip", {"cell": [cell[0], cell[1]], "planet": pid, "from": level, "to": level - 1}))
        return False
    st.conquest[seat] = (*st.conquest[seat], pid)
    events.append(_event("capture", {"seat": seat, "planet": pid, "cell": [cell[0], cell[1]], "pile": "conquest",
                                     "cause": "damage"}))
    if level == 3:
        new = draw_replacement(st)
        if new is not None:
            board[cell] = (new, 2)
            events.append(_event("replace", {"cell": [cell[0], cell[1]], "planet": new}))
            return False
    del board[cell]
    return True


def end_game(st: ShootingStarState, reason: str, events: list[Event]) -> None:
    """``rules_turn.end_game`` (SHS-13.2): hands to debris, missions revealed, scoring (SHS-14)."""
    events.append(_event("game_end", {"reason": reason}))
    debris = st.debris
    for seat in range(st.players):
        for kind in st.hands[seat]:
            cid = _cid(st, seat, kind)
            debris[seat] = (*debris[seat], cid)
            events.append(_event("to_debris", {"seat": seat, "card": cid, "cause": "hand"}))
        st.hands[seat] = ()
    for seat in range(st.players):
        events.append(_event("missions", {"seat": seat, "ids": list(st.missions[seat])}))
    st.phase = PHASE_OVER
    st.end = reason
    st.res = rank(score_all(st), reason)
    for seat in range(st.players):
        events.append(_event("score", {"seat": seat, "breakdown": dict(st.res.details["breakdown"][seat])}))


def score_all(st: ShootingStarState) -> list[dict[str, Any]]:
    """``rules_score.score_all`` (SHS-14.1-14.6) with each seat's planets sorted once for all its missions."""
    data = st.game.data
    options = st.game.options
    planets = data.planets
    missions = data.missions
    all_cards = options["conquest_points"] == "all_cards"
    with_debris = options["missions_count_debris"]
    debris = st.debris
    most = max(len(d) for d in debris)
    out: list[dict[str, Any]] = []
    for seat, (con, deb) in enumerate(zip(st.conquest, debris, strict=True)):
        con_p = [planets[p] for p in con if ":" not in p]
        deb_p = [planets[p] for p in deb if ":" not in p]
        cards = len(con) if all_cards else len(con_p)  # SHS-14.1, R16
        moons = sum(1 for p in con_p if p.moons >= 1)  # SHS-14.2, R28
        counted = [p for p in (con_p + deb_p if with_debris else con_p) if p.kind != KIND_DARK]  # R17, SHS-15.2
        names = {p.name for p in counted if p.kind == KIND_34}
        count = {"planets": len(counted), KIND_12: sum(1 for p in counted if p.kind == KIND_12),
                 KIND_34: sum(1 for p in counted if p.kind == KIND_34),
                 "moon": sum(1 for p in counted if p.moons >= 1)}
        mpts: dict[str, int] = {}
        for mid in st.missions[seat]:  # SHS-14.3, SHS-15
            m = missions[mid]
            if m.named:
                mpts[mid] = m.score_by_found[sum(1 for n in m.named if n in names)]
            else:
                mpts[mid] = m.points if all(count[k] >= v for k, v in m.need.items()) else 0
        bonus = data.debris_bonus if len(deb) == most else 0  # SHS-14.4
        out.append({
            "cards": cards,
            "moons": moons,
            "missions": mpts,
            "debris": len(deb),
            "debris_bonus": bonus,
            "total": cards + moons + sum(mpts.values()) + bonus,
            "captured": len(con) + len(deb_p),  # SHS-14.6 (1)
            "moon_count": sum(p.moons for p in con_p + deb_p),  # SHS-14.6 (2)
        })
    return out
