# cython: language_level=3
# distutils: extra_compile_args = -O3 -ffp-contract=off
"""The Shooting Star heuristic's scores compiled: ``shooting_star.py:scores`` from the view, bit for bit.

One call reads the view (the grid's planets and levels, the cards placed, every seat's used cards, this
seat's missions and captures: from its dict entries, or from the C parts of the compiled bot view the simulator
gives the bot, ``games/shooting_star/view_fast.pyx:BotView``, the same values) into tables over a padded cell grid and scores every legal placement with the
floating-point operations of the reference (``ShsEval.value``/``_attack``/``destroyed_first``/
``resolves_after``) in the same order: Python's ``sum`` is reproduced as Python runs it (plain additions,
or Neumaier's compensated ones where Python's own ``sum`` compensates, 3.12 and later), products and
differences in the reference's order, and the C compiler may not fuse a multiply and an add
(``-ffp-contract=off``). The reference's memo (a placement takes the value of the first earlier placement
with the same card, cell and set of planet targets) is kept: a repeated key takes the first one's value.
``ShsEval.mission_gain`` is computed here too, once per view and board planet, from per-mission tables
(thresholds, named planets as bits, the score steps as floats).

Anything it does not cover returns ``None`` (the caller scores it on the NumPy path of
``shooting_star_fast.py``, which falls back to the reference in turn): an action that is not a known kind of
``Place``, a card set with more than 64 cards, 8 arrows or 8 hits a card or hits reaching more than 3 cells
away, more than 64 planet names, a planet kind other than the three, a view with more than 16 missions, a
placement or planet outside the grid's bounds, a grid of more than 65,536 padded cells, a repeated hit
capturing a replacement card (the reference looks its planet up), a call made while another one runs.
With ``noise``, ``best_noisy`` also draws the bot's noise with the generator's own steps (engine/rng.py).
``best`` and ``choose`` (the bot's move without noise: the best score's action, ties drawn with ``randbelow``'s
steps) score only the attacks that may reach the best score: an upper bound per attack (``_bounds_of``: the
positive terms a hit may add, summed over its hits) below the best found by a margin skips it (``_score``);
``bounds`` gives the bounds to the tests. The bot view's mission tables are kept per seat while its mission
ids, conquest and debris are the same tuples.
"""

from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.object cimport PyObject
from libc.math cimport INFINITY, fabs, isfinite
from libc.stdint cimport int8_t, int16_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from cosmodeck.games.shooting_star.view_fast cimport BotView

from cosmodeck.bots.heuristic.shooting_star import (
    DESTROY_GAIN as _DG,
    FLIP_COST as _FC,
    ISOLATE_GAIN as _IG,
    KEEP as _KEEP,
    LATER_ATTRACT as _LA,
    LATER_THREAT as _LT,
    SHIELD_LOSS as _SL,
    SHIELD_WIN as _SW,
)
from cosmodeck.bots.base import LazyView
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK, NEIGHBOURS

import sys

# a cell's keys, interned as the engine's literals are: a cell is read in one pass over its entries
cdef object _KX = sys.intern("x"), _KY = sys.intern("y"), _KP = sys.intern("planet"), _KL = sys.intern("level")
cdef PyObject* KX = <PyObject*>_KX
cdef PyObject* KY = <PyObject*>_KY
cdef PyObject* KP = <PyObject*>_KP
cdef PyObject* KL = <PyObject*>_KL

cdef double DESTROY_GAIN = _DG
cdef double FLIP_COST = _FC
cdef double ISOLATE_GAIN = _IG
cdef double LATER_ATTRACT = _LA
cdef double SHIELD_LOSS = _SL
cdef double SHIELD_WIN = _SW
# Python's own ``sum`` of floats: compensated (Neumaier) from 3.12 on, plain additions before
cdef bint NEUMAIER = sum([1.0, 1e100, 1.0, -1e100]) == 2.0
# engine/rng.py's SplitMix64: ``Rng.random()`` is ``(next64() >> 11) * (1.0 / 2**53)``
cdef uint64_t GAMMA = 0x9E3779B97F4A7C15ULL
cdef double TO_UNIT = 1.0 / 9007199254740992.0


cdef inline uint64_t _mix(uint64_t z) noexcept:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef enum:
    MAXC = 64  # cards (a bit mask per opponent's card)
    MAXA = 8  # arrows
    MAXH = 8  # hits per card
    MAXCODES = 200000
    MAXM = 16  # missions in a view
    MAXF = 16  # named planets of a mission
    PCAP = 1024  # planet id strings known by address (a power of 2; cleared when half full)
    MSLOTS = 8  # seats whose mission tables are kept

cdef struct Acc:  # a running Python ``sum(...)`` of floats from the start 0
    double s
    double c
    int n

cdef struct Act:  # an interned action: its address and what it is (16 bytes: one probe, one cache line)
    uintptr_t key
    int8_t k
    int8_t a
    int16_t x
    int16_t y


cdef inline void acc_add(Acc* acc, double x) noexcept:
    cdef double t
    if acc.n == 0:
        acc.s = 0.0 + x  # 0 + x: Python adds the int start to the first float
    elif NEUMAIER:
        t = acc.s + x
        if fabs(acc.s) >= fabs(x):
            acc.c += (acc.s - t) + x
        else:
            acc.c += (x - t) + acc.s
        acc.s = t
    else:
        acc.s = acc.s + x
    acc.n += 1


cdef inline double acc_get(Acc* acc) noexcept:
    if NEUMAIER and acc.c != 0.0 and isfinite(acc.c):
        return acc.s + acc.c
    return acc.s


def python_sum(values: list) -> float:
    """``sum(values)`` (floats) by the kernel's own additions: the test that they are Python's."""
    cdef Acc acc
    acc.s = 0.0
    acc.c = 0.0
    acc.n = 0
    for v in values:
        acc_add(&acc, v)
    return acc_get(&acc)


def compensated() -> bool:
    """Whether this Python's ``sum`` compensates (Neumaier, 3.12 and later) and so the kernel too."""
    return NEUMAIER


cdef void* _alloc(size_t size) except NULL:
    cdef void* p = malloc(size)
    if p == NULL:
        raise MemoryError()
    return p


cdef inline double sum_copies(double x, int n) noexcept:
    """``sum(x for _ in range(n))`` as Python computes it."""
    cdef Acc acc
    acc.s = 0.0
    acc.c = 0.0
    acc.n = 0
    for _ in range(n):
        acc_add(&acc, x)
    return acc_get(&acc)


cdef Py_ssize_t _randbelow(object rng, Py_ssize_t n) except -1:
    """``rng.randbelow(n)`` for ``n >= 2`` (engine/rng.py's rejection sampling, the same steps), ``rng`` an exact ``Rng``."""
    cdef uint64_t s = rng.state, r
    cdef int shift = clz(<unsigned long long>(n - 1))  # 64 - (n - 1).bit_length()
    while True:
        s += GAMMA
        r = _mix(s) >> shift
        if r < <uint64_t>n:
            rng.state = s
            return <Py_ssize_t>r


cdef extern from *:
    int clz "__builtin_clzll" (unsigned long long v) nogil
    int popcount "__builtin_popcountll" (unsigned long long v) nogil


