# cython: language_level=3
"""``view.build`` and ``view.build_keys`` compiled: the same code as the readable ``view.build_py`` and
``view.build_keys_py`` (with ``_Shared.grid`` and ``_Shared.hand_entry``, whose kept entries they read and fill
in the same way), which run when this extension is not built. ``tests/shooting_star/test_view_shared.py`` and
``test_view_keys.py`` check both against the views built afresh on every step of seeded games."""

from cosmodeck.games.shooting_star.cards import DARK_LEVEL, card_id
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER
from cosmodeck.games.shooting_star.rules_turn import planets_left
from cosmodeck.games.shooting_star.view import BOT_KEYS as _BOT_KEYS, CHEAP_KEYS, MAX_GRIDS, MAX_SHARED, _shared

from collections.abc import Mapping


def _yx(c):
    return (c[1], c[0])


cdef tuple _grid(sh, st):
    """``_Shared.grid``."""
    cdef dict board = st.board
    order = st.shape_order or tuple(sorted(board, key=_yx))
    key = (order, tuple(board), tuple(board.values()))
    last = sh.last
    if last is not None and last[0] == key:
        return last[1]
    cdef dict kept = sh.cells
    hit = kept.get(key)
    if hit is not None:
        sh.last = (key, hit)
        return hit
    planets = st.game.data.planets
    cdef list cells = []
    cdef dict entries = sh.cell
    if len(entries) >= MAX_SHARED:
        entries.clear()
    for c in order:
        here = board.get(c)
        cell = entries.get((c, here))
        if cell is None:
            cell = {"x": c[0], "y": c[1], "planet": None}
            if here is not None:
                p = planets[here[0]]
                cell.update(planet=p.id, kind=p.kind, level=None if here[1] == DARK_LEVEL else here[1],
                            name=p.name, moons=p.moons)
            cell["card"] = None
            entries[(c, here)] = cell
        cells.append(cell)
    xs = [c[0] for c in order] or [0]
    ys = [c[1] for c in order] or [0]
    hit = (cells, {c: i for i, c in enumerate(order)}, [min(xs), min(ys), max(xs), max(ys)])
    if len(kept) >= MAX_GRIDS:
        kept.clear()
    kept[key] = hit
    sh.last = (key, hit)
    return hit


cdef tuple _board(st, seat, sh):
    fac = st.factions
    cells, index, bounds = _grid(sh, st)
    cdef list placed = []
    cdef dict facedown = {}
    cdef Py_ssize_t k = 0
    cdef list lst = st.placed
    if lst:
        cells = list(cells)
        for s, kind, cell, arrow in lst:
            entry = {"seat": s, "cell": [cell[0], cell[1]], "orientation": arrow, "order": k + 1,
                     "card": card_id(fac[s], kind) if s == seat else None}
            k += 1
            placed.append(entry)
            facedown[s] = kind
            i = index.get(cell)
            if i is not None:
                cells[i] = {**cells[i], "card": dict(entry)}
    return {"cells": cells, "bounds": bounds}, placed, facedown


cdef list _hands(st, seat, sh, dict facedown):
    """``[sh.hand_entry(st, s, s == seat, facedown.get(s)) for s in range(st.players)]``."""
    cdef list out = []
    cdef dict kept = sh.hand
    hands = st.hands
    for s in range(st.players):
        hand = hands[s]
        mine = s == seat
        down = facedown.get(s)
        key = (s, hand, mine, down)
        entry = kept.get(key)
        if entry is None:
            entry = {"seat": s, "count": len(hand), "cards": list(hand) if mine else None,
                     "used": sh.used_cards(st, hand, down)}
            if len(kept) >= MAX_SHARED:
                kept.clear()
            kept[key] = entry
        out.append(entry)
    return out


cdef list _missions(st, seat, sh):
    over = st.phase == PHASE_OVER
    missions = st.missions
    return [sh.mission_list(st, missions[s]) if over or s == seat else None for s in range(st.players)]


