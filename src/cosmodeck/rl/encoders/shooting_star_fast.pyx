# cython: language_level=3
"""Shooting Star's observation and mask written by compiled code: exactly ``shooting_star_direct``'s.

``ShootingStarDirect`` (the readable direct path) builds one ``CompiledWriter`` when this extension was
built; the environments then write observations and masks through it into their NumPy rows. It reads the
same state fields through the same information filter (SHS-D2) as ``ShootingStarDirect.write`` and
``fill_mask``, and copies each of their lines (the comments name them), with the encoder's lookups turned
into C arrays once per encoder: planets by id (kind, moons, name), missions by id (catalog index, points,
named names, need), cells by coordinates. ``tests/rl/test_direct.py`` proves it equal to the readable path
and to encoding ``view(seat)`` on random states of every player count.
"""

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.string cimport memset
from cosmodeck.rl.encoders.scale cimport ratio as _ratio, rel as _rel

import numpy as _np

from cosmodeck.games.shooting_star.cards import DARK_LEVEL as _DARK_LEVEL
from cosmodeck.games.shooting_star.rules_setup import PHASE_PLACE as _PHASE_PLACE

DEF MAXCELLS = 256  # grid cells of one player count (the data's largest has far fewer)
DEF MAXGRID = 4096  # the grid's bounding box (x span * y span)
DEF MAXSEATS = 16
DEF MAXCARDS = 64  # card types of the card set
DEF MAXNAMES = 512  # distinct planet and mission names
DEF MAXHELD = 32  # missions one seat holds

cdef int DARK_LEVEL = _DARK_LEVEL
cdef object _empty = _np.empty
cdef object _zeros = _np.zeros
cdef object _F32 = _np.dtype(_np.float32)
cdef object _I8 = _np.dtype(_np.int8)
cdef str PHASE_PLACE = _PHASE_PLACE
# the need keys of ``ShootingStarEncoder._progress``
DEF NEED_PLANETS = 0
DEF NEED_12 = 1
DEF NEED_34 = 2
DEF NEED_MOON = 3
DEF NEED_OTHER = 4




