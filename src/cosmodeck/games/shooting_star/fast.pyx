# cython: language_level=3
"""Shooting Star's compiled fast path: the same legal lists, events and states as the reference rules, faster.

The reference is ``ShootingStarState`` (``state.py``) with ``rules_turn`` and ``rules_score``;
``FastShootingStarState`` subclasses it and is the state class when ``game.fast`` (the default;
``load_game(..., fast=False)`` never builds it) and this extension was built; without the extension the
Python fast path (``fast_py.py``) runs, as it does when the game's ``use_compiled`` is false (``game.py``). It overrides:

- ``is_over``, ``to_act``, ``legal_actions``, ``apply``: the base class's checks in one compiled call each.
  ``apply(seat, action)`` without a time, for a ``Place`` whose fields have exactly the declared types
  (``str``, a tuple of two ``int``, ``str``) in the placement phase, makes ``_precheck``'s checks inline
  (the seat is the one to act, the card is in its hand, the cell has a planet and no card, the arrow is
  allowed; ``_try_place``, each of the state's fields read once for the checks and the placement); anything
  else, or any check failing, is the base class's ``apply`` (the same errors).
- ``apply_quiet(seat, action)``: ``apply`` for a caller that reads no events (the RL environments), and
  ``play_random(seat, rng)`` (the gym's random opponents): the same state and record, no event built
  (``_place``'s ``record`` false: every event of the turn is built under ``if events is not None``).
- ``_legal`` in the placement phase (SHS-D1, the reference's order: hand x free cells row-major x arrows):
  per game and sector shape, one flat tuple of the interned ``Place`` actions per card kind over the shape's
  cells; a seat's list is filled from its hand's tuples, skipping the cells without a planet or with a card.
- ``_do`` of a ``Place``: ``rules_turn.place``, ``resolve_turn``, ``resolve_card``, ``hit``,
  ``draw_replacement``, ``isolate`` and ``end_reason`` compiled (each function names the one it copies),
  this turn's cards in C arrays instead of the ``on_board`` dict, hit patterns per (card kind, arrow,
  origin cell) and card ids per game, events built by setting the frozen ``Event``'s slots; the state's board,
  piles and sector shape read once per turn (``_Turn``), isolation's neighbours ordered by their places in
  ``shape_order`` (C insertion sort), the replacement draw's 1/2 positions in a C array.
- the end of the game and its scoring: ``rules_turn.end_game`` and ``rules_score.score_all`` compiled (one pass
  over each seat's piles, as ``fast_py.score_all``; ``rules_score.rank`` makes the result).
- the state's generator: ``FastRng`` (``engine/fast_rng.pyx``), ``engine/rng.py``'s SplitMix64 in 64-bit C (the same numbers), so
  the setup's shuffles and the replacement draws cost less.

- setup (``new_state``, called by ``ShootingStarGame._new_state``): ``_new_state``'s steps with ``rules_setup``'s
  ``set_aside``, ``pile``, ``face``, ``deal_grid`` (the redeal while two Dark Planets touch), ``deal_missions`` and
  ``deal_custom`` in C over planet and mission indices (``SetupTables``, per game; ``GridTables``, per player
  count), the same generator draws in the same order, the same attributes in the same order; a data form it
  does not copy (``SetupTables.ok`` false, or a pile larger than its arrays) returns ``None`` and the reference
  deals. ``first_player`` other than ``"random"`` calls ``rules_setup.first_player``.

The custom sector's ``PlacePlanet`` runs the reference. ``tests/shooting_star/test_fast_path.py`` plays seeded
games on both paths and compares every step; ``test_fast_setup.py`` compares fresh games of every player count,
variant and some edited data files (docs/ENGINE.md, "Fast path").
"""

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

import dataclasses
from types import MemberDescriptorType

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star import fast_py as _fast_py
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.cards import DARK_LEVEL as _DARK_LEVEL
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK, NEIGHBOURS
from cosmodeck.engine.result import Result
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER, PHASE_PLACE, PHASE_SECTOR
from cosmodeck.games.shooting_star.rules_setup import first_player as _first_player
from cosmodeck.games.shooting_star.state import ShootingStarState

if tuple(f.name for f in dataclasses.fields(Event)) != ("type", "data", "private", "seats", "public") or not all(
        isinstance(vars(Event).get(n), MemberDescriptorType) for n in ("type", "data", "private", "seats", "public")):
    raise ImportError("shooting_star.fast: Event is not the slotted dataclass this module fills")  # pragma: no cover

DEF MAXCELLS = 1024  # sector cells a legal list is built over here (more: the Python fast path)
DEF MAXCARDS = 16  # cards on the board in one turn (one per player)
DEF MAXRESERVE = 4096  # planets in the reserve (the replacement draw's positions)
DEF MAXNEAR = 64  # the emptied cells' neighbours one card's resolution examines for isolation (more: ``sorted``)

cdef int DARK_LEVEL = _DARK_LEVEL
cdef str P_PLACE = PHASE_PLACE
cdef str P_OVER = PHASE_OVER
cdef str P_SECTOR = PHASE_SECTOR
DEF K12 = 1
DEF K34 = 2
DEF KDARK = 3
_EMPTY = frozenset()
_ONE = tuple(frozenset({seat}) for seat in range(16))
_new = object.__new__


# ---- events: the frozen dataclass's slots written directly (``engine/fast_event.pyx``; the same objects) ------

from cosmodeck.engine.fast_event cimport new_event

RAW_EVENTS = True  # (for the tests: the build fills events by their slots; fast_event refuses to import otherwise)


cdef inline object _event(str kind, dict data, object private, frozenset seats):
    """``Event(kind, data, private=private, seats=seats)``."""
    return new_event(kind, data, private, seats, True)


cdef inline object _ev(str kind, dict data):
    """``Event(kind, data)``."""
    return _event(kind, data, None, _EMPTY)


cdef inline list _xy(cell):
    return [cell[0], cell[1]]


# ---- per-game and per-shape tables --------------------------------------------------------------------------