def build(st, seat):
    """``view.build_py``."""
    data = st.game.data
    sh = _shared(st)
    grid, placed, facedown = _board(st, seat, sh)
    out = {
        "phase": st.phase,
        "turn": st.turn,
        "max_turns": data.max_cards_played,
        "invader": st.invader,
        "orientations": sh.orientations,
        "factions": sh.faction_list(st),
        "grid": grid,
        "planets_left": planets_left(st),
        "placed": placed,
        "hands": _hands(st, seat, sh, facedown),
        "conquest": [list(p) for p in st.conquest],
        "debris": [list(p) for p in st.debris],
        "reserve": len(st.reserve),
        "missions": _missions(st, seat, sh),
        "card_set": sh.card_set,
        "end_reason": st.end,
        "scores": None if st.res is None else st.res.details["breakdown"],
    }
    if st.game.options["custom_sector"]:
        out["planet_hands"] = [{"seat": s, "count": len(h), "planets": list(h) if s == seat else None}
                               for s, h in enumerate(st.planet_hands)]
        out["sector_next"] = st.sector_next if st.sector_next >= 0 else None
    return out


def build_keys(st, seat, keys):
    """``view.build_keys_py``."""
    if not keys <= CHEAP_KEYS:
        full = st.view(seat)
        return {k: v for k, v in full.items() if k in keys}
    if seat is not None and (type(seat) is not int or not 0 <= seat < st.players):
        st.view(seat)  # the whole view's own error for a bad seat
    sh = _shared(st)
    out = {}
    if "players" in keys:
        out["players"] = st.players
    if "seat" in keys:
        out["seat"] = seat
    facedown = None
    if "grid" in keys or "placed" in keys or "hands" in keys:
        grid, placed, facedown = _board(st, seat, sh)
        if "grid" in keys:
            out["grid"] = grid
        if "placed" in keys:
            out["placed"] = placed
    if "hands" in keys:
        out["hands"] = _hands(st, seat, sh, facedown)
    if "conquest" in keys:
        out["conquest"] = [list(p) for p in st.conquest]
    if "debris" in keys:
        out["debris"] = [list(p) for p in st.debris]
    if "missions" in keys:
        out["missions"] = _missions(st, seat, sh)
    return out


cdef tuple _shape_bounds(sh, st):
    """The grid's ``bounds`` (``_Shared.grid``'s), kept per shape object (by identity: the kept entry holds it)."""
    order = st.shape_order
    if not order:
        return tuple(_grid(sh, st)[2])
    got = sh.bounds.get(id(order))
    if got is None or got[0] is not order:
        xs = [c[0] for c in order]
        ys = [c[1] for c in order]
        got = (order, (min(xs), min(ys), max(xs), max(ys)))
        if len(sh.bounds) >= MAX_SHARED:
            sh.bounds.clear()
        sh.bounds[id(order)] = got
    return got[1]


cdef object _used_bits(sh, st, hand, down):
    """``sh.used_cards(st, hand, down)`` as bits of ``card_order`` (bit i: its card i is used), kept per hand object
    (by identity: the kept entry holds it) and face-down card."""
    key = (id(hand), down)
    got = sh.used_bits.get(key)
    if got is None or got[0] is not hand:
        gone = set(hand) if down is None else {*hand, down}
        bits = 0
        for i, k in enumerate(st.game.data.card_order):
            if k not in gone:
                bits |= 1 << i
        got = (hand, bits)
        if len(sh.used_bits) >= MAX_SHARED:
            sh.used_bits.clear()
        sh.used_bits[key] = got
    return got[1]


class _Frozen:
    """What ``build_keys`` reads of a state, as it was when a ``BotView`` was made (its containers copied; the
    tuples inside them are never changed in place)."""

    __slots__ = ("game", "players", "shape_order", "factions", "phase", "board", "placed", "hands", "conquest",
                 "debris", "missions")

    def view(self, seat):  # pragma: no cover - a ``BotView``'s seat is checked when it is made
        raise ValueError("a bot's view is a seat's")