cdef class Kernel:
    """Per game: the card set's tables, the interned actions seen so far and reusable buffers."""

    cdef public bint ok
    cdef bint busy  # a call is using the buffers below (Python code may run inside one: a finaliser, a thread switch)
    cdef int nc, na, reach
    cdef int prio[MAXC]
    cdef bint shield[MAXC]
    cdef bint haspri[MAXC]  # the card has a priority (not None)
    cdef bint _bad  # set by _attack: the reference must score this call
    cdef bint p7[MAXC]
    cdef bint dup[MAXC]  # some arrow of the card hits one cell twice (its attacks are never pruned)
    cdef double keep[MAXC]
    cdef int nh[MAXC]
    cdef int hdx[MAXC * MAXA * MAXH]
    cdef int hdy[MAXC * MAXA * MAXH]
    cdef int off[MAXC * MAXA * MAXH]  # per view: hdy * w + hdx
    cdef uint64_t hbit[MAXC * MAXA * MAXH]  # the offset's bit in a (2 reach + 1)^2 window (the memo key)
    cdef int tn[MAXC * MAXA]  # distinct targets per (card, arrow), for the threats
    cdef int tdx[MAXC * MAXA * MAXH]
    cdef int tdy[MAXC * MAXA * MAXH]
    cdef uint64_t below[MAXC]  # below[k]: the cards with a priority lower than card k's (``priority or 0``)
    cdef uint64_t shield_mask
    cdef int nbx[4]
    cdef int nby[4]
    cdef dict card_ix, arrow_ix, planet_ix
    # planet ids by their string's address (``_pix``): open addressing, ``pkeep`` keeps the strings
    cdef uintptr_t ptab_key[PCAP]
    cdef int ptab_val[PCAP]
    cdef Py_ssize_t pcount
    cdef list pkeep
    cdef list planet_name  # the KIND_34 name per planet index (None otherwise)
    cdef char* pkind  # 0 dark, 1 KIND_12, 2 KIND_34, 3 other
    cdef char* pmoon
    cdef Py_ssize_t np_
    cdef int* pname  # per planet: the index of its name (-1: none)
    cdef dict mission_ix  # mission id -> row of the tables below
    cdef list mission_rows  # per row: (named name indices, score steps, need per key, other keys' shortfall, points)
    # the interned actions: open addressing on the object's address (``alive`` keeps the objects)
    cdef Act* htab
    cdef Py_ssize_t hcap, hcount
    cdef list alive
    # per view (padded grid of ``gn`` cells) and per call (``cn`` candidates)
    cdef Py_ssize_t gcap, ccap
    cdef char* pres0
    cdef char* cpres
    cdef char* isopp
    cdef int* lev0
    cdef int* clev
    cdef int* pid0
    cdef int* cpid
    cdef double* oms
    cdef double* oprob
    cdef uint64_t* omask
    cdef double* mg
    cdef double* capv
    cdef int* thead
    cdef int* ttail
    cdef int* rep_head  # per (card, cell): first candidate of the chain of distinct keys
    cdef int* rep_gen
    cdef int gen
    cdef int np1  # the highest priority + 1
    cdef int gn  # this call's padded grid size
    # per call, filled on first use (stamped with ``gen``): ``1 - destroyed_first`` per (priority, cell),
    # ``resolves_after`` per (priority, opponent's cell) and a Shield's threat sum per cell
    cdef double* livev
    cdef int* livegen
    cdef double* aftv
    cdef int* aftgen
    cdef double* shv
    cdef int* shgen
    cdef double* vals
    cdef int* nextrep
    cdef uint64_t* keyb  # per candidate: its memo key's targets, as bits of their offsets from its cell
    # per candidate (``_score``): an upper bound of its score (``best``'s pruning), its card, arrow and padded cell
    cdef double* cub
    cdef int* ck
    cdef int* ca
    cdef int* cci
    cdef int* cand  # the candidates' indices, in order (``_score``'s attacks to score, prune or take from the memo)
    cdef double vmax  # the highest of ``vals`` after ``_score`` (``_pick`` and ``_tops`` read it: no pass of their own)
    cdef double* ubt  # per padded cell: an upper bound of what a hit on it adds to an attack's gain (``_bounds_of``)
    cdef Py_ssize_t tcap
    cdef double* tprob
    cdef int* tpr
    cdef int* tnext
    # this call's grid (``_open``): the bounds, the padded origin and width, the seats placing later, the threats
    cdef int gx0, gy0, gx1, gy1, ox, oy, gw, later, nthr
    cdef int offw  # the width ``off`` was computed for (0: none yet)
    cdef double laterpow
    # this call's missions (``_missions_of``)
    cdef double mterm[MAXM]
    cdef int mkind[MAXM]
    cdef uint64_t mnamed[MAXM]
    cdef int mcond[MAXM]
    cdef int nm
    # ``_missions_of`` of the compiled bot view, kept per seat (``seat % MSLOTS``) with its inputs, which are tuples
    # (immutable): the same objects give the same tables (``mkept`` holds them, so their addresses stay theirs)
    cdef list mkept
    cdef double mc_term[MSLOTS][MAXM]
    cdef int mc_kind[MSLOTS][MAXM]
    cdef uint64_t mc_named[MSLOTS][MAXM]
    cdef int mc_cond[MSLOTS][MAXM]
    cdef int mc_nm[MSLOTS]

    def __cinit__(self) -> None:
        self.htab = NULL
        self.pres0 = NULL
        self.vals = NULL
        self.cub = NULL
        self.tprob = NULL
        self.pkind = NULL
        self.pmoon = NULL
        self.rep_head = NULL
        self.rep_gen = NULL
        self.livev = NULL
        self.livegen = NULL
        self.aftv = NULL
        self.aftgen = NULL
        self.shv = NULL
        self.shgen = NULL
        self.offw = 0

    def __init__(self, game: object) -> None:
        data = game.data
        cards = list(data.card_order)
        arrows = list(game.arrows)
        self.alive = []
        self.mkept = [None] * MSLOTS
        self.ok = 0 < len(cards) <= MAXC and 0 < len(arrows) <= MAXA
        if not self.ok:
            return
        self.nc = len(cards)
        self.na = len(arrows)
        self.card_ix = {k: i for i, k in enumerate(cards)}
        self.arrow_ix = {a: i for i, a in enumerate(arrows)}
        self.reach = 1
        self.shield_mask = 0
        self.np1 = 1
        for i, k in enumerate(cards):
            ct = data.cards[k]
            self.prio[i] = ct.priority or 0
            if self.prio[i] < 0 or self.prio[i] > 1000:
                self.ok = False
                return
            self.np1 = max(self.np1, self.prio[i] + 1)
            self.shield[i] = bool(ct.shield)
            self.haspri[i] = ct.priority is not None
            self.p7[i] = k == "P7"  # the reference names it
            self.dup[i] = False
            self.keep[i] = _KEEP.get(k, 0.0)
            if ct.shield:
                self.shield_mask |= (<uint64_t>1) << i
            if len(ct.hits) > MAXH:
                self.ok = False
                return
            self.nh[i] = len(ct.hits)
            for j, a in enumerate(arrows):
                hits = ct.rotated[a]
                if len(hits) != len(ct.hits):
                    self.ok = False
                    return
                for s, (dx, dy) in enumerate(hits):
                    self.hdx[(i * MAXA + j) * MAXH + s] = dx
                    self.hdy[(i * MAXA + j) * MAXH + s] = dy
                    self.reach = max(self.reach, abs(dx), abs(dy))
                distinct = list(dict.fromkeys(hits))
                self.tn[i * MAXA + j] = len(distinct)
                if len(distinct) != len(hits):
                    self.dup[i] = True
                for s, (dx, dy) in enumerate(distinct):
                    self.tdx[(i * MAXA + j) * MAXH + s] = dx
                    self.tdy[(i * MAXA + j) * MAXH + s] = dy
        if self.reach > 3:  # the memo key's window must fit 64 bits
            self.ok = False
            return
        for i in range(len(cards)):
            for j in range(len(arrows)):
                for q in range(self.nh[i]):
                    e = (i * MAXA + j) * MAXH + q
                    self.hbit[e] = (<uint64_t>1) << ((self.hdy[e] + self.reach) * (2 * self.reach + 1)
                                                     + self.hdx[e] + self.reach)
        for i in range(len(cards)):
            mask = 0
            for j, k in enumerate(cards):
                q = data.cards[k].priority
                if q is not None and q < self.prio[i]:
                    mask |= 1 << j
            self.below[i] = mask
        for d, (dx, dy) in enumerate(NEIGHBOURS):
            self.nbx[d] = dx
            self.nby[d] = dy
        planets = list(data.planets)
        self.np_ = len(planets)
        self.planet_ix = {p: i for i, p in enumerate(planets)}
        memset(self.ptab_key, 0, sizeof(self.ptab_key))
        self.pcount = 0
        self.pkeep = []
        self.pkind = <char*>_alloc(max(1, self.np_))
        self.pmoon = <char*>_alloc(max(1, self.np_))
        self.pname = <int*>_alloc(max(1, self.np_) * sizeof(int))
        self.planet_name = []
        name_ix: dict = {}
        for i, pid in enumerate(planets):
            p = data.planets[pid]
            if ":" in pid:  # the reference skips a pile's entry holding ":" (a card): no planet may hold one
                self.ok = False
                return
            if p.kind not in (KIND_DARK, KIND_12, KIND_34):
                self.ok = False
                return
            self.pkind[i] = 0 if p.kind == KIND_DARK else 1 if p.kind == KIND_12 else 2
            self.pmoon[i] = p.moons >= 1
            self.planet_name.append(p.name if p.kind == KIND_34 else None)
            self.pname[i] = -1 if p.name is None else name_ix.setdefault(p.name, len(name_ix))
        if len(name_ix) > 64:
            self.ok = False
            return
        self.mission_ix = {}
        self.mission_rows = []
        for mid, m in data.missions.items():
            if len(m.named) > MAXF:
                self.ok = False
                return
            named = tuple(name_ix.get(nm, -1) for nm in m.named)
            steps = tuple(float(m.score_by_found[f + 1] - m.score_by_found[f]) for f in range(len(m.score_by_found) - 1))
            known = ("planets", KIND_12, KIND_34, "moon")
            need = tuple(int(m.need.get(k, 0)) for k in known)
            other = sum(max(0, v) for k, v in m.need.items() if k not in known)
            self.mission_ix[mid] = len(self.mission_rows)
            self.mission_rows.append((named, steps, need, other, m.points))
        self._clear_codes(8192)

    def __dealloc__(self) -> None:
        free(self.htab)
        self._free_grid()
        self._free_cands()
        free(self.tprob)
        free(self.tpr)
        free(self.tnext)
        free(self.pkind)
        free(self.pmoon)
        free(self.pname)
        free(self.rep_head)
        free(self.rep_gen)
        self._free_stamped()

    # ---- the interned actions --------------------------------------------------------------
    cdef void _clear_codes(self, Py_ssize_t cap):
        free(self.htab)
        self.htab = NULL
        self.hcap = 0
        self.htab = <Act*>_alloc(cap * sizeof(Act))
        memset(self.htab, 0, cap * sizeof(Act))
        self.hcap = cap
        self.hcount = 0
        self.alive = []

    cdef inline Py_ssize_t _slot(self, uintptr_t key) noexcept:
        """Linear probing from the address / 64: actions allocated one after another (64 bytes apart on
        CPython 3.11) take consecutive slots, four to a cache line."""
        cdef Py_ssize_t i = <Py_ssize_t>(key >> 6) & (self.hcap - 1)
        while self.htab[i].key != 0 and self.htab[i].key != key:
            i = (i + 1) & (self.hcap - 1)
        return i

    cdef bint _learn(self, object a):
        cdef Py_ssize_t i, j, cap
        cdef Act* old
        if type(a) is not Place:
            return False
        k = self.card_ix.get(a.card)
        r = self.arrow_ix.get(a.orientation)
        cell = a.cell
        if k is None or r is None or type(cell) is not tuple or len(cell) != 2:
            return False
        x, y = cell
        if type(x) is not int or type(y) is not int or not (-30000 < x < 30000) or not (-30000 < y < 30000):
            return False
        if self.hcount >= MAXCODES:
            self._clear_codes(8192)
        if (self.hcount + 1) * 4 > self.hcap:
            old, cap = self.htab, self.hcap
            self.htab = <Act*>_alloc(2 * cap * sizeof(Act))
            memset(self.htab, 0, 2 * cap * sizeof(Act))
            self.hcap = 2 * cap
            for i in range(cap):
                if old[i].key != 0:
                    j = self._slot(old[i].key)
                    self.htab[j] = old[i]
            free(old)
        i = self._slot(<uintptr_t><PyObject*>a)
        self.htab[i].key = <uintptr_t><PyObject*>a
        self.htab[i].k = k
        self.htab[i].a = r
        self.htab[i].x = x
        self.htab[i].y = y
        self.hcount += 1
        self.alive.append(a)  # its address stays its own while it is kept here
        return True

    # ---- buffers ---------------------------------------------------------------------------
    cdef void _free_grid(self):
        free(self.pres0)
        free(self.cpres)
        free(self.isopp)
        free(self.lev0)
        free(self.clev)
        free(self.pid0)
        free(self.cpid)
        free(self.oms)
        free(self.oprob)
        free(self.omask)
        free(self.mg)
        free(self.capv)
        free(self.ubt)
        free(self.thead)
        free(self.ttail)
        self.pres0 = NULL
        self.cpres = NULL
        self.isopp = NULL
        self.lev0 = NULL
        self.clev = NULL
        self.pid0 = NULL
        self.cpid = NULL
        self.oms = NULL
        self.oprob = NULL
        self.omask = NULL
        self.mg = NULL
        self.capv = NULL
        self.ubt = NULL
        self.thead = NULL
        self.ttail = NULL

    cdef void _free_stamped(self):
        free(self.livev)
        free(self.livegen)
        free(self.aftv)
        free(self.aftgen)
        free(self.shv)
        free(self.shgen)
        self.livev = NULL
        self.livegen = NULL
        self.aftv = NULL
        self.aftgen = NULL
        self.shv = NULL
        self.shgen = NULL

    cdef void _clear_stamps(self):
        memset(self.rep_gen, 0, self.gcap * self.nc * sizeof(int))
        memset(self.livegen, 0, self.gcap * self.np1 * sizeof(int))
        memset(self.aftgen, 0, self.gcap * self.np1 * sizeof(int))
        memset(self.shgen, 0, self.gcap * sizeof(int))
        self.gen = 0

    cdef void _grid(self, Py_ssize_t n):
        if n <= self.gcap and self.pres0 != NULL:
            return
        self._free_grid()
        self.gcap = 0
        self.pres0 = <char*>_alloc(n)
        self.cpres = <char*>_alloc(n)
        self.isopp = <char*>_alloc(n)
        self.lev0 = <int*>_alloc(n * sizeof(int))
        self.clev = <int*>_alloc(n * sizeof(int))
        self.pid0 = <int*>_alloc(n * sizeof(int))
        self.cpid = <int*>_alloc(n * sizeof(int))
        self.oms = <double*>_alloc(n * sizeof(double))
        self.oprob = <double*>_alloc(n * sizeof(double))
        self.omask = <uint64_t*>_alloc(n * sizeof(uint64_t))
        self.mg = <double*>_alloc(n * sizeof(double))
        self.capv = <double*>_alloc(n * sizeof(double))
        self.ubt = <double*>_alloc(n * sizeof(double))
        self.thead = <int*>_alloc(n * sizeof(int))
        self.ttail = <int*>_alloc(n * sizeof(int))
        free(self.rep_head)
        free(self.rep_gen)
        self.rep_head = NULL
        self.rep_gen = NULL
        self.rep_head = <int*>_alloc(n * self.nc * sizeof(int))
        self.rep_gen = <int*>_alloc(n * self.nc * sizeof(int))
        self._free_stamped()
        self.livev = <double*>_alloc(n * self.np1 * sizeof(double))
        self.livegen = <int*>_alloc(n * self.np1 * sizeof(int))
        self.aftv = <double*>_alloc(n * self.np1 * sizeof(double))
        self.aftgen = <int*>_alloc(n * self.np1 * sizeof(int))
        self.shv = <double*>_alloc(n * sizeof(double))
        self.shgen = <int*>_alloc(n * sizeof(int))
        self.gcap = n  # only once every buffer is there
        self._clear_stamps()

    cdef void _free_cands(self):
        free(self.vals)
        free(self.nextrep)
        free(self.keyb)
        free(self.cub)
        free(self.ck)
        free(self.ca)
        free(self.cci)
        free(self.cand)
        self.vals = NULL
        self.nextrep = NULL
        self.keyb = NULL
        self.cub = NULL
        self.ck = NULL
        self.ca = NULL
        self.cci = NULL
        self.cand = NULL

    cdef void _cands(self, Py_ssize_t m):
        if m <= self.ccap and self.vals != NULL:
            return
        self._free_cands()
        self.ccap = 0
        m = max(m, 256)
        self.vals = <double*>_alloc(m * sizeof(double))
        self.nextrep = <int*>_alloc(m * sizeof(int))
        self.keyb = <uint64_t*>_alloc(m * sizeof(uint64_t))
        self.cub = <double*>_alloc(m * sizeof(double))
        self.ck = <int*>_alloc(m * sizeof(int))
        self.ca = <int*>_alloc(m * sizeof(int))
        self.cci = <int*>_alloc(m * sizeof(int))
        self.cand = <int*>_alloc(m * sizeof(int))
        self.ccap = m  # only once every buffer is there

    cdef void _threats(self, Py_ssize_t m):
        if m <= self.tcap and self.tprob != NULL:
            return
        free(self.tprob)
        free(self.tpr)
        free(self.tnext)
        self.tprob = NULL
        self.tpr = NULL
        self.tnext = NULL
        self.tcap = 0
        m = max(m, 64)
        self.tprob = <double*>_alloc(m * sizeof(double))
        self.tpr = <int*>_alloc(m * sizeof(int))
        self.tnext = <int*>_alloc(m * sizeof(int))
        self.tcap = m  # only once every buffer is there

    # ---- ShsEval.mission_gain ---------------------------------------------------------------------
    cdef bint _missions(self, dict view, double* term, int* kind, uint64_t* named, int* cond, int* nm) except -1:
        """``_missions_of`` this view's seat."""
        seat = view["seat"]
        mine = view["missions"][seat] or []
        if len(mine) > MAXM:
            return False
        return self._missions_of([md["id"] for md in mine], view["conquest"][seat], view["debris"][seat],
                                 term, kind, named, cond, nm)

    cdef bint _missions_of(self, object mids, object conquest, object debris, double* term, int* kind,
                           uint64_t* named, int* cond, int* nm) except -1:
        """Per mission of this seat (ids ``mids``; its captures: ``conquest`` and ``debris``): its kind (0 named,
        1 thresholds), what a planet adds (``term``) and when: named, the bits of its named planets not captured
        yet; thresholds, ``cond`` bit 2*kind+moon."""
        cdef int n = 0, n12 = 0, n34 = 0, nmoon = 0, i, found, short, j, q
        cdef uint64_t names = 0
        cdef int cnt[4]
        if len(mids) > MAXM:
            return False
        for pile in (conquest, debris):
            for p in pile:
                i = self._pix(p)  # no planet id holds ":" (``__init__``)
                if i < 0:
                    if ":" in p:
                        continue
                    return False
                if self.pkind[i] == 0:
                    continue
                n += 1
                if self.pkind[i] == 1:
                    n12 += 1
                else:
                    n34 += 1
                    if self.pname[i] >= 0:
                        names |= (<uint64_t>1) << self.pname[i]
                if self.pmoon[i]:
                    nmoon += 1
        cnt[0] = n
        cnt[1] = n12
        cnt[2] = n34
        cnt[3] = nmoon
        nm[0] = len(mids)
        for j, mid in enumerate(mids):
            got = self.mission_ix.get(mid)
            if got is None:
                return False
            named_ix, steps, need, other, points = self.mission_rows[got]
            if named_ix:
                kind[j] = 0
                found = 0
                named[j] = 0
                for q in named_ix:
                    if q >= 0 and (names >> q) & 1:
                        found += 1
                    elif q >= 0:
                        named[j] |= (<uint64_t>1) << q
                if named[j]:
                    if found >= len(steps):
                        return False  # the reference reads past the score steps
                    term[j] = steps[found]
                continue
            kind[j] = 1
            short = other
            for q in range(4):
                if need[q] - cnt[q] > 0:
                    short += need[q] - cnt[q]
            cond[j] = 0
            if short:
                term[j] = 0.8 * <double>points / <double>short
                for q in range(4):  # 2 * (kind - 1) + moon
                    if (cnt[0] < need[0] or cnt[1 + q // 2] < need[1 + q // 2]
                            or (q % 2 == 1 and cnt[3] < need[3])):
                        cond[j] |= 1 << q
        return True

    cdef inline double _gain(self, int pi, int nm, double* term, int* kind, uint64_t* named, int* cond) noexcept:
        """``ShsEval._mission_gain`` of planet ``pi``: the same additions in the same order."""
        cdef double gain = 0.0
        cdef int j, nmi = self.pname[pi]
        if self.pkind[pi] == 0:
            return 0.0
        for j in range(nm):
            if kind[j] == 0:
                if nmi >= 0 and (named[j] >> nmi) & 1:
                    gain += term[j]
            elif (cond[j] >> (2 * (self.pkind[pi] - 1) + self.pmoon[pi])) & 1:
                gain += term[j]
        return gain

    def mission_gain(self, view: dict, pid: str) -> float | None:
        """``ShsEval(game, view).mission_gain(pid)``, or ``None`` if the kernel does not cover the view."""
        cdef double[MAXM] term
        cdef int[MAXM] kind
        cdef uint64_t[MAXM] named
        cdef int[MAXM] cond
        cdef int nm
        if not self.ok or not self._missions(view, term, kind, named, cond, &nm):
            return None
        return self._gain(self.planet_ix[pid], nm, term, kind, named, cond)

    # ---- the scores ----------------------------------------------------------------------------
    def scores(self, view: object, legal: list) -> list | None:
        """A score per legal action, or ``None``: the caller scores this call another way."""
        cdef Py_ssize_t m = len(legal), i
        if self.busy:  # another thread (or a finaliser) is in a call: the buffers are its
            return None
        self.busy = True
        try:
            if not self._run(view, legal, False):
                return None
            return [self.vals[i] for i in range(m)]
        finally:
            self.busy = False

    def best(self, view: object, legal: list) -> list | None:
        """The indices of the best scores (those within 1e-12 of the top, in order), or ``None``."""
        cdef Py_ssize_t m = len(legal)
        if self.busy or m == 0:
            return None
        self.busy = True
        try:
            if not self._run(view, legal, True):
                return None
            return self._tops(m)
        finally:
            self.busy = False

    def choose(self, view: object, legal: object, rng: object) -> object:
        """The bot's move without noise: one of ``best``'s indices drawn as ``rng.randbelow(len(tops))`` when there
        are several (an exact ``Rng``: its SplitMix64 steps done here; another generator: its own ``randbelow``),
        its action returned; ``None`` (``rng`` untouched) when the kernel does not score this call (``legal`` not a
        list, or a view neither a dict, nor the compiled bot view, nor a simulator's ``LazyView`` of one)."""
        cdef Py_ssize_t m, i, n
        cdef list tops
        if type(legal) is not list:
            return None
        m = PyList_GET_SIZE(legal)
        if self.busy or m == 0:
            return None
        if type(view) is LazyView:
            view = view.resolve()
        self.busy = True
        try:
            if not self._run(view, legal, True):
                return None
            i = self._pick(m, rng)
            if i >= 0:
                return legal[i]
            tops = self._tops(m)
        finally:
            self.busy = False
        n = len(tops)
        if n <= 1:
            return legal[<Py_ssize_t>tops[0]]  # (none: the list path's IndexError)
        return legal[<Py_ssize_t>tops[rng.randbelow(n)]]

    cdef Py_ssize_t _pick(self, Py_ssize_t m, object rng) except -2:
        """``_tops``'s only index, or, with several and an exact ``Rng``, the one ``rng.randbelow`` draws (its steps
        done here, no list); -1: the caller draws from the list (no best score, or another generator)."""
        cdef Py_ssize_t i, n = 0
        cdef double low = self.vmax - 1e-12
        cdef int* tops = self.cand  # (``_score``'s candidates are no longer needed: the best indices, in order)
        for i in range(m):
            if self.vals[i] >= low:
                tops[n] = <int>i
                n += 1
        if n == 1:
            return tops[0]
        if n == 0 or type(rng) is not Rng:
            return -1
        return tops[_randbelow(rng, n)]

    def bounds(self, view: object, legal: list) -> list | None:
        """Per legal action, the upper bound ``best`` prunes with (the sum of ``ubt`` over its hits, less the card's
        keep value), or ``None`` for a Space Shield and for a card hitting a cell twice (never pruned); ``None``
        when the kernel does not score this call (for the tests: every score is at most its bound)."""
        cdef Py_ssize_t m = len(legal), i
        cdef int k, s, e, ci
        cdef double ub
        cdef Act act
        if self.busy or m == 0:
            return None
        self.busy = True
        try:
            if not self._run(view, legal, False):
                return None
            self._bounds_of()
            out = []
            for i in range(m):
                act = self.htab[self._slot(<uintptr_t><PyObject*>legal[i])]
                k = act.k
                if self.shield[k] or self.dup[k]:
                    out.append(None)
                    continue
                ci = (act.y - self.oy) * self.gw + (act.x - self.ox)
                e = (k * MAXA + act.a) * MAXH
                ub = 0.0
                for s in range(self.nh[k]):
                    ub += self.ubt[ci + self.off[e + s]]
                out.append(ub - self.keep[k])
            return out
        finally:
            self.busy = False

    cdef list _tops(self, Py_ssize_t m):
        """The indices of the scores within 1e-12 of the top, in order."""
        cdef Py_ssize_t i
        cdef double low = self.vmax - 1e-12
        return [i for i in range(m) if self.vals[i] >= low]

    cdef tuple _bounds(self, list cells):
        cdef int x0 = 1 << 30, y0 = 1 << 30, x1 = -(1 << 30), y1 = -(1 << 30), x, y
        cdef dict c
        for c in cells:
            x = c["x"]
            y = c["y"]
            if x < x0:
                x0 = x
            if x > x1:
                x1 = x
            if y < y0:
                y0 = y
            if y > y1:
                y1 = y
        return x0, y0, x1, y1

    def best_noisy(self, view: object, legal: list, double noise, rng: object) -> list | None:
        """``best`` of the scores plus ``noise * rng.random()`` each, drawn in order from ``rng`` (an exact
        ``Rng``: its SplitMix64 steps done here, its state left where the bot's own draws leave it), or
        ``None`` with ``rng`` untouched."""
        cdef Py_ssize_t m = len(legal), i
        cdef double top, low
        cdef uint64_t state
        if self.busy or m == 0 or type(rng) is not Rng:
            return None
        self.busy = True
        try:
            if not self._run(view, legal, False):
                return None
            state = rng.state
            for i in range(m):
                state += GAMMA
                self.vals[i] = self.vals[i] + noise * (<double>(_mix(state) >> 11) * TO_UNIT)
            rng.state = state
            top = self.vals[0]
            for i in range(1, m):
                if self.vals[i] > top:
                    top = self.vals[i]
            low = top - 1e-12
            return [i for i in range(m) if self.vals[i] >= low]
        finally:
            self.busy = False

    cdef bint _run(self, object view, list legal, bint prune) except -1:
        """Fill this call's tables from the view (a dict, or the compiled ``BotView`` read in C) and score
        ``legal`` into ``vals``; False: the caller scores this call another way."""
        if not self.ok or self.htab == NULL:
            return False
        if PyList_GET_SIZE(legal) == 0:
            return True
        if type(view) is BotView:
            if not self._load_bot(<BotView>view):
                return False
        elif type(view) is dict:
            if not self._load_dict(<dict>view):
                return False
        else:
            return False
        return self._score(legal, prune)

    cdef bint _open(self, int x0, int y0, int x1, int y1, object players, Py_ssize_t nplaced) except -1:
        """This call's padded grid over the bounds ``x0, y0, x1, y1``, empty, and the hits' offsets on it."""
        cdef int pad = self.reach + 2, w, h, k, a, s, e
        cdef Py_ssize_t n
        py_later = players - 1 - nplaced
        self.later = py_later
        self.gx0 = x0
        self.gy0 = y0
        self.gx1 = x1
        self.gy1 = y1
        x0 -= pad
        y0 -= pad
        w = x1 - x0 + pad + 1
        h = y1 - y0 + pad + 1
        if w <= 0 or h <= 0 or w * h > 65536:  # a sector far larger than any grid: the caller scores it
            return False
        self.ox = x0
        self.oy = y0
        self.gw = w
        n = w * h
        self._grid(n)
        self.gn = <int>n
        memset(self.pres0, 0, n)
        memset(self.isopp, 0, n)
        memset(self.thead, 0xFF, n * sizeof(int))
        if self.offw != w:  # the hits' offsets on a grid this wide
            for k in range(self.nc):
                for a in range(self.na):
                    for s in range(self.nh[k]):
                        e = (k * MAXA + a) * MAXH + s
                        self.off[e] = self.hdy[e] * w + self.hdx[e]
            self.offw = w
        self.laterpow = (1.0 - _LT) ** py_later  # Python's float power, as destroyed_first computes it
        self._threats(nplaced * self.nc * MAXH + 1)
        self.nthr = 0
        return True

    cdef inline int _pix(self, object pid) except -2:
        """``planet_ix.get(pid, -1)``, looked up by the string's address once it has been seen."""
        cdef uintptr_t key = <uintptr_t><PyObject*>pid
        cdef Py_ssize_t i = <Py_ssize_t>(key >> 4) & (PCAP - 1)
        while self.ptab_key[i] != 0:
            if self.ptab_key[i] == key:
                return self.ptab_val[i]
            i = (i + 1) & (PCAP - 1)
        got = self.planet_ix.get(pid)
        if got is None:
            return -1
        if self.pcount * 2 >= PCAP:
            memset(self.ptab_key, 0, sizeof(self.ptab_key))
            self.pcount = 0
            self.pkeep = []
            i = <Py_ssize_t>(key >> 4) & (PCAP - 1)
        self.ptab_key[i] = key
        self.ptab_val[i] = got
        self.pcount += 1
        self.pkeep.append(pid)  # its address stays its own while it is kept here
        return got

    cdef bint _planet(self, int x, int y, object pid, int lvl) except -1:
        """A planet of the grid: ``pid`` at level ``lvl`` (0 for a Dark Planet)."""
        cdef Py_ssize_t i
        cdef int p
        if x < self.gx0 or x > self.gx1 or y < self.gy0 or y > self.gy1:
            return False
        i = (y - self.oy) * self.gw + (x - self.ox)
        self.pres0[i] = 1
        self.lev0[i] = lvl
        p = self._pix(pid)
        if p < 0:
            return False
        self.pid0[i] = p
        self.mg[i] = self._gain(p, self.nm, self.mterm, self.mkind, self.mnamed, self.mcond)
        if lvl:
            self.capv[i] = 1.0 + (1.0 if self.pmoon[p] else 0.0) + self.mg[i]
        return True

    cdef bint _opponent(self, int x, int y, object arrow, uint64_t used) except -1:
        """An opponent's card placed on ``x, y`` with ``arrow``, its owner's used cards ``used``: its unknown
        cards (uniform), its Shield chance and the threats of its attacks, appended per target cell."""
        cdef int ci, cnt, a, k, u, t
        cdef uint64_t mask
        cdef double prob
        if x < self.gx0 or x > self.gx1 or y < self.gy0 or y > self.gy1:
            return False
        ci = (y - self.oy) * self.gw + (x - self.ox)
        mask = ((<uint64_t>1 << self.nc) - 1 if self.nc < 64 else ~(<uint64_t>0)) & ~used
        cnt = popcount(mask)
        if cnt == 0:
            return False  # the reference divides by zero
        prob = 1.0 / cnt
        self.isopp[ci] = 1
        self.omask[ci] = mask
        self.oprob[ci] = prob
        self.oms[ci] = 1.0 - sum_copies(prob, popcount(mask & self.shield_mask))
        a = self.arrow_ix[arrow]
        for k in range(self.nc):
            if not (mask >> k) & 1 or self.shield[k] or not self.haspri[k]:
                continue
            for u in range(self.tn[k * MAXA + a]):
                t = ci + self.tdy[(k * MAXA + a) * MAXH + u] * self.gw + self.tdx[(k * MAXA + a) * MAXH + u]
                self.tprob[self.nthr] = prob
                self.tpr[self.nthr] = self.prio[k]
                self.tnext[self.nthr] = -1
                if self.thead[t] < 0:
                    self.thead[t] = self.nthr
                else:
                    self.tnext[self.ttail[t]] = self.nthr
                self.ttail[t] = self.nthr
                self.nthr += 1
        return True

    cdef bint _bot_missions(self, BotView bv) except -1:
        """``_missions_of`` the bot view's seat into ``mterm``..``nm``: the kept tables when its mission ids, conquest
        and debris are the very tuples they were computed from."""
        cdef int slot = <int>(<long>bv.seat % MSLOTS)
        mids, conquest, debris = bv.mids, bv.conquest, bv.debris
        kept = self.mkept[slot]
        if kept is not None and (<tuple>kept)[0] is mids and (<tuple>kept)[1] is conquest and (<tuple>kept)[2] is debris:
            self.nm = self.mc_nm[slot]
            memcpy(self.mterm, self.mc_term[slot], sizeof(self.mterm))
            memcpy(self.mkind, self.mc_kind[slot], sizeof(self.mkind))
            memcpy(self.mnamed, self.mc_named[slot], sizeof(self.mnamed))
            memcpy(self.mcond, self.mc_cond[slot], sizeof(self.mcond))
            return True
        if not self._missions_of(mids, conquest, debris, self.mterm, self.mkind, self.mnamed, self.mcond, &self.nm):
            return False
        if type(mids) is tuple and type(conquest) is tuple and type(debris) is tuple:
            self.mc_nm[slot] = self.nm
            memcpy(self.mc_term[slot], self.mterm, sizeof(self.mterm))
            memcpy(self.mc_kind[slot], self.mkind, sizeof(self.mkind))
            memcpy(self.mc_named[slot], self.mnamed, sizeof(self.mnamed))
            memcpy(self.mc_cond[slot], self.mcond, sizeof(self.mcond))
            self.mkept[slot] = (mids, conquest, debris)
        else:
            self.mkept[slot] = None
        return True

    cdef bint _load_bot(self, BotView bv) except -1:
        """The tables from the compiled bot view's C parts (the same entries as its mapping's)."""
        cdef int seat, j, x, y
        cdef Py_ssize_t pos = 0
        cdef PyObject* ko
        cdef PyObject* vo
        cdef list used
        if not bv.ok:
            return False
        seat = bv.seat
        if not self._open(bv.bx0, bv.by0, bv.bx1, bv.by1, bv.players, bv.nplaced):
            return False
        if not self._bot_missions(bv):
            return False
        while PyDict_Next(bv.board, &pos, &ko, &vo):  # the engine's cells and contents: tuples of 2
            if (type(<object>ko) is not tuple or PyTuple_GET_SIZE(<object>ko) != 2 or type(<object>vo) is not tuple
                    or PyTuple_GET_SIZE(<object>vo) != 2):
                return False
            if not self._planet(<object>PyTuple_GET_ITEM(<object>ko, 0), <object>PyTuple_GET_ITEM(<object>ko, 1),
                                <object>PyTuple_GET_ITEM(<object>vo, 0), <object>PyTuple_GET_ITEM(<object>vo, 1)):
                return False
        used = bv.used
        for j in range(bv.nplaced):
            if bv.pseat[j] == seat:
                continue
            if not self._opponent(bv.px[j], bv.py[j], bv.parrow[j], <uint64_t>used[bv.pseat[j]]):
                return False
        return True

    cdef bint _load_dict(self, dict view) except -1:
        """The tables from the view's entries."""
        cdef int x, y, x0, y0, x1, y1, seat
        cdef dict c, grid
        cdef PyObject* ko
        cdef PyObject* vo
        cdef PyObject* vx
        cdef PyObject* vy
        cdef PyObject* vp
        cdef PyObject* vl
        cdef Py_ssize_t pos
        cdef list cells
        cdef uint64_t mask
        seat = view["seat"]
        players = view["players"]
        if type(view["grid"]) is not dict or type(view["grid"]["cells"]) is not list:
            return False
        grid = view["grid"]
        cells = grid["cells"]
        for item in cells:
            if type(item) is not dict:
                return False
        placed = view["placed"]
        # the shape's bounding box
        bounds = grid.get("bounds")  # the cells' bounding box (checked below, cell by cell)
        if type(bounds) is list and len(bounds) == 4 and all([type(b) is int and -(1 << 20) < b < (1 << 20)
                                                            for b in bounds]):
            x0, y0, x1, y1 = bounds
        else:
            x0, y0, x1, y1 = self._bounds(cells)
        if len(cells) == 0:
            x0 = y0 = x1 = y1 = 0
        if not self._open(x0, y0, x1, y1, players, len(placed)):
            return False
        # the board: planet cells with their level (0 for a Dark Planet)
        mine = view["missions"][seat] or []
        if len(mine) > MAXM:
            return False
        if not self._missions_of([md["id"] for md in mine], view["conquest"][seat], view["debris"][seat],
                                 self.mterm, self.mkind, self.mnamed, self.mcond, &self.nm):
            return False
        for c in cells:
            vx = vy = vp = vl = NULL
            pos = 0
            while PyDict_Next(c, &pos, &ko, &vo):
                if ko == KX:
                    vx = vo
                elif ko == KY:
                    vy = vo
                elif ko == KP:
                    vp = vo
                    if vo == <PyObject*>None:
                        break  # no planet: nothing else is read
                elif ko == KL:
                    vl = vo
                if vl != NULL and vp != NULL and vx != NULL and vy != NULL:
                    break
            if vp == NULL:  # keys that are equal strings but not the interned ones: look them up
                pid = c["planet"]
            else:
                pid = <object>vp
            if pid is None:
                continue
            if vx == NULL or vy == NULL or vl == NULL:
                x = c["x"]
                y = c["y"]
                lvl = c["level"]
            else:
                x = <object>vx
                y = <object>vy
                lvl = <object>vl
            if not self._planet(x, y, pid, 0 if lvl is None else <int>lvl):
                return False
        # opponents' cards: unknown cards (uniform), shield chance, threats per cell
        used = {}
        for hd in view["hands"]:
            mask = 0
            for kk in hd["used"]:
                got = self.card_ix.get(kk)
                if got is not None:
                    mask |= (<uint64_t>1) << <int>got
            used[hd["seat"]] = mask
        for p in placed:
            if p["seat"] == seat:
                continue
            pc = p["cell"]
            if not self._opponent(pc[0], pc[1], p["orientation"], <uint64_t>used[p["seat"]]):
                return False
        return True

    cdef void _bounds_of(self) noexcept:
        """``ubt``: per padded cell holding a planet, an upper bound of what one hit on it adds to the gain of an attack
        hitting no cell twice (``_attack``'s positive terms, each at least 0: the capture of a planet of level 1 or
        3, the opponent's card destroyed, and, when a planet of level 1 is emptied, each planet neighbour all of
        whose planet neighbours are of level 1 (only those can be emptied) isolated, its card destroyed); 0
        elsewhere."""
        cdef int t, d, d2, nn, c2, n = self.gn, w = self.gw
        cdef bint lone
        cdef double u, q
        for t in range(n):
            if not self.pres0[t]:
                self.ubt[t] = 0.0
                continue
            u = 0.0
            if (self.lev0[t] == 1 or self.lev0[t] == 3) and self.capv[t] > 0.0:
                u += self.capv[t]
            if self.isopp[t]:
                u += DESTROY_GAIN
            if self.lev0[t] == 1:
                for d in range(4):
                    nn = t + self.nby[d] * w + self.nbx[d]
                    if not self.pres0[nn]:
                        continue
                    lone = True  # (an isolated planet keeps its neighbours: no other is isolated through it)
                    for d2 in range(4):
                        c2 = nn + self.nby[d2] * w + self.nbx[d2]
                        if self.pres0[c2] and self.lev0[c2] != 1:
                            lone = False
                            break
                    if not lone:
                        continue
                    q = ISOLATE_GAIN
                    if self.mg[nn] > 0.0:
                        q += self.mg[nn]
                    if self.isopp[nn]:
                        q += DESTROY_GAIN
                    u += q
            self.ubt[t] = u

    cdef bint _score(self, list legal, bint prune) except -1:
        """Score every legal placement into ``vals`` (the tables filled).

        ``prune`` (``best``: only the best scores matter): an attack whose upper bound (the sum of ``ubt`` over its
        hits, less the card's keep value) is below the best score found so far by more than a margin is not scored
        (its value is set to minus infinity): its real score is below the best by more than ``best``'s 1e-12, so the
        best indices are the same. Every placement with the same memo key (card, cell, targets holding a planet)
        has the same bound (its hits on other cells add 0), so one pruned placement's later copies are pruned too
        and a placement left takes the value of the first one left with its key: the reference's memo. The attack
        of highest bound is scored first (its value, up to the rounding of another order of the same additions,
        is a score some placement has: a floor for the best). Cards hitting a cell twice are never pruned (their
        attacks may need the reference: ``_bad``; and their copies may hit a cell another number of times)."""
        cdef Py_ssize_t m = PyList_GET_SIZE(legal), i, n = self.gn, first = -1, nc = 0, q
        cdef int ci, k, s, e, j, t, w = self.gw, later = self.later
        cdef int* cand
        cdef int gx0 = self.gx0, gy0 = self.gy0, x1 = self.gx1, y1 = self.gy1, x0 = self.ox, y0 = self.oy
        cdef double v, ub, hi = -INFINITY, top = -INFINITY, vmax = -INFINITY, laterpow = self.laterpow
        cdef uint64_t key
        cdef Py_ssize_t slot
        cdef PyObject* po
        cdef Act act
        memcpy(self.cpres, self.pres0, n)
        memcpy(self.clev, self.lev0, n * sizeof(int))
        memcpy(self.cpid, self.pid0, n * sizeof(int))
        if prune:
            self._bounds_of()
        # the candidates: Shields and attacks on no planet scored, the other attacks' keys and bounds
        self._cands(m)
        cand = self.cand
        self.gen += 1
        if self.gen > 1 << 30:
            self._clear_stamps()
            self.gen = 1
        for i in range(m):
            po = PyList_GET_ITEM(legal, i)  # borrowed: the list holds it
            slot = self._slot(<uintptr_t>po)
            if self.htab[slot].key == 0:
                if not self._learn(<object>po):
                    return False
                slot = self._slot(<uintptr_t>po)
            act = self.htab[slot]
            k = act.k
            if act.x < gx0 or act.x > x1 or act.y < gy0 or act.y > y1:
                return False
            ci = (act.y - y0) * w + (act.x - x0)
            if self.shield[k]:
                v = self._shield(ci, k, later)
                self.vals[i] = v
                if v > top:
                    top = v
                if v > vmax:
                    vmax = v
                continue
            # the reference's memo key: (card, cell, set of targets holding a planet)
            key = 0
            ub = 0.0
            e = (k * MAXA + act.a) * MAXH
            if prune:
                for s in range(self.nh[k]):
                    t = ci + self.off[e + s]
                    key |= self.hbit[e + s] & (<uint64_t>0 - <uint64_t>self.pres0[t])
                    ub += self.ubt[t]
            else:
                for s in range(self.nh[k]):  # branch-free: a planet's bit masked in
                    key |= self.hbit[e + s] & (<uint64_t>0 - <uint64_t>self.pres0[ci + self.off[e + s]])
            if key == 0:  # no target holds a planet: ``_attack`` gives 0.0 (live * 1.0 * 0.0 - 0.0 * SHIELD_LOSS)
                v = 0.0 - self.keep[k]
                self.vals[i] = v
                if v > top:
                    top = v
                if v > vmax:
                    vmax = v
                continue
            self.keyb[i] = key
            self.ck[i] = k
            self.ca[i] = act.a
            self.cci[i] = ci
            cand[nc] = <int>i
            nc += 1
            if self.dup[k]:
                self.cub[i] = INFINITY
            else:
                ub = ub - self.keep[k]
                self.cub[i] = ub
                # a floor for the best (below): the attack of highest bound, the first of them (a card hitting no
                # cell twice)
                if prune and (ub > hi or first < 0):
                    hi = ub
                    first = i
        if prune:
            if first >= 0:
                v = self._attack(self.ck[first], self.ca[first], self.cci[first], w, laterpow)
                v = v - self.keep[self.ck[first]]
                v = v - 1e-9 - 1e-9 * fabs(v)  # the first placement with its key adds the same terms in its order
                if v > top:
                    top = v
        # the attacks, in order: pruned, or the memo's value, or scored
        for q in range(nc):
            i = cand[q]
            k = self.ck[i]
            # the margin: the bound's own rounding and the scores' (a few ulps of numbers far below 1e6)
            if prune and self.cub[i] + 1e-6 + 1e-9 * fabs(self.cub[i]) < top - 1e-12:
                self.vals[i] = -INFINITY
                continue
            ci = self.cci[i]
            key = self.keyb[i]
            e = k * n + ci
            j = -1
            if self.rep_gen[e] == self.gen:
                j = self.rep_head[e]
                while j >= 0 and self.keyb[j] != key:
                    j = self.nextrep[j]
            else:
                self.rep_gen[e] = self.gen
                self.rep_head[e] = -1
            if j >= 0:
                self.vals[i] = self.vals[j]  # (already in ``vmax``)
                continue
            self.nextrep[i] = self.rep_head[e]
            self.rep_head[e] = <int>i
            v = self._attack(k, self.ca[i], ci, w, laterpow)
            if self._bad:
                return False
            v = v - self.keep[k]
            self.vals[i] = v
            if v > top:
                top = v
            if v > vmax:
                vmax = v
        self.vmax = vmax
        return True

    cdef double _shield(self, int ci, int k, int later) noexcept:
        """``ShsEval.value`` of a Space Shield on ``ci``."""
        cdef Acc acc
        cdef int j = self.thead[ci]
        cdef double attract, hits, m
        if self.shgen[ci] == self.gen:
            hits = self.shv[ci]
        else:
            acc.s = 0.0
            acc.c = 0.0
            acc.n = 0
            while j >= 0:
                acc_add(&acc, self.tprob[j])
                j = self.tnext[j]
            hits = acc_get(&acc)
            self.shv[ci] = hits
            self.shgen[ci] = self.gen
        if self.pres0[ci] and (self.lev0[ci] == 1 or self.lev0[ci] == 3):
            attract = LATER_ATTRACT * 1.5
        else:
            attract = LATER_ATTRACT * 1.0
        m = hits + attract * <double>later
        if not (m < 1.0):
            m = 1.0
        return SHIELD_WIN * m - self.keep[k]

    cdef double _attack(self, int k, int a, int ci, int w, double laterpow) noexcept:
        """``ShsEval._attack``: NaN with ``_bad`` set when the reference must decide."""
        cdef int s, t, lv, nemp = 0, nchg = 0, d, d2, nn, pr = self.prio[k], j, pid
        cdef int[MAXH] emptied
        cdef int[MAXH * 5] changed
        cdef double gain = 0.0, skeep = 1.0, after, keepthr, p_shield, live
        cdef bint alone
        cdef int ix
        self._bad = False
        for s in range(self.nh[k]):
            t = ci + self.off[(k * MAXA + a) * MAXH + s]
            if not self.cpres[t]:
                continue
            if self.isopp[t]:
                skeep *= self.oms[t]
                ix = pr * self.gn + t
                if self.aftgen[ix] == self.gen:
                    after = self.aftv[ix]
                else:
                    after = sum_copies(self.oprob[t], popcount(self.omask[t] & self.below[k]))
                    self.aftv[ix] = after
                    self.aftgen[ix] = self.gen
                gain += after * DESTROY_GAIN
                if after >= 0.5:
                    continue
            lv = self.clev[t]
            if lv == 0:
                continue
            if lv == 4 or lv == 2:
                changed[nchg] = t
                nchg += 1
                self.clev[t] = lv - 1
                if not self.p7[k]:
                    gain -= FLIP_COST
                continue
            if self.cpid[t] < 0:  # a replacement card: the reference looks up its planet ""
                self._bad = True
                self._restore(changed, nchg)
                return 0.0
            gain += self.capv[t]
            changed[nchg] = t
            nchg += 1
            if lv == 3:
                self.clev[t] = 2
                self.cpid[t] = -1
            else:
                self.cpres[t] = 0
                emptied[nemp] = t
                nemp += 1
        for j in range(nemp):  # SHS-10: neighbours left without a neighbour go to the debris
            t = emptied[j]
            for d in range(4):
                nn = t + self.nby[d] * w + self.nbx[d]
                if not self.cpres[nn]:
                    continue
                alone = True
                for d2 in range(4):
                    if self.cpres[nn + self.nby[d2] * w + self.nbx[d2]]:
                        alone = False
                        break
                if alone:
                    self.cpres[nn] = 0
                    changed[nchg] = nn
                    nchg += 1
                    pid = self.cpid[nn]
                    gain += ISOLATE_GAIN + (self.mg[nn] if pid >= 0 else 0.0)
                    if self.isopp[nn] and nn != ci:
                        gain += DESTROY_GAIN
        self._restore(changed, nchg)
        p_shield = 1.0 - skeep
        ix = pr * self.gn + ci
        if self.livegen[ix] == self.gen:
            live = self.livev[ix]
        else:
            keepthr = 1.0
            j = self.thead[ci]
            while j >= 0:
                if self.tpr[j] >= pr:
                    keepthr *= 1.0 - self.tprob[j]
                j = self.tnext[j]
            live = 1.0 - (1.0 - keepthr * laterpow)
            self.livev[ix] = live
            self.livegen[ix] = self.gen
        return live * (1.0 - p_shield) * gain - p_shield * SHIELD_LOSS

    cdef inline void _restore(self, int* changed, int nchg) noexcept:
        cdef int q, t
        for q in range(nchg):
            t = changed[q]
            self.cpres[t] = self.pres0[t]
            self.clev[t] = self.lev0[t]
            self.cpid[t] = self.pid0[t]