cdef class GameTables:
    """What the resolution reads of the game's data and options, in the forms it reads them."""

    cdef dict shield  # card kind -> bool
    cdef dict prio  # card kind -> priority (0 for a Shield)
    cdef frozenset dark  # Dark Planet ids
    cdef frozenset k12  # 1/2 planet ids (replacements, R3)
    cdef dict targets  # card kind -> arrow -> origin cell -> target cells (SHS-6.4), filled on use
    cdef dict cids  # faction -> card kind -> card id
    cdef dict shapes  # sector shape's order -> ShapeTables
    cdef dict rotated  # card kind -> arrow -> offsets
    cdef bint shelter  # dark_planet_shelters_cards (R10)
    cdef bint shield_planets  # shield_scope == "planets" (R8)
    cdef bint count_dark  # end_count_includes_dark (R20)
    cdef int max_turns  # max_cards_played (SHS-13.1 a)
    cdef dict pinfo  # planet id -> (kind: K12, K34, KDARK or 0, name, moons) for scoring
    cdef dict mission  # mission id -> (named, score_by_found, points, need as (key, value) pairs)
    cdef bint all_cards  # conquest_points == "all_cards" (R16)
    cdef bint with_debris  # missions_count_debris (R17)
    cdef int debris_bonus
    cdef object game

    def __init__(self, game):
        data = game.data
        opts = game.options
        self.game = game
        self.shield = {k: bool(c.shield) for k, c in data.cards.items()}
        self.prio = {k: int(c.priority or 0) for k, c in data.cards.items()}
        self.rotated = {k: dict(c.rotated) for k, c in data.cards.items()}
        self.dark = frozenset(p for p, v in data.planets.items() if v.kind == KIND_DARK)
        self.k12 = frozenset(p for p, v in data.planets.items() if v.kind == KIND_12)
        self.targets = {k: {} for k in data.cards}
        self.cids = {}
        self.shapes = {}
        self.shelter = bool(opts["dark_planet_shelters_cards"])
        self.shield_planets = opts["shield_scope"] == "planets"
        self.count_dark = bool(opts["end_count_includes_dark"])
        self.max_turns = int(data.max_cards_played)
        codes = {KIND_12: K12, KIND_34: K34, KIND_DARK: KDARK}
        self.pinfo = {p: (codes.get(v.kind, 0), v.name, int(v.moons)) for p, v in data.planets.items()}
        self.mission = {m: (tuple(v.named), tuple(v.score_by_found), int(v.points), tuple(v.need.items()))
                        for m, v in data.missions.items()}
        self.all_cards = opts["conquest_points"] == "all_cards"
        self.with_debris = bool(opts["missions_count_debris"])
        self.debris_bonus = int(data.debris_bonus)

    cdef str cid(self, str faction, str kind):
        """``cards.card_id``, once per (faction, kind)."""
        per = self.cids.get(faction)
        if per is None:
            per = self.cids[faction] = {}
        c = (<dict>per).get(kind)
        if c is None:
            c = (<dict>per)[kind] = f"{faction}:{kind}"
        return <str>c

    cdef tuple target_cells(self, str kind, str arrow, tuple origin):
        """The cells card ``kind`` hits from ``origin`` with ``arrow`` (``rules_turn.resolve_card``'s targets)."""
        per = <dict>self.targets[kind]
        per_arrow = per.get(arrow)
        if per_arrow is None:
            per_arrow = per[arrow] = {}
        t = (<dict>per_arrow).get(origin)
        if t is None:
            ox, oy = origin
            t = (<dict>per_arrow)[origin] = tuple([(ox + dx, oy + dy) for dx, dy in self.rotated[kind][arrow]])
        return <tuple>t

    cdef ShapeTables shape(self, tuple order):
        sh = self.shapes.get(order)
        if sh is None:
            sh = self.shapes[order] = ShapeTables(self.game, order)
        return <ShapeTables>sh


cdef class ShapeTables:
    """The ``Place`` actions of every card kind over one sector shape's cells, row-major (per game and shape)."""

    cdef tuple order
    cdef dict index  # cell -> its place in ``order``
    cdef dict rows  # card kind -> the kind's Place actions, cell by cell, arrow by arrow
    cdef Py_ssize_t n
    cdef Py_ssize_t w

    def __init__(self, game, tuple order):
        self.order = order
        self.n = len(order)
        self.w = len(game.arrows)
        self.index = {c: k for k, c in enumerate(order)}
        rows = {}
        for card, row in game.place_rows.items():
            flat = []
            for c in order:
                flat.extend(row[c])
            rows[card] = tuple(flat)
        self.rows = rows


cdef GameTables _tables(st):
    game = st.game
    gt = game.compiled_tables
    if gt is None:
        gt = game.compiled_tables = GameTables(game)
    return <GameTables>gt


cdef ShapeTables _shape(st, GameTables gt):
    """The tables of the state's sector shape (kept on the state; shared by clones; immutable)."""
    sh = st._cshape
    order = st.shape_order
    if sh is None or (<ShapeTables>sh).order is not order:
        sh = gt.shape(order)
        st._cshape = sh
    return <ShapeTables>sh


# ---- legal actions (SHS-D1) -----------------------------------------------------------------------------------

cdef Py_ssize_t _free_cells(st, ShapeTables sh, Py_ssize_t n, unsigned char* free):
    """Mark in ``free[0:n]`` the shape's cells (row-major) that hold a planet and no card placed this turn;
    return how many there are (the placements' cells of ``_legal_place``)."""
    cdef Py_ssize_t k, count = 0
    cdef dict board = st.board
    cdef tuple order = sh.order
    for k in range(n):
        if order[k] in board:
            free[k] = 1
            count += 1
        else:
            free[k] = 0
    cdef dict index = sh.index
    for p in st.placed:
        j = index.get(p[2])
        if j is not None:
            k = j
            if free[k]:
                free[k] = 0
                count -= 1
    return count


cdef list _legal_place(st, int seat):
    """``ShootingStarState._legal`` in the placement phase: hand x free cells (row-major) x arrows."""
    cdef GameTables gt = _tables(st)
    cdef ShapeTables sh = _shape(st, gt)
    cdef Py_ssize_t n = sh.n
    cdef Py_ssize_t w = sh.w
    if n > MAXCELLS:  # pragma: no cover - no data file has such a sector
        return _fast_py.legal(st, seat)
    cdef unsigned char free[MAXCELLS]
    cdef Py_ssize_t k, a, b, pos = 0
    cdef Py_ssize_t count = _free_cells(st, sh, n, free)
    cdef tuple hand = st.hands[seat]
    cdef dict rows = sh.rows
    cdef tuple row
    out = PyList_New(len(hand) * count * w)
    for card in hand:
        row = <tuple>rows[card]
        for k in range(n):
            if free[k]:
                b = k * w
                for a in range(b, b + w):
                    item = row[a]
                    Py_INCREF(item)
                    PyList_SET_ITEM(out, pos, item)
                    pos += 1
    return <list>out


# ---- a turn (SHS-5 to SHS-13) ---------------------------------------------------------------------------------

cdef list _place(st, GameTables gt, hands, placed, int n, int seat, card, cell, arrow, bint record):
    """``rules_turn.place`` (SHS-5.2) of a move already checked, given the state's ``hands``, ``placed`` and
    ``players`` (read once by the caller); its events when ``record``, else ``None`` and no event is built.

    Every function of the turn below takes ``events``: the list to append to, or ``None`` (``record`` false: the
    caller reads no events, e.g. the RL environments and the gym's random opponents). Each event is built inside
    an ``if events is not None`` that changes nothing else, so the state after a turn is the same either way
    (``tests/shooting_star/test_fast_path.py`` plays both against the reference)."""
    hands[seat] = tuple([c for c in <tuple?>hands[seat] if c != card])
    cdef list now = list(placed)
    now.append((seat, card, cell, arrow))
    st.placed = now
    cdef list events = None
    if record:
        events = [_event("place", {"seat": seat, "cell": _xy(cell), "orientation": arrow},
                         {"card": gt.cid(st.factions[seat], card)}, _ONE[seat] if seat < 16 else frozenset((seat,)))]
    if len(now) == n:
        _resolve_turn(st, gt, now, events)
    return events