cdef class BotView:
    """``view.bot_view`` compiled: the projection of ``seat``'s view on ``view.BOT_KEYS``, a read-only mapping whose
    entries (``build_keys``'s, in the whole view's order) are built when first read from the state as it was when
    the view was made (its containers are copied then), and whose parts the compiled heuristic reads in C without
    building them: the grid's planets and levels and its bounds, each placed card's seat, cell and arrow, each
    seat's used cards (bits), this seat's mission ids and its conquest and debris piles (exactly what those
    entries show: ``tests/shooting_star/test_view_bot.py``). Its state is not readable from Python."""

    def __cinit__(self, st, seat):
        if type(seat) is not int or not 0 <= <long>seat < <long>st.players:
            st.view(seat)  # the whole view's own error for a bad seat
            raise ValueError("a bot's view is a seat's")
        self.seat = seat
        self.got = None
        sh = _shared(st)
        cdef int players = st.players
        # the state's parts the entries show, its containers copied (``_Frozen``, made when an entry is read)
        self.st = st.game
        self.players = players
        self.shape_order = st.shape_order
        self.factions = st.factions
        self.phase = st.phase
        self.board = dict(<dict>st.board)
        self.placed = list(st.placed)
        self.hands = hands = list(st.hands)
        self.all_conquest = list(st.conquest)
        self.all_debris = list(st.debris)
        self.missions = list(st.missions)
        self.bx0, self.by0, self.bx1, self.by1 = _shape_bounds(sh, st)
        cdef list lst = self.placed
        cdef Py_ssize_t n = len(lst)
        self.ok = n <= BV_MAXP
        if not self.ok:
            return
        self.nplaced = <int>n
        facedown = {}
        arrows = []
        cdef int k = 0
        for s, kind, cell, arrow in lst:
            self.pseat[k] = s
            self.px[k] = cell[0]
            self.py[k] = cell[1]
            arrows.append(arrow)
            facedown[s] = kind
            k += 1
        self.parrow = arrows
        self.used = [_used_bits(sh, st, hands[s], facedown.get(s)) for s in range(players)]
        self.mids = self.missions[seat]
        self.conquest = self.all_conquest[seat]
        self.debris = self.all_debris[seat]

    def parts(self):
        """What the compiled heuristic reads in C, as Python values (for the tests: each is what the entries show),
        or ``None`` when it is not filled (the heuristic reads the mapping)."""
        if not self.ok:
            return None
        return {"players": self.players, "board": dict(self.board), "bounds": [self.bx0, self.by0, self.bx1, self.by1],
                "placed": [(self.pseat[k], (self.px[k], self.py[k]), self.parrow[k]) for k in range(self.nplaced)],
                "used": list(self.used), "missions": tuple(self.mids), "conquest": tuple(self.conquest),
                "debris": tuple(self.debris)}

    cdef dict _mapping(self):
        if self.got is None:
            fr = _Frozen()
            fr.game = self.st
            fr.players = self.players
            fr.shape_order = self.shape_order
            fr.factions = self.factions
            fr.phase = self.phase
            fr.board = self.board
            fr.placed = self.placed
            fr.hands = self.hands
            fr.conquest = self.all_conquest
            fr.debris = self.all_debris
            fr.missions = self.missions
            self.got = build_keys(fr, self.seat, _BOT_KEYS)
        return self.got

    def __getitem__(self, key):
        return self._mapping()[key]

    def __iter__(self):
        return iter(self._mapping())

    def __len__(self):
        return len(self._mapping())

    def __contains__(self, key):
        return key in self._mapping()

    def get(self, key, default=None):
        return self._mapping().get(key, default)

    def keys(self):
        return self._mapping().keys()

    def values(self):
        return self._mapping().values()

    def items(self):
        return self._mapping().items()

    def __eq__(self, other):
        return self._mapping() == (other._mapping() if isinstance(other, BotView) else other)

    __hash__ = None

    def __repr__(self):
        return f"BotView({self._mapping()!r})"


Mapping.register(BotView)


def bot_view(st, seat):
    """``view.bot_view_py`` compiled: a ``BotView``."""
    return BotView(st, seat)