cdef class CompiledWriter:
    """One encoder's observation layout and catalog as C tables; ``write`` and ``fill_mask`` as the readable
    ``ShootingStarDirect.write`` and ``fill_mask``."""

    cdef int n, k, nm, g, na, max_turns, hand_size
    cdef int o_turn, o_invader, o_to_act, o_placed_count, o_cell_planet, o_cell_kind, o_cell_level, o_cell_moon
    cdef int o_cell_name, o_owner, o_ctype, o_arrow, o_order, o_hand_mine, o_hand_count, o_used, o_conquest
    cdef int o_debris, o_names, o_missions_mine, o_progress, o_reserve, o_planets_left, o_over
    cdef dict card_index  # card kind -> card-set index
    cdef dict arrow_index  # "N" "E" "S" "W" -> 0..3 (``ARROWS.index``)
    cdef dict planet  # planet id -> (kind index in KINDS, moons, name index or -1, name id or -1)
    cdef dict mission  # mission id -> (catalog index or -1, points, named name ids, need as (key code, value))
    cdef bint count_dark  # ``planets_left``: the option end_count_includes_dark of ``game_seen``
    cdef object game_seen  # the game of the last state written (identity)
    cdef int x0, y0, gw, gh
    cdef int grid[MAXGRID]  # (y - y0) * gw + (x - x0) -> cell index, or -1
    cdef object shape_seen  # the last sector shape whose cells ``in_shape`` holds (identity)
    cdef unsigned char in_shape[MAXCELLS]
    cdef tuple cells
    cdef tuple cards
    cdef int num_actions

    def __init__(self, direct):
        enc = direct.enc
        off = direct.off
        self.n, self.k, self.nm, self.g, self.na = direct.n, direct.k, direct.nm, direct.g, direct.na
        if (self.n > MAXSEATS or self.k > MAXCARDS or self.g > MAXCELLS or len(enc.arrows) > 4
                or len(enc.names) > MAXNAMES):
            raise ValueError("shooting_star_fast: the layout is larger than this module's tables")
        self.max_turns = enc.max_turns
        self.hand_size = enc.hand_size
        self.o_turn, self.o_invader, self.o_to_act = off["turn"], off["invader"], off["to_act"]
        self.o_placed_count, self.o_cell_planet, self.o_cell_kind = off["placed_count"], off["cell_planet"], \
            off["cell_kind"]
        self.o_cell_level, self.o_cell_moon, self.o_cell_name = off["cell_level"], off["cell_moon"], off["cell_name"]
        self.o_owner, self.o_ctype, self.o_arrow, self.o_order = off["cell_card_owner"], off["cell_card_type"], \
            off["cell_card_arrow"], off["cell_card_order"]
        self.o_hand_mine, self.o_hand_count, self.o_used = off["hand_mine"], off["hand_count"], off["used"]
        self.o_conquest, self.o_debris, self.o_names = off["conquest"], off["debris"], off["names_captured"]
        self.o_missions_mine, self.o_progress = off["missions_mine"], off["mission_progress"]
        self.o_reserve, self.o_planets_left, self.o_over = off["reserve"], off["planets_left"], off["over"]
        self.card_index = dict(enc.card_index)
        self.arrow_index = {a: i for i, a in enumerate(("N", "E", "S", "W"))}
        data = enc.data
        name_id: dict = {}
        for p in data.planets.values():
            if p.name is not None:
                name_id.setdefault(p.name, len(name_id))
        for m in data.missions.values():
            for x in m.named:
                name_id.setdefault(x, len(name_id))
        if len(name_id) > MAXNAMES:
            raise ValueError("shooting_star_fast: more names than this module's tables")
        kinds = ("12", "34", "dark")
        self.planet = {}
        for pid, p in data.planets.items():
            j = enc.name_index.get(p.name) if p.name is not None else None
            self.planet[pid] = (kinds.index(p.kind), 1 if p.moons else 0, -1 if j is None else j,
                                name_id[p.name] if p.name is not None else -1)
        codes = {"planets": NEED_PLANETS, "12": NEED_12, "34": NEED_34, "moon": NEED_MOON}
        self.mission = {}
        for mid, m in data.missions.items():
            self.mission[mid] = (enc.mission_index.get(mid, -1), m.points, tuple(name_id[x] for x in m.named),
                                 tuple((codes.get(key, NEED_OTHER), int(v)) for key, v in m.need.items()))
        self.game_seen = None
        self.count_dark = True
        self.cards = tuple(enc.cards)
        self.num_actions = enc.num_actions
        cells = tuple(enc.cells)
        self.cells = cells
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        self.x0, self.y0 = min(xs), min(ys)
        self.gw, self.gh = max(xs) - self.x0 + 1, max(ys) - self.y0 + 1
        if self.gw * self.gh > MAXGRID:
            raise ValueError("shooting_star_fast: the grid is larger than this module's tables")
        cdef int i
        for i in range(self.gw * self.gh):
            self.grid[i] = -1
        for i, c in enumerate(cells):
            self.grid[(c[1] - self.y0) * self.gw + (c[0] - self.x0)] = i
        self.shape_seen = None

    cdef inline int cell_of(self, object cell):
        """``enc.cell_index.get(cell)``, ``-1`` for a cell outside the grid."""
        cdef tuple c = <tuple?>cell
        cdef long x = <long>c[0] - self.x0
        cdef long y = <long>c[1] - self.y0
        if x < 0 or y < 0 or x >= self.gw or y >= self.gh:
            return -1
        return self.grid[y * self.gw + x]

    cdef void see_shape(self, object shape) except *:
        """``in_shape[i]``: grid cell ``i`` is in the sector shape ``shape`` (once per shape object)."""
        if shape is self.shape_seen:
            return
        cdef int i
        for i in range(self.g):
            self.in_shape[i] = 1 if self.cells[i] in shape else 0
        self.shape_seen = shape

    def write(self, st, int me, float[::1] out, bint clear=True):
        """``ShootingStarDirect.write(st, me, out)`` into ``out`` (zeroed first unless ``clear`` is false)."""
        if out.shape[0] != (self.o_over + 1):
            raise ValueError("shooting_star_fast: the row is not the observation's length")
        self._write(st, me, &out[0], clear)

    cdef int _write(self, st, int me, float* out, bint clear) except -1:
        """``write`` into ``out`` (the observation's length)."""
        cdef int n = self.n, k = self.k, nm = self.nm
        cdef int s, r, i, j, num, lvl, kind, pk, held_n, a, b, t, cnt
        cdef int facedown[MAXSEATS]
        cdef unsigned char gone[MAXCARDS]
        cdef unsigned char found[MAXNAMES]
        cdef int m_pts[MAXHELD]
        cdef int m_at[MAXHELD]
        cdef int have[5]
        cdef double v, lowest
        cdef Py_ssize_t ncq, ndb
        cdef int pl, moons, k12, k34, dark, real
        if clear:
            memset(out, 0, (self.o_over + 1) * sizeof(float))
        t = st.turn - 1
        if 0 <= t < self.max_turns:
            out[self.o_turn + t] = 1.0
        out[self.o_invader + _rel(st.invader, me, n)] = 1.0
        for s in st.to_act:
            out[self.o_to_act + _rel(s, me, n)] = 1.0
        cdef list placed = st.placed
        out[self.o_placed_count] = _ratio(len(placed), n)
        cdef dict board = st.board
        cdef bint by_shape = len(st.shape_order) > 0  # ``shown = st.shape if st.shape_order else st.board``
        if by_shape:
            self.see_shape(st.shape)
        cdef dict planet = self.planet
        cdef tuple info
        for cell, here in board.items():  # ``_board_slots`` / ``_planet_slots``
            i = self.cell_of(cell)
            if i < 0 or (by_shape and not self.in_shape[i]):
                continue  # (without a shape, ``shown`` is the board: every board cell is shown)
            info = <tuple?>planet[(<tuple?>here)[0]]
            lvl = (<tuple?>here)[1]
            out[self.o_cell_planet + i] = 1.0
            out[self.o_cell_kind + i * 3 + <int>info[0]] = 1.0
            if lvl != DARK_LEVEL:
                out[self.o_cell_level + i * 4 + lvl - 1] = 1.0
            if <int>info[1]:
                out[self.o_cell_moon + i] = 1.0
            j = info[2]
            if j >= 0:
                out[self.o_cell_name + i * nm + j] = 1.0
        cdef dict card_index = self.card_index
        for s in range(n):
            facedown[s] = -1
        num = 0
        for p in placed:  # the cards on the board this turn
            s = (<tuple?>p)[0]
            kind = card_index[(<tuple?>p)[1]]
            facedown[s] = kind
            cell = (<tuple?>p)[2]
            num += 1
            i = self.cell_of(cell)
            if i < 0 or not (self.in_shape[i] if by_shape else cell in board):
                continue
            out[self.o_owner + i * n + _rel(s, me, n)] = 1.0
            if s == me:
                out[self.o_ctype + i * k + kind] = 1.0
            out[self.o_arrow + i * 4 + <int>self.arrow_index[(<tuple?>p)[3]]] = 1.0
            out[self.o_order + i] = _ratio(num, n)
        hands = st.hands
        for c in hands[me]:
            out[self.o_hand_mine + <int>card_index[c]] = 1.0
        conquest, debris = st.conquest, st.debris
        for j in range(5):
            have[j] = 0
        memset(found, 0, MAXNAMES)
        for s in range(n):
            r = _rel(s, me, n)
            hand = <tuple?>hands[s]
            out[self.o_hand_count + r] = _ratio(len(hand), self.hand_size)
            if len(hand) + (facedown[s] >= 0) < k:
                memset(gone, 0, k)
                for c in hand:
                    gone[<int>card_index[c]] = 1
                if facedown[s] >= 0:
                    gone[facedown[s]] = 1
                for j in range(k):
                    if not gone[j]:
                        out[self.o_used + r * k + j] = 1.0
            # ``_pile_stats``: conquest's 6 values, debris's 3, the names captured
            cq = <tuple?>conquest[s]
            ncq = len(cq)
            pl = moons = k12 = k34 = 0
            for pid in cq:
                got = planet.get(pid)
                if got is None:
                    continue
                info = <tuple?>got
                pl += 1
                pk = info[0]
                moons += <int>info[1]
                if pk == 0:
                    k12 += 1
                elif pk == 1:
                    k34 += 1
                j = info[2]
                if j >= 0:
                    out[self.o_names + r * nm + j] = 1.0
                if s == me and pk != 2:  # ``_progress``'s real planets (not dark)
                    have[NEED_PLANETS] += 1
                    have[NEED_12] += pk == 0
                    have[NEED_34] += pk == 1
                    have[NEED_MOON] += <int>info[1]
                    if <int>info[3] >= 0:
                        found[<int>info[3]] = 1
            a = self.o_conquest + r * 6
            out[a] = _ratio(ncq, 20.0)
            out[a + 1] = _ratio(pl, 20.0)
            out[a + 2] = _ratio(moons, 20.0)
            out[a + 3] = _ratio(k12, 20.0)
            out[a + 4] = _ratio(k34, 20.0)
            out[a + 5] = _ratio(ncq - pl, 20.0)
            db = <tuple?>debris[s]
            ndb = len(db)
            real = dark = 0
            for pid in db:
                got = planet.get(pid)
                if got is None:
                    continue
                info = <tuple?>got
                pk = info[0]
                if pk == 2:
                    dark += 1
                else:
                    real += 1
                j = info[2]
                if j >= 0:
                    out[self.o_names + r * nm + j] = 1.0
                if s == me and pk != 2:
                    have[NEED_PLANETS] += 1
                    have[NEED_12] += pk == 0
                    have[NEED_34] += pk == 1
                    have[NEED_MOON] += <int>info[1]
                    if <int>info[3] >= 0:
                        found[<int>info[3]] = 1
            b = self.o_debris + r * 3
            out[b] = _ratio(ndb, 20.0)
            out[b + 1] = _ratio(real, 20.0)
            out[b + 2] = _ratio(dark, 20.0)
        held = <tuple?>st.missions[me]
        held_n = len(held)
        if held_n > MAXHELD:
            raise ValueError("shooting_star_fast: more missions held than this module's tables")
        cdef dict mission = self.mission
        cdef list rows = []
        for i in range(held_n):
            info = <tuple?>mission[held[i]]
            rows.append(info)
            j = info[0]
            if j >= 0:
                out[self.o_missions_mine + j] = 1.0
            # ``sorted(held, key=points)`` is stable: an insertion sort by points keeps the held order on ties
            pk = info[1]
            a = i
            while a > 0 and m_pts[a - 1] > pk:
                m_pts[a] = m_pts[a - 1]
                m_at[a] = m_at[a - 1]
                a -= 1
            m_pts[a] = pk
            m_at[a] = i
        for a in range(held_n if held_n < 3 else 3):  # ``_missions_progress`` / ``ShootingStarEncoder._progress``
            info = <tuple?>rows[m_at[a]]
            named = <tuple?>info[2]
            if len(named):
                cnt = 0
                for x in named:
                    cnt += found[<int>x]
                v = _ratio(cnt, len(named))
            elif len(<tuple?>info[3]) == 0:
                v = 0.0
            else:
                lowest = 2.0
                for need in <tuple?>info[3]:
                    pk = (<tuple?>need)[0]
                    v = _ratio(have[pk], <int>(<tuple?>need)[1])
                    if v < lowest:
                        lowest = v
                v = lowest
            out[self.o_progress + a] = v
        out[self.o_reserve] = _ratio(len(st.reserve), 49)
        game = st.game
        if game is not self.game_seen:
            self.count_dark = bool(game.options["end_count_includes_dark"])
            self.game_seen = game
        if self.count_dark:  # ``rules_turn.planets_left``
            cnt = len(board)
        else:
            cnt = 0
            for here in board.values():
                if (<tuple?>here)[1] != DARK_LEVEL:
                    cnt += 1
        out[self.o_planets_left] = _ratio(cnt, self.g)
        out[self.o_over] = 1.0 if st.res is not None else 0.0
        return 0

    def write_rows(self, list states, long long[::1] seats, unsigned char[::1] active, float[:, ::1] obs,
                   signed char[:, ::1] masks):
        """Row i of ``obs`` and ``masks`` for every i: ``write(states[i], seats[i], obs[i])`` and, when
        ``active[i]`` (the seat decides now), ``fill_mask(states[i], seats[i], masks[i])``, else an all-zero mask
        row (a batch's rows in one call: ``rl/steps_fast.pyx``'s ``vector_step``)."""
        cdef Py_ssize_t i, k = len(states)
        cdef int width = self.k * self.g * self.na
        if (seats.shape[0] != k or active.shape[0] != k or obs.shape[0] < k or masks.shape[0] < k
                or obs.shape[1] != self.o_over + 1 or masks.shape[1] != width):
            raise ValueError("shooting_star_fast: the batch's rows do not match the observation and mask lengths")
        for i in range(k):
            st = states[i]
            self._write(st, <int>seats[i], &obs[i, 0], True)
            if active[i]:
                self._fill(st, <int>seats[i], &masks[i, 0], True)
            else:
                memset(&masks[i, 0], 0, width)

    def fill_mask(self, st, int seat, signed char[::1] row, bint clear=True):
        """``ShootingStarDirect.fill_mask(st, seat, row)`` into ``row`` (zeroed first unless ``clear`` is false)."""
        if row.shape[0] != self.k * self.g * self.na:
            raise ValueError("shooting_star_fast: the row is not the catalog's length")
        self._fill(st, seat, &row[0], clear)

    cdef int _fill(self, st, int seat, signed char* row, bint clear) except -1:
        """``fill_mask`` into ``row`` (the catalog's length)."""
        cdef int g = self.g, na = self.na, i, at
        cdef unsigned char free[MAXCELLS]
        if clear:
            memset(row, 0, self.k * self.g * self.na)
        if st.res is not None or st.phase != PHASE_PLACE or seat not in st.to_act:
            return 0
        if not len(st.shape_order):  # ``free_cells`` walks the shape's cells
            return 0
        self.see_shape(st.shape)
        memset(free, 0, g)
        cdef int nfree = 0
        for cell in (<dict?>st.board):  # planet cells of the shape...
            i = self.cell_of(cell)
            if i >= 0 and self.in_shape[i]:
                free[i] = 1
                nfree += 1
        for p in st.placed:  # ...without a Destruction card
            i = self.cell_of((<tuple?>p)[2])
            if i >= 0 and free[i]:
                free[i] = 0
                nfree -= 1
        if nfree == 0:
            return 0
        cdef int block = g * na
        cdef dict card_index = self.card_index
        for c in st.hands[seat]:
            at = <int>card_index[c] * block
            for i in range(g):
                if free[i]:
                    memset(&row[at + i * na], 1, na)
        return 0


    def observe(self, st, int seat, bint active):
        """A fresh ``{"observation": ..., "action_mask": ...}`` of new arrays: ``write`` into a float32 row and,
        when ``active`` (the seat decides now), ``fill_mask`` into an int8 row; else the mask is all zero
        (``Table.observe``'s arrays in one call)."""
        cdef Py_buffer b
        obs = _empty(self.o_over + 1, _F32)
        PyObject_GetBuffer(obs, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
        try:
            self._write(st, seat, <float*>b.buf, True)
        finally:
            PyBuffer_Release(&b)
        if not active:
            return {"observation": obs, "action_mask": _zeros(self.k * self.g * self.na, _I8)}
        mask = _empty(self.k * self.g * self.na, _I8)
        PyObject_GetBuffer(mask, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
        try:
            self._fill(st, seat, <signed char*>b.buf, True)
        finally:
            PyBuffer_Release(&b)
        return {"observation": obs, "action_mask": mask}

    def act(self, st, int seat, index):
        """``action_of`` then ``st.apply(seat, action)`` (``st.apply_quiet``: the same without building the events,
        which nothing here reads, on the compiled state): ``True`` if it applied, ``False`` (nothing changes) if
        ``index`` is not legal for ``seat`` now."""
        action = self._action_of(st, seat, index)
        if action is None:
            return False
        quiet = getattr(st, "apply_quiet", None)  # (the compiled state's ``apply`` without its events)
        if quiet is not None:
            quiet(seat, action)
        else:
            st.apply(seat, action)
        return True

    def action_of(self, st, int seat, index):
        """``ShootingStarDirect.action_of``: the legal ``Place`` of catalog ``index`` for ``seat``, or ``None``."""
        return self._action_of(st, seat, index)

    cdef object _action_of(self, st, int seat, index):
        """``action_of``."""
        if st.res is not None or st.phase != PHASE_PLACE or seat not in st.to_act:
            return None
        if not 0 <= index < self.num_actions:
            return None
        cdef long i = index
        cdef long a = i % self.na
        cdef long rest = i // self.na
        card = self.cards[rest // self.g]
        cell = self.cells[rest % self.g]
        if card not in st.hands[seat] or cell not in st.board:
            return None
        for p in st.placed:
            if (<tuple?>p)[2] == cell:
                return None
        return st.game.place_rows[card][cell][a]