cdef list _place_st(st, int seat, card, cell, arrow, bint record):
    """``_place`` reading the state's fields itself."""
    return _place(st, _tables(st), st.hands, st.placed, st.players, seat, card, cell, arrow, record)


cdef class _Turn:
    """This turn's cards (``rules_turn.resolve_turn``'s ``on_board``): placement index -> card, and alive flags."""

    cdef int m
    cdef int seat[MAXCARDS]
    cdef bint shield[MAXCARDS]
    cdef bint alive[MAXCARDS]
    cdef list kinds
    cdef list cells
    cdef list arrows
    cdef list cids
    # the state's containers a turn changes in place, and its sector shape, read once per turn
    cdef dict board
    cdef object debris
    cdef object conquest
    cdef object shape
    cdef object nbrs
    cdef bint lonely

    cdef int find(self, tuple cell, int skip, bint* inb):
        """``by_cell.get(cell, -1)`` of ``resolve_card`` (cards on the board when card ``skip`` began)."""
        cdef int j
        for j in range(self.m):
            if inb[j] and j != skip and self.cells[j] == cell:
                return j
        return -1


cdef void _resolve_turn(st, GameTables gt, list placed, list events) except *:
    """``rules_turn.resolve_turn`` (SHS-6.1-6.3, SHS-12, SHS-13); ``placed`` is ``st.placed``."""
    cdef int m = len(placed)
    cdef int i, j, k, tmp
    if m > MAXCARDS:  # pragma: no cover - more seats than any game has
        raise ValueError("shooting_star.fast: more cards in a turn than its arrays hold")
    cdef _Turn tn = _Turn()
    tn.m = m
    tn.kinds = []
    tn.cells = []
    tn.arrows = []
    tn.cids = []
    tn.board = st.board
    tn.debris = st.debris
    tn.conquest = st.conquest
    tn.shape = st.shape
    tn.nbrs = st.nbrs
    tn.lonely = st.lonely
    fac = st.factions
    for i in range(m):
        s, kind, cell, arrow = placed[i]
        tn.seat[i] = s
        tn.shield[i] = gt.shield[kind]
        tn.alive[i] = True
        tn.kinds.append(kind)
        tn.cells.append(cell)
        tn.arrows.append(arrow)
        cid = gt.cid(fac[s], kind)
        tn.cids.append(cid)
        if events is not None:
            events.append(_ev("reveal", {"seat": s, "card": cid, "cell": _xy(cell), "orientation": arrow}))  # SHS-6.1
    cdef int order[MAXCARDS]  # SHS-6.2: non-Shields by priority (highest first), then placement order
    cdef int prio[MAXCARDS]
    cdef int no = 0
    for i in range(m):
        if not tn.shield[i]:
            prio[i] = gt.prio[tn.kinds[i]]
            k = no
            while k > 0 and prio[order[k - 1]] < prio[i]:
                order[k] = order[k - 1]
                k -= 1
            order[k] = i
            no += 1
    for k in range(no):
        i = order[k]
        if tn.alive[i]:  # SHS-6.3
            _resolve_card(st, gt, tn, i, events)
    debris = tn.debris
    for i in range(m):  # SHS-12.1: Shields left in play
        if tn.alive[i]:
            s = tn.seat[i]
            cid = tn.cids[i]
            debris[s] = debris[s] + (cid,)
            if events is not None:
                events.append(_ev("to_debris", {"seat": s, "card": cid, "cause": "turn_end"}))
    st.placed = []
    st.invader = inv = (st.invader + 1) % st.players  # SHS-12.2
    if events is not None:
        events.append(_ev("invader", {"seat": inv}))
    reason = _end_reason(st, gt)  # SHS-13.1
    if reason is None:
        st.turn += 1
    else:
        _end_game(st, gt, reason, events)


cdef object _end_reason(st, GameTables gt):
    """``rules_turn.end_reason``: (a) seven cards played by everyone, (b) planets left <= players (R20)."""
    if st.turn >= gt.max_turns:
        return "seven_cards"
    cdef dict board = st.board
    cdef Py_ssize_t left
    if gt.count_dark:
        left = len(board)
    else:
        left = 0
        for v in board.values():
            if (<tuple?>v)[1] != DARK_LEVEL:
                left += 1
    if left <= st.players:
        return "few_planets"
    return None


cdef void _resolve_card(st, GameTables gt, _Turn tn, int i, list events) except *:
    """``rules_turn.resolve_card`` (SHS-6.4-6.7) for card ``i`` of this turn's placement order."""
    cdef int seat = tn.seat[i]
    cdef str cid = tn.cids[i]
    cdef dict board = tn.board
    cdef bint shelter = gt.shelter
    cdef bint inb[MAXCARDS]  # ``by_cell``: the other cards on the board now
    cdef int j, acting = -1
    cdef bint any_other = False
    for j in range(tn.m):
        inb[j] = tn.alive[j] and j != i
        any_other = any_other or inb[j]
    if events is not None:
        events.append(_ev("resolve", {"seat": seat, "card": cid}))
    cdef tuple targets = gt.target_cells(tn.kinds[i], tn.arrows[i], tn.cells[i])  # SHS-6.4
    if any_other:
        for t in targets:  # SHS-6.5, SHS-9.3: the earliest Shield hit acts
            j = tn.find(t, i, inb)
            if j >= 0 and tn.shield[j] and not (shelter and board[t][0] in gt.dark) and (acting < 0 or j < acting):
                acting = j
    if acting >= 0:
        if gt.shield_planets:  # R8 option: other cards are still destroyed
            for t in targets:
                j = tn.find(t, i, inb)
                if j >= 0 and tn.alive[j] and not tn.shield[j] and not (shelter and board[t][0] in gt.dark):
                    _destroy(st, tn, seat, j, events)
        tn.alive[acting] = False
        tn.alive[i] = False
        dseat = tn.seat[acting]
        conquest = tn.conquest
        conquest[dseat] = conquest[dseat] + (cid, tn.cids[acting])  # SHS-9.2
        if events is not None:
            events.append(_ev("shield", {"attacker": seat, "card": cid, "defender": dseat,
                                         "cell": _xy(tn.cells[acting])}))
        return
    shape = tn.shape
    cdef list emptied = []
    for t in targets:  # SHS-6.6
        if t not in shape:
            if events is not None:
                events.append(_ev("miss", {"cell": _xy(t), "reason": "off_grid"}))
            continue
        here = board.get(t)
        if here is None:
            if events is not None:
                events.append(_ev("miss", {"cell": _xy(t), "reason": "empty"}))
            continue
        j = tn.find(t, i, inb) if any_other else -1
        if j >= 0 and tn.alive[j]:
            if shelter and (<tuple?>here)[0] in gt.dark:
                if events is not None:
                    events.append(_ev("miss", {"cell": _xy(t), "reason": "dark"}))
            else:
                _destroy(st, tn, seat, j, events)  # SHS-8.1, SHS-8.2
            continue
        if (<tuple?>here)[1] == DARK_LEVEL:  # SHS-11.2
            if events is not None:
                events.append(_ev("miss", {"cell": _xy(t), "reason": "dark"}))
            continue
        if _hit(st, gt, tn, seat, t, <tuple?>here, events):  # SHS-7
            emptied.append(t)
    if emptied or tn.lonely:
        _isolate(st, gt, tn, seat, i, emptied, events)  # SHS-6.7, SHS-10
    tn.alive[i] = False
    debris = tn.debris
    debris[seat] = debris[seat] + (cid,)
    if events is not None:
        events.append(_ev("to_debris", {"seat": seat, "card": cid, "cause": "resolved"}))


cdef void _destroy(st, _Turn tn, int seat, int j, list events) except *:
    """``rules_turn._destroy`` (SHS-8.1): another player's card is destroyed into the attacker's debris."""
    tn.alive[j] = False
    cid = tn.cids[j]
    debris = tn.debris
    debris[seat] = debris[seat] + (cid,)
    if events is not None:
        events.append(_ev("destroy", {"card": cid, "owner": tn.seat[j], "cell": _xy(tn.cells[j]), "by": seat}))


cdef bint _hit(st, GameTables gt, _Turn tn, int seat, tuple cell, tuple here, list events) except -1:
    """``rules_turn.hit`` (SHS-7.1-7.5): returns whether the cell was left empty."""
    cdef dict board = tn.board
    pid = here[0]
    cdef int level = here[1]
    if level == 4 or level == 2:
        board[cell] = (pid, level - 1)
        if events is not None:
            events.append(_ev("flip", {"cell": _xy(cell), "planet": pid, "from": level, "to": level - 1}))
        return False
    conquest = tn.conquest
    conquest[seat] = conquest[seat] + (pid,)
    if events is not None:
        events.append(_ev("capture", {"seat": seat, "planet": pid, "cell": _xy(cell), "pile": "conquest",
                                      "cause": "damage"}))
    if level == 3:
        new = _draw_replacement(st, gt)
        if new is not None:
            board[cell] = (new, 2)
            if events is not None:
                events.append(_ev("replace", {"cell": _xy(cell), "planet": new}))
            return False
    del board[cell]
    return True


cdef object _draw_replacement(st, GameTables gt):
    """``rules_turn.draw_replacement`` (R3, R24): a random 1/2 card from the reserve, or None (the reserve's
    positions of its 1/2 planets in a C array)."""
    cdef tuple reserve = st.reserve
    cdef frozenset k12 = gt.k12
    cdef Py_ssize_t k, n = 0, size = len(reserve)
    cdef Py_ssize_t pool[MAXRESERVE]
    if size > MAXRESERVE:  # pragma: no cover - no data file has such a reserve
        raise ValueError("shooting_star.fast: a reserve larger than the replacement draw's array")
    for k in range(size):
        if reserve[k] in k12:
            pool[n] = k
            n += 1
    if n == 0:
        return None
    if n > 1:
        k = pool[_randbelow(st, n)]
    else:
        k = pool[0]
    st.reserve = reserve[:k] + reserve[k + 1:]
    return reserve[k]


cdef void _isolate(st, GameTables gt, _Turn tn, int seat, int i, list emptied, list events) except *:
    """``rules_turn.isolate`` (SHS-10): capture every isolated planet (row-major) into the debris, with any card
    on it; only the emptied cells' neighbours are examined (every cell if the sector has a lonely cell). The
    neighbours are put in row-major order by their places in the shape's ``shape_order`` (itself sorted
    row-major; ``nbrs`` holds only the shape's cells), an insertion sort of at most ``MAXNEAR`` ints."""
    cdef dict board = tn.board
    nbrs = tn.nbrs
    cdef int j, a, b, k, npos = 0
    cdef int pos[MAXNEAR]
    cdef bint dup
    cdef ShapeTables sh
    cdef dict index
    cdef tuple order
    if tn.lonely:
        near = st.shape_order
    else:
        sh = _shape(st, gt)
        index = sh.index
        order = sh.order
        for c in emptied:
            for nb in <tuple?>nbrs[c]:
                k = <int>index[nb]
                dup = False
                for b in range(npos):
                    if pos[b] == k:
                        dup = True
                        break
                if dup:
                    continue
                if npos == MAXNEAR:  # pragma: no cover - more neighbours than any card's targets reach
                    raise ValueError("shooting_star.fast: more neighbours to examine than the array holds")
                a = npos
                while a > 0 and pos[a - 1] > k:
                    pos[a] = pos[a - 1]
                    a -= 1
                pos[a] = k
                npos += 1
        near = [order[pos[a]] for a in range(npos)]
    cdef list lonely = []
    for c in near:
        if c in board:
            for nb in nbrs[c]:
                if nb in board:
                    break
            else:
                lonely.append(c)
    if not lonely:
        return
    debris = tn.debris
    for c in lonely:
        pid = board.pop(c)[0]
        debris[seat] = debris[seat] + (pid,)
        if events is not None:
            events.append(_ev("capture", {"seat": seat, "planet": pid, "cell": _xy(c), "pile": "debris",
                                          "cause": "isolation"}))
        for j in range(tn.m):
            if tn.alive[j] and j != i and tn.cells[j] == c:  # SHS-10.3 / R11; the resolving card goes last (R12)
                tn.alive[j] = False
                cid = tn.cids[j]
                debris[seat] = debris[seat] + (cid,)
                if events is not None:
                    events.append(_ev("to_debris", {"seat": seat, "card": cid, "cause": "isolated"}))


# ---- the end of the game (SHS-13.2) and scoring (SHS-14, SHS-15) ------------------------------------------

cdef void _end_game(st, GameTables gt, str reason, list events) except *:
    """``rules_turn.end_game`` (SHS-13.2): hands to debris, missions revealed, scoring (SHS-14)."""
    if events is not None:
        events.append(_ev("game_end", {"reason": reason}))
    cdef int seat
    cdef int n = st.players
    debris = st.debris
    hands = st.hands
    fac = st.factions
    for seat in range(n):
        for kind in hands[seat]:
            cid = gt.cid(fac[seat], kind)
            debris[seat] = debris[seat] + (cid,)
            if events is not None:
                events.append(_ev("to_debris", {"seat": seat, "card": cid, "cause": "hand"}))
        hands[seat] = ()
    missions = st.missions
    for seat in range(n):
        if events is not None:
            events.append(_ev("missions", {"seat": seat, "ids": list(missions[seat])}))
    st.phase = P_OVER
    st.end = reason
    res = st.res = _rank(_score_all(st, gt), reason)
    breakdown = res.details["breakdown"]
    for seat in range(n):
        if events is not None:
            events.append(_ev("score", {"seat": seat, "breakdown": dict(breakdown[seat])}))


cdef inline bint _key_less(double* a, double* b) noexcept:
    """``tuple(a) < tuple(b)`` of two (points, captured, moons) keys."""
    if a[0] != b[0]:
        return a[0] < b[0]
    if a[1] != b[1]:
        return a[1] < b[1]
    return a[2] < b[2]


cdef object _rank(list breakdown, str reason):
    """``rules_score.rank`` (SHS-14.6) with ``Result.ranked``: most points, then captured cards, then moons;
    seats with equal keys share a tier (sorted), tiers best first; the first tier wins."""
    cdef int n = len(breakdown)
    cdef int i, j, a, t
    if n > MAXCARDS:  # pragma: no cover - more seats than any game has
        raise ValueError("shooting_star.fast: more seats than the ranking's arrays hold")
    cdef double key[MAXCARDS][3]
    cdef int order[MAXCARDS]
    scores = {}
    for i in range(n):
        b = <dict?>breakdown[i]
        scores[i] = key[i][0] = float(b["total"])
        key[i][1] = float(b["captured"])
        key[i][2] = float(b["moon_count"])
        j = i  # insertion by key, highest first (equal keys keep seat order, as the stable sort)
        while j > 0 and _key_less(key[order[j - 1]], key[i]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    tiers = []
    i = 0
    while i < n:
        a = order[i]
        tier = [a]
        j = i + 1
        while j < n and key[order[j]][0] == key[a][0] and key[order[j]][1] == key[a][1] \
                and key[order[j]][2] == key[a][2]:
            tier.append(order[j])
            j += 1
        tiers.append(tuple(tier))  # (in seat order: equal keys were inserted in seat order)
        i = j
    ranking = tuple(tiers)
    return Result(reason, frozenset(ranking[0]), ranking, scores, None,
                  {"breakdown": [dict(<dict?>b) for b in breakdown]})


def rank(list breakdown, str reason):
    """``rules_score.rank(breakdown, reason)`` (``_rank``; for the tests)."""
    return _rank(breakdown, reason)


cdef list _score_all(st, GameTables gt):
    """``rules_score.score_all`` (SHS-14.1-14.6) in one pass over each seat's piles: the planets (ids without
    ``:``) sorted into kinds, names and moons once for all the seat's missions (as ``fast_py.score_all``)."""
    cdef list out = []
    cdef Py_ssize_t most = 0
    cdef int kind, moons, n12, n34, nmoon, ncounted, con_p, deb_p, with_moons, moon_count, total, bonus, pts
    cdef int seat, which
    cdef bint mine
    cdef dict pinfo = gt.pinfo
    cdef dict missions = gt.mission
    debris = st.debris
    conquest = st.conquest
    for d in debris:
        if len(d) > most:
            most = len(d)
    for seat in range(st.players):
        con = conquest[seat]
        deb = debris[seat]
        n12 = n34 = nmoon = ncounted = con_p = deb_p = with_moons = moon_count = 0
        names = set()
        for which in range(2):
            mine = which == 0
            pile = con if mine else deb
            if not mine and not gt.with_debris:  # R17: only the moon count (SHS-14.6) reads the debris then
                for p in deb:
                    if ":" not in p:
                        deb_p += 1
                        moon_count += (<tuple>pinfo[p])[2]
                break
            for p in pile:
                if ":" in p:  # a Destruction card
                    continue
                info = <tuple>pinfo[p]
                kind = info[0]
                moons = info[2]
                moon_count += moons
                if mine:
                    con_p += 1
                    if moons >= 1:
                        with_moons += 1
                else:
                    deb_p += 1
                if kind != KDARK:  # SHS-15.2
                    ncounted += 1
                    if kind == K12:
                        n12 += 1
                    elif kind == K34:
                        n34 += 1
                        names.add(info[1])
                    if moons >= 1:
                        nmoon += 1
        count = None
        mpts = {}
        total = 0
        for mid in st.missions[seat]:  # SHS-14.3, SHS-15
            named, by_found, points, need = <tuple>missions[mid]
            if named:
                pts = by_found[sum([1 for nm in named if nm in names])]
            else:
                if count is None:
                    count = {"planets": ncounted, KIND_12: n12, KIND_34: n34, "moon": nmoon}
                pts = points
                for k, v in need:
                    if count[k] < v:
                        pts = 0
                        break
            mpts[mid] = pts
        for v in mpts.values():
            total += <int>v
        bonus = gt.debris_bonus if len(deb) == most else 0  # SHS-14.4
        cards = len(con) if gt.all_cards else con_p  # SHS-14.1, R16
        out.append({
            "cards": cards,
            "moons": with_moons,  # SHS-14.2, R28
            "missions": mpts,
            "debris": len(deb),
            "debris_bonus": bonus,
            "total": cards + with_moons + total + bonus,
            "captured": len(con) + deb_p,  # SHS-14.6 (1)
            "moon_count": moon_count,  # SHS-14.6 (2)
        })
    return out


# ---- the generator: engine/rng.py's SplitMix64 in 64-bit C arithmetic (the same numbers) ------------------

from cosmodeck.engine.fast_rng import FastRng  # the states' generator (also re-exported here)

from cosmodeck.engine.splitmix cimport below as _below, u64


cdef Py_ssize_t _randbelow(st, Py_ssize_t n) except -1:
    """``st.rng.randbelow(n)`` for n >= 2: in C when the generator is a plain ``Rng`` or ``FastRng``."""
    rng = st.rng
    cdef u64 s
    cdef u64 r
    if type(rng) is FastRng or type(rng) is Rng:
        s = rng.state
        r = _below(&s, <u64>n)
        rng.state = s
        return <Py_ssize_t>r
    return rng.randbelow(n)




# ---- a random bot's move (``RandomBot.act``) without the legal list ------------------------------------------

cdef Py_ssize_t _rng_below(rng, Py_ssize_t n) except -1:
    """``rng.randbelow(n)`` for n >= 1: in C for a plain ``Rng`` or a ``FastRng``."""
    cdef u64 s
    cdef u64 r
    if n == 1:
        return 0
    if type(rng) is Rng or type(rng) is FastRng:
        s = rng.state
        r = _below(&s, <u64>n)
        rng.state = s
        return <Py_ssize_t>r
    return rng.randbelow(n)


cdef object _random_place(st, int seat, rng):
    """``legal[rng.randbelow(len(legal))]`` of ``legal = _legal_place(st, seat)``, without building ``legal``:
    its length is hand x free cells x arrows, and entry r is card r // (free x arrows), free cell
    (r // arrows) % free (row-major), arrow r % arrows. ``None`` when nothing is legal (no draw then)."""
    cdef GameTables gt = _tables(st)
    cdef ShapeTables sh = _shape(st, gt)
    cdef Py_ssize_t n = sh.n
    cdef Py_ssize_t w = sh.w
    cdef Py_ssize_t k, r, per, want, count = 0
    if n > MAXCELLS:  # pragma: no cover - no data file has such a sector
        legal = _fast_py.legal(st, seat)
        return legal[_rng_below(rng, len(legal))] if legal else None
    cdef unsigned char free[MAXCELLS]
    count = _free_cells(st, sh, n, free)
    cdef tuple hand = st.hands[seat]
    per = count * w
    if per == 0 or not hand:
        return None
    r = _rng_below(rng, len(hand) * per)
    row = <tuple>sh.rows[hand[r // per]]
    r = r % per
    want = r // w
    for k in range(n):
        if free[k]:
            if want == 0:
                return row[k * w + r % w]
            want -= 1
    raise AssertionError("shooting_star.fast: a free cell counted but not found")  # pragma: no cover

# ---- setup (SHS-3): ``game._new_state`` with ``rules_setup``'s deal in C, the same draws in the same order -----

DEF MAXP = 256  # planets a compiled deal handles (more: the reference deal)
DEF MAXM = 256  # missions of one point value


cdef inline u64 _mix64(u64 z) noexcept:
    """``engine/rng.py``'s ``mix64``."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void _shuffle(int* a, int n, u64* s) noexcept:
    """``Rng.shuffle`` of a list of ``n`` items (Fisher-Yates, ``randbelow(i + 1)`` for i = n-1 .. 1)."""
    cdef int i, j, t
    i = n - 1
    while i > 0:
        j = <int>_below(s, <u64>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1


cdef class SetupTables:
    """What ``rules_setup``'s deal reads of one game's data and options, as C arrays of planet and mission indices
    (per game; ``ok`` is false when the data has a form the compiled deal does not copy: then the reference deals)."""

    cdef public bint ok
    cdef bint high  # setup_face == "high"
    cdef bint custom  # custom_sector
    cdef bint random_first  # first_player == "random"
    cdef int np, nn, no, nd, k, d, aside_len, per
    cdef tuple pids  # planet ids in planet order
    cdef int others[MAXP]  # ``set_aside_others`` as indices into ``names``
    cdef int shared  # the shared planet's index in ``names``, or -1
    cdef int copy_start[MAXP]  # ``copies[names[i]]``: planet indices copy_list[copy_start[i]:copy_start[i + 1]]
    cdef int copy_list[MAXP]
    cdef int darks[MAXP]  # ``darks`` as planet indices
    cdef bint dark[MAXP]
    cdef int nface[MAXP]
    cdef int face0[MAXP]
    cdef int face1[MAXP]
    cdef int facel[MAXP]
    cdef int by_name[MAXP]  # planet indices in the order of their ids sorted (``sorted``)
    cdef list missions  # per point value: (mission ids, their ranks among all missions sorted)
    cdef tuple mission_sorted  # every mission id in the stacks, sorted
    cdef tuple box0  # ``tuple(sorted(data.missions))``
    cdef dict grids  # players -> GridTables
    cdef object game

    def __init__(self, game):
        data = game.data
        opts = game.options
        self.game = game
        self.high = opts["setup_face"] == "high"
        self.custom = bool(opts["custom_sector"])
        self.random_first = opts["first_player"] == "random"
        self.pids = tuple(data.planet_order)
        self.np = len(self.pids)
        self.nn = len(data.names)
        self.no = len(data.set_aside_others)
        self.nd = len(data.darks)
        self.k = data.set_aside_names
        self.d = data.set_aside_dark
        self.per = data.custom_planets_per_player
        self.grids = {}
        self.box0 = tuple(sorted(data.missions))
        self.ok = (self.np <= MAXP and self.nn < MAXP and self.nd <= MAXP and self.k >= 1 and self.d >= 0
                   and len(set(self.pids)) == self.np)
        if not self.ok:
            return
        index = {p: i for i, p in enumerate(self.pids)}
        names = list(data.names)
        cdef int i, j, pos = 0
        for i in range(self.no):
            self.others[i] = names.index(data.set_aside_others[i])
        self.shared = names.index(data.shared_planet) if data.shared_planet in names else -1
        copied = set()
        for i in range(self.nn):
            self.copy_start[i] = pos
            ids = data.copies[names[i]]
            if not ids or pos + len(ids) > MAXP:
                self.ok = False
                return
            for p in ids:
                self.copy_list[pos] = index[p]
                copied.add(p)
                pos += 1
        self.copy_start[self.nn] = pos
        for i in range(self.nd):
            p = data.darks[i]
            if p in copied:  # a Dark Planet that is also a named copy: the reference's sets dedupe it
                self.ok = False
                return
            self.darks[i] = index[p]
        for i in range(self.np):
            p = self.pids[i]
            f = data.faces[p]
            if not f:
                self.ok = False
                return
            self.dark[i] = p in data.dark_set
            self.nface[i] = len(f)
            self.face0[i] = f[0]
            self.face1[i] = f[1] if len(f) > 1 else f[0]
            self.facel[i] = f[len(f) - 1]
        for j, p in enumerate(sorted(self.pids)):
            self.by_name[j] = index[p]
        # the set-aside pile's length: the shared planet (if named) and k - 1 others, at most k, then the darks
        picked = (1 if self.shared >= 0 else 0) + min(self.k - 1, self.no)
        self.aside_len = min(self.k, picked) + min(self.d, self.nd)
        everyone = sorted(m for ids in data.mission_stacks for m in ids)
        if len(set(everyone)) != len(everyone):
            self.ok = False
            return
        rank = {m: r for r, m in enumerate(everyone)}
        self.mission_sorted = tuple(everyone)
        self.missions = [(tuple(ids), tuple(rank[m] for m in ids)) for ids in data.mission_stacks]
        if any(len(ids) > MAXM for ids in data.mission_stacks):
            self.ok = False

    cdef GridTables grid(self, int players):
        g = self.grids.get(players)
        if g is None:
            g = self.grids[players] = GridTables(self.game, players)
        return <GridTables>g


cdef class GridTables:
    """One player count's grid (``data.grids[players]``): its cells, their up and right neighbours' indices (the
    pairs ``darks_adjacent`` reads) and ``set_shape``'s results for it."""

    cdef int n
    cdef tuple cells
    cdef int up[MAXP]
    cdef int right[MAXP]
    cdef tuple shape_info

    def __init__(self, game, int players):
        cells = tuple(game.data.grids[players])
        self.cells = cells
        self.n = len(cells)
        where = {c: k for k, c in enumerate(cells)}
        cdef int k
        if self.n <= MAXP:
            for k in range(self.n):
                x, y = cells[k]
                self.up[k] = where.get((x + NEIGHBOURS[0][0], y + NEIGHBOURS[0][1]), -1)
                self.right[k] = where.get((x + NEIGHBOURS[1][0], y + NEIGHBOURS[1][1]), -1)
        self.shape_info = tuple(_fast_py.shape_info(game, cells))


cdef int _pile(SetupTables t, u64* s, int size, int* cards, int* rest) except -1:
    """``rules_setup.pile`` (with ``set_aside``): fills ``cards`` (``size`` planet indices, shuffled) and ``rest``
    (the leftovers, in their shuffled order); returns how many leftovers."""
    cdef int others[MAXP]
    cdef int aside[MAXP]
    cdef int darks[MAXP]
    cdef bint picked[MAXP]
    cdef bint used[MAXP]
    cdef int i, j, m, na = 0, nr = 0, nc, first
    for i in range(t.no):
        others[i] = t.others[i]
    _shuffle(others, t.no, s)
    for i in range(t.nn):
        picked[i] = False
    if t.shared >= 0:
        picked[t.shared] = True
    for i in range(min(t.k - 1, t.no)):
        picked[others[i]] = True
    for i in range(t.nn):  # the picked names in data order, at most k; one random copy of each
        if picked[i] and na < t.k:
            first = t.copy_start[i]
            m = t.copy_start[i + 1] - first
            aside[na] = t.copy_list[first + (<int>_below(s, <u64>m) if m > 1 else 0)]
            na += 1
    for i in range(t.nd):
        darks[i] = t.darks[i]
    _shuffle(darks, t.nd, s)
    for i in range(min(t.d, t.nd)):
        aside[na] = darks[i]
        na += 1
    for i in range(t.np):
        used[i] = False
    for i in range(na):
        used[aside[i]] = True
    for i in range(t.np):
        if not used[i]:
            rest[nr] = i
            nr += 1
    _shuffle(rest, nr, s)
    nc = size - na  # (size >= na: checked by the caller)
    if nc > nr:
        nc = nr
    for i in range(na):
        cards[i] = aside[i]
    for i in range(nc):
        cards[na + i] = rest[i]
    _shuffle(cards, na + nc, s)
    j = 0
    for i in range(nc, nr):
        rest[j] = rest[i]
        j += 1
    return j


cdef tuple _sorted_ids(SetupTables t, int* idx, int n):
    """``tuple(sorted(ids))`` of planet indices ``idx[:n]``."""
    cdef bint mark[MAXP]
    cdef int i, p
    for i in range(t.np):
        mark[i] = False
    for i in range(n):
        mark[idx[i]] = True
    out = []
    pids = t.pids
    for i in range(t.np):
        p = t.by_name[i]
        if mark[p]:
            out.append(pids[p])
    return tuple(out)


cdef int _deal_grid(st, SetupTables t, GridTables g, u64* s) except -1:
    """``rules_setup.deal_grid`` (SHS-3.2-3.5): deal, redeal while two Dark Planets touch (SHS-3.4)."""
    cdef int cards[MAXP]
    cdef int rest[MAXP]
    cdef int face[MAXP]
    cdef int n = g.n, nr, k, p, q
    cdef bint touch = True
    while touch:
        nr = _pile(t, s, n, cards, rest)
        for k in range(n):  # ``face`` of each card, in cell order
            p = cards[k]
            if t.nface[p] == 1:
                face[k] = t.face0[p]
            elif t.high:
                face[k] = t.facel[p]
            else:
                face[k] = t.face1[p] if _below(s, 2) else t.face0[p]
        touch = False
        for k in range(n):  # ``darks_adjacent``
            if t.dark[cards[k]]:
                q = g.up[k]
                if q >= 0 and t.dark[cards[q]]:
                    touch = True
                    break
                q = g.right[k]
                if q >= 0 and t.dark[cards[q]]:
                    touch = True
                    break
    board = {}
    cells = g.cells
    pids = t.pids
    for k in range(n):
        board[cells[k]] = (pids[cards[k]], face[k])
    st.board = board
    st.reserve = _sorted_ids(t, rest, nr)
    st.shape, st.shape_order, st.nbrs, st.lonely = g.shape_info
    return 0


cdef int _deal_missions(st, SetupTables t, int players, u64* s) except -1:
    """``rules_setup.deal_missions`` (SHS-3.7-3.8): one mission of each value per player, the rest to the box."""
    cdef int idx[MAXM]
    cdef bint inbox[MAXP * 2]
    cdef int i, j, m, total = len(t.mission_sorted)
    hands = [[] for _ in range(players)]
    for i in range(total):
        inbox[i] = False
    for ids, ranks in t.missions:
        m = len(ids)
        for i in range(m):
            idx[i] = i
        _shuffle(idx, m, s)
        for j in range(players):
            hands[j].append(ids[idx[j]])
        for i in range(players, m):
            inbox[<int>ranks[idx[i]]] = True
    st.missions = [tuple(h) for h in hands]
    srt = t.mission_sorted
    st.box = tuple([srt[i] for i in range(total) if inbox[i]])
    return 0


cdef int _deal_custom(st, SetupTables t, int players, u64* s) except -1:
    """``rules_setup.deal_custom`` (SHS-16.1): a pile of 6N planets dealt 6 to each player; the rest the reserve."""
    cdef int cards[MAXP]
    cdef int rest[MAXP]
    cdef bint mark[MAXP]
    cdef int per = t.per, nr, i, j
    nr = _pile(t, s, per * players, cards, rest)
    pids = t.pids
    hands = []
    for j in range(players):  # each hand sorted by planet order
        for i in range(t.np):
            mark[i] = False
        for i in range(j * per, (j + 1) * per):
            mark[cards[i]] = True
        hands.append(tuple([pids[i] for i in range(t.np) if mark[i]]))
    st.planet_hands = hands
    st.reserve = _sorted_ids(t, rest, nr)
    st.board = {}
    st.set_shape(())
    return 0


cdef SetupTables _setup_tables(game):
    t = game.setup_tables
    if t is None:
        t = game.setup_tables = SetupTables(game)
    return <SetupTables>t


def new_state(game, int players, seed):
    """``ShootingStarGame._new_state`` for ``FastShootingStarState`` (the caller checked ``players`` and ``seed``):
    the same attributes in the same order, every random draw the same; ``None`` when the data or options take
    a form this deal does not copy (then the caller runs the reference)."""
    cdef SetupTables t = _setup_tables(game)
    if not t.ok:
        return None
    cdef int size
    cdef GridTables g = None
    if t.custom:
        size = t.per * players
        if t.per < 0 or size > t.np:
            return None
    else:
        g = t.grid(players)
        size = g.n
        if size > t.np:
            return None
    if size < t.aside_len or t.np > MAXP or len(t.mission_sorted) > 2 * MAXP:
        return None
    for ids, _ in t.missions:
        if len(ids) < players:
            return None
    data = game.data
    options = game.options
    chosen = options["factions"]
    st = _new(FastShootingStarState)
    st.game = game
    st.players = players
    st.seed = seed
    cdef u64 s = _mix64(<u64>(seed & 0xFFFFFFFFFFFFFFFF))
    rng = st.rng = FastRng(raw_state=s)
    st.now = 0.0
    st._log = None
    if chosen is not None and len(chosen) != players:
        raise OptionError(f"option 'factions' names {len(chosen)} factions for {players} players (R29)")
    st.factions = tuple(chosen) if chosen is not None else tuple([f.id for f in data.factions[:players]])
    if t.random_first:
        st.invader = <int>_below(&s, <u64>players) if players > 1 else 0
    else:
        st.invader = _first_player(options, players, rng)
        s = rng.state
    st.turn = 1
    st.hands = [data.card_order] * players  # SHS-3.6
    st.conquest = [()] * players
    st.debris = [()] * players
    st.placed = []
    st.planet_hands = [()] * players
    st.forced = ()
    st.missions = [()] * players
    st.box = t.box0
    st.end = None
    st.res = None
    if t.custom:
        _deal_custom(st, t, players, &s)
        st.phase = P_SECTOR
        st.sector_next = st.invader
    else:
        _deal_grid(st, t, g, &s)
        _deal_missions(st, t, players, &s)
        st.phase = P_PLACE
        st.sector_next = -1
    rng.state = s
    return st


_NOT_TAKEN = object()  # ``_try_place``: the move is not the compiled placement's (the base class's ``apply``)


cdef object _try_place(st, seat, action, bint record):
    """``apply(seat, action)`` (no time) on the compiled placement: a ``Place`` whose fields have exactly the
    declared types (``str``, a tuple of two ``int``, ``str``) in the placement phase, with ``_precheck``'s checks
    inline (the seat is the one to act, the card is in its hand, the cell has a planet and no card, the arrow is
    allowed); then ``_place`` (its events, or ``None`` when not ``record``) and the record's entry. Anything else,
    or any check failing, returns ``_NOT_TAKEN`` with nothing changed: the base class's ``apply`` decides (the
    same errors). Each of the state's fields is read once."""
    if type(action) is not Place or type(seat) is not int or st.res is not None or st.phase != P_PLACE:
        return _NOT_TAKEN
    card = (<object>action).card
    cell = (<object>action).cell
    arrow = (<object>action).orientation
    if not (type(card) is str and type(arrow) is str and type(cell) is tuple and len(cell) == 2
            and type(cell[0]) is int and type(cell[1]) is int):
        return _NOT_TAKEN
    cdef int n = st.players
    placed = st.placed
    if not (0 <= seat < n and seat == (st.invader + len(placed)) % n):
        return _NOT_TAKEN
    hands = st.hands
    game = st.game
    if card not in hands[seat] or cell not in st.board or arrow not in game.arrows:
        return _NOT_TAKEN
    for p in placed:
        if p[2] == cell:
            return _NOT_TAKEN
    gt = game.compiled_tables
    if gt is None:
        gt = game.compiled_tables = GameTables(game)
    events = _place(st, <GameTables>gt, hands, placed, n, seat, card, cell, arrow, record)
    st._log = (st._log, (st.now, seat, action))
    return events


# ---- the state ----------------------------------------------------------------------------------------------

class FastShootingStarState(ShootingStarState):
    """A Shooting Star state whose placement phase is compiled (module docs)."""

    _cshape = None  # the sector shape's ShapeTables (immutable, shared by clones)

    def __init__(self, game, players, seed):
        ShootingStarState.__init__(self, game, players, seed)
        self.rng = FastRng(raw_state=self.rng.state)

    def _copy_into(self, o):
        ShootingStarState._copy_into(self, o)
        if type(o.rng) is Rng:
            o.rng = FastRng(raw_state=o.rng.state)

    def _load(self, core):
        ShootingStarState._load(self, core)
        if type(self.rng) is Rng:
            self.rng = FastRng(raw_state=self.rng.state)

    @property
    def is_over(self):
        return self.res is not None

    @property
    def to_act(self):
        if self.res is not None:
            return _EMPTY
        if self.phase == P_PLACE:
            seat = (self.invader + len(self.placed)) % self.players
            return _ONE[seat] if seat < 16 else frozenset((seat,))
        return ShootingStarState._to_act(self)

    def legal_actions(self, seat):
        if type(seat) is int and self.res is None and self.phase == P_PLACE and 0 <= seat < self.players:
            if seat == (self.invader + len(self.placed)) % self.players:
                return _legal_place(self, seat)
            return []
        return ShootingStarState.legal_actions(self, seat)

    def _legal(self, seat):
        if self.phase == P_PLACE:
            return _legal_place(self, seat)
        return ShootingStarState._legal(self, seat)

    def apply(self, seat, action, at=None):
        if at is None:
            events = _try_place(self, seat, action, True)
            if events is not _NOT_TAKEN:
                return events
        return ShootingStarState.apply(self, seat, action, at)

    def apply_quiet(self, seat, action):
        """``apply(seat, action)`` for a caller that reads no events (the RL environments: ``rl/encoders/
        shooting_star_fast.pyx``'s ``act``): the same checks, errors, state and record, and ``None`` instead of
        the events; a placement that takes the compiled path builds no event at all."""
        if _try_place(self, seat, action, False) is _NOT_TAKEN:
            ShootingStarState.apply(self, seat, action)
        return None

    def play_random(self, int seat, rng, bint events=False):
        """The plain random bot's move for ``seat``, the one to act in the placement phase: ``apply(seat,
        legal[rng.randbelow(len(legal))])`` with ``legal = legal_actions(seat)`` (``RandomBot.act``), the same draw
        and the same action, without building ``legal``; returns ``True`` (no event built), or its events with
        ``events=True``. ``None`` (nothing drawn, nothing changed) when the game is over, not in the placement
        phase, ``seat`` is not to act or has no legal move: the caller then takes the legal list's way."""
        if self.res is not None or self.phase != P_PLACE or seat != (self.invader + len(self.placed)) % self.players:
            return None
        action = _random_place(self, seat, rng)
        if action is None:
            return None
        out = _place_st(self, seat, action.card, action.cell, action.orientation, events)
        self._log = (self._log, (self.now, seat, action))
        return out if events else True

    def _do(self, seat, action):
        if type(action) is Place and self.phase == P_PLACE:
            return _place_st(self, seat, action.card, action.cell, action.orientation, True)
        return ShootingStarState._do(self, seat, action)
