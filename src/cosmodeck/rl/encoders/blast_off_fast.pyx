# cython: language_level=3, boundscheck=True, wraparound=True
"""Blast Off!'s observation, mask and action decoding by compiled code: exactly ``blast_off_direct``'s.

``BlastOffDirect`` (the readable direct path) builds one ``CompiledWriter`` per encoder when this extension was
built, and the encoder sets its methods as the table's compiled hooks (``Encoder.row_writer``,
``mask_writer``, ``action_at``, ``observer``, ``actor``), so the environments' compiled steps
(``rl/steps_fast.pyx``) run for Blast Off! as for Shooting Star (turn-based timing; real time keeps the
readable path). It reads the same state fields through the same information filter (BLO-13) as
``BlastOffDirect.write`` and copies each of its lines (the comments name them); the public log's features
are the readable code's own: ``BlastOffDirect.public_log``'s log with a tracker per state followed, that this
writer keeps as the table's memo would (see ``_memo``), then ``BlastOffEncoder.log_features`` (skipped when
nothing is owed nor found: every feature is then 0). The tracker is the compiled ``FastLogTrack``
(``blast_off_track_fast.pyx``) when built, asked with the state (``log_state``), else the readable
``LogTrack``. The mask and the decoding are ``Encoder.legal_map``'s, sharing the encoder's cache of catalog
indices by action object (the last legal list's indices kept, for the same list of actions asked again).
``tests/rl/test_blast_off_fast.py`` proves all of it equal to the readable path (``LogTrack`` included) on
every step of seeded games.
"""

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.list cimport PyList_GET_ITEM
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memset
from cosmodeck.rl.encoders.scale cimport ratio as _ratio, rel as _rel

from weakref import ref as _wref

import numpy as _np

from cosmodeck.games.blast_off.cards import NO_VALUE as _NO_VALUE
from cosmodeck.games.blast_off.cards import VALUES as _VALUES
from cosmodeck.games.blast_off.phases import AUTHOR as _AUTHOR
from cosmodeck.games.blast_off.phases import CHOOSE as _CHOOSE
from cosmodeck.games.blast_off.phases import COUNTDOWN as _COUNTDOWN
from cosmodeck.games.blast_off.phases import DECLARE as _DECLARE
from cosmodeck.games.blast_off.phases import DRAWN as _DRAWN
from cosmodeck.games.blast_off.phases import PHASE_NAMES as _PHASE_NAMES
from cosmodeck.games.blast_off.phases import RESPONSE as _RESPONSE
from cosmodeck.rl.encoders.base import EMPTY_VIEW as _EMPTY_VIEW
from cosmodeck.rl.encoders.base import MEMO as _MEMO

DEF MAXSEATS = 16
DEF MAXTYPES = 64  # card types
DEF MAXVALUE = 64  # card values (1..10, Blast Off! = 11)
DEF MAXPHASES = 16
DEF MAX_TRACKS = 512  # states followed at once (a vector environment's games, a table and its copies)

cdef int NO_VALUE = _NO_VALUE
cdef int PH_DRAWN = _DRAWN
cdef int PH_COUNTDOWN = _COUNTDOWN
cdef int PH_RESPONSE = _RESPONSE
cdef object _empty = _np.empty
cdef object _zeros = _np.zeros
cdef object _F32 = _np.dtype(_np.float32)
cdef object _I8 = _np.dtype(_np.int8)
cdef object EMPTY_VIEW = _EMPTY_VIEW
cdef str MEMO = _MEMO
cdef str FALSE_CATCH = "false_catch"
try:  # the compiled log tracker (``blast_off_track_fast``), asked by ``_log`` as ``BlastOffDirect.public_log`` does
    from cosmodeck.rl.encoders.blast_off_track_fast import FastLogTrack as _FAST_TRACK
except ImportError:
    _FAST_TRACK = None
cdef object FAST_TRACK = _FAST_TRACK




class _Drop:
    """A state's weak reference callback: its memo and reference leave the pool (if they are still its own)."""

    __slots__ = ("memos", "refs", "key")

    def __init__(self, memos, refs, key):
        self.memos, self.refs, self.key = memos, refs, key

    def __call__(self, r):
        if self.refs.get(self.key) is r:
            del self.refs[self.key]
            self.memos.pop(self.key, None)


cdef class CompiledWriter:
    """One encoder's layout as C tables; ``write``, ``fill_mask``, ``action_of``, ``observe`` and ``act``."""

    cdef object direct, enc, game
    cdef dict refs  # id(state) -> a weak reference to it, whose callback drops its memo
    cdef dict memos  # id(state) -> the memo ``public_log`` keeps its ``LogTrack`` in (see ``_memo``)
    cdef int n, size, nm, ntypes, num_actions, deck_size
    cdef int o_phase, o_turn, o_dealer, o_direction, o_hand, o_hand_sizes, o_active, o_draw_pile, o_discard
    cdef int o_top_card, o_top_colour, o_top_value, o_missions_in_force, o_missions_discarded, o_mission_deck
    cdef int o_skip_marks, o_placings, o_passes, o_countdown, o_cd_rocket, o_cd_called, o_cd_filled
    cdef int o_cd_skipped, o_cd_last, o_cd_acted, o_obligations, o_obligation_count, o_decision, o_drawn
    cdef int o_pending, o_responded, o_penalties, o_over
    cdef tuple o_log  # the offsets of owed, owed_left, violations, violation_left
    cdef int ctype_len
    cdef int* ctype  # card id -> card type
    cdef double copies[MAXTYPES]  # copies of each type (at least 1)
    cdef int value_pos[MAXVALUE]  # card value -> its index in VALUES (-1: none)
    cdef int phase_pos[MAXPHASES]
    cdef int decision_of[MAXPHASES]  # phase -> index in DECISIONS (-1: none)
    cdef dict mission_index  # data mission id -> catalog index
    cdef dict index_of  # the encoder's cache: id(action) -> catalog index (-1: not in the catalog)
    cdef list alive
    cdef dict index  # catalog entry -> index
    cdef list last_legal, last_idx  # the last legal list asked (``_indices``) and its catalog indices

    def __init__(self, direct):
        enc = direct.enc
        off = direct.off
        self.direct = direct
        self.enc = enc
        self.game = enc.game
        self.n = direct.n
        self.size = direct.size
        self.nm = len(enc.mission_ids)
        self.ntypes = len(enc.copies)
        self.deck_size = enc.deck_size
        ctype = tuple(direct.ctype)
        if (self.n > MAXSEATS or self.ntypes > MAXTYPES or max(_VALUES) >= MAXVALUE
                or len(_PHASE_NAMES) > MAXPHASES):
            raise ValueError("blast_off_fast: the layout is larger than this module's tables")
        self.ctype_len = len(ctype)
        self.ctype = <int*>PyMem_Malloc(max(1, self.ctype_len) * sizeof(int))
        if self.ctype == NULL:
            raise MemoryError()
        cdef int i
        for i in range(self.ctype_len):
            self.ctype[i] = ctype[i]
        for i in range(self.ntypes):
            self.copies[i] = enc.copies[i]
        for i in range(MAXVALUE):
            self.value_pos[i] = -1
        for i, v in enumerate(_VALUES):
            self.value_pos[v] = i
        for i in range(MAXPHASES):
            self.phase_pos[i] = 0
            self.decision_of[i] = -1
        for i, p in enumerate(direct.phase_pos):
            self.phase_pos[i] = p
        from cosmodeck.rl.encoders.blast_off_direct import DECISION_OF
        for ph, d in DECISION_OF.items():
            self.decision_of[ph] = d
        self.mission_index = enc.mission_index
        self.index_of = enc._index_of
        self.alive = enc._alive
        self.index = enc.index
        self.num_actions = enc.num_actions
        self.o_phase, self.o_turn, self.o_dealer = off["phase"], off["turn"], off["dealer"]
        self.o_direction, self.o_hand, self.o_hand_sizes = off["direction"], off["hand"], off["hand_sizes"]
        self.o_active, self.o_draw_pile, self.o_discard = off["active"], off["draw_pile"], off["discard"]
        self.o_top_card, self.o_top_colour, self.o_top_value = off["top_card"], off["top_colour"], off["top_value"]
        self.o_missions_in_force, self.o_missions_discarded = off["missions_in_force"], off["missions_discarded"]
        self.o_mission_deck, self.o_skip_marks, self.o_placings = off["mission_deck"], off["skip_marks"], \
            off["placings"]
        self.o_passes, self.o_countdown, self.o_cd_rocket = off["passes"], off["countdown"], off["cd_rocket"]
        self.o_cd_called, self.o_cd_filled, self.o_cd_skipped = off["cd_called"], off["cd_filled"], off["cd_skipped"]
        self.o_cd_last, self.o_cd_acted, self.o_obligations = off["cd_last"], off["cd_acted"], off["obligations"]
        self.o_obligation_count, self.o_decision, self.o_drawn = off["obligation_count"], off["decision"], \
            off["drawn"]
        self.o_pending, self.o_responded, self.o_penalties = off["pending"], off["responded"], off["penalties"]
        self.o_over = off["over"]
        self.o_log = (off["owed"], off["owed_left"], off["violations"], off["violation_left"])
        if self.o_over + 1 != self.size:
            raise ValueError("blast_off_fast: 'over' is not the layout's last entry")
        self.memos = {}
        self.refs = {}

    def __dealloc__(self):
        PyMem_Free(self.ctype)

    cdef inline int _type(self, object cid) except -1:
        cdef Py_ssize_t c = cid
        if c < 0 or c >= self.ctype_len:
            raise IndexError("blast_off_fast: a card id outside the game's cards")
        return self.ctype[c]

    cdef int _counts(self, float* out, int start, list cards) except -1:
        """``BlastOffDirect._counts``: per card type, the cards of that type among ``cards`` / its copies."""
        cdef int counts[MAXTYPES]
        cdef int t
        memset(counts, 0, sizeof(counts))
        for c in cards:
            counts[self._type(c)] += 1
        for t in range(self.ntypes):
            if counts[t]:
                out[start + t] = _ratio(counts[t], self.copies[t])
        return 0

    cdef object _mission(self, st, mi):
        """``st.mission(mi)``."""
        ms = st.g.missions
        return ms[mi] if mi < len(ms) else st.customs[mi - len(ms)]

    cdef int _missions(self, float* out, int start, st, list missions, double scale) except -1:
        """``BlastOffDirect._missions``."""
        cdef int authored = 0
        index = self.mission_index
        ms = st.g.missions  # (``st.mission(mi)``: ``ms[mi]``, or an authored one past them)
        cdef Py_ssize_t base = len(ms)
        for mi in missions:
            i = index.get((ms[mi] if mi < base else st.customs[mi - base]).id)
            if i is None:
                authored += 1
            else:
                out[start + <int>i] = 1.0
        out[start + self.nm] = _ratio(authored, scale)
        return 0

    def write(self, st, int seat, float[::1] row):
        """``BlastOffDirect.write`` into ``row`` (zeroed first; the observation's length)."""
        if row.shape[0] != self.size:
            raise ValueError("blast_off_fast: the row is not the observation's length")
        self._write(st, seat, &row[0])

    def write_rows(self, list states, long long[::1] seats, unsigned char[::1] active, float[:, ::1] obs,
                   signed char[:, ::1] masks):
        """Row i of ``obs`` and ``masks`` for every i: ``write(states[i], seats[i], obs[i])`` and, when
        ``active[i]`` (the seat decides now), ``fill_mask(states[i], seats[i], masks[i])``, else an all-zero mask
        row (a batch's rows in one call, without a buffer per row: ``rl/steps_fast.pyx``'s ``vector_step``)."""
        cdef Py_ssize_t i, k = len(states)
        if (seats.shape[0] != k or active.shape[0] != k or obs.shape[0] < k or masks.shape[0] < k
                or obs.shape[1] != self.size or masks.shape[1] != self.num_actions):
            raise ValueError("blast_off_fast: the batch's rows do not match the observation and mask lengths")
        for i in range(k):
            st = states[i]
            self._write(st, <int>seats[i], &obs[i, 0])
            if active[i]:
                self._fill(st, <int>seats[i], &masks[i, 0], True)
            else:
                memset(&masks[i, 0], 0, self.num_actions)

    cdef int _write(self, st, int me, float* out) except -1:
        """``BlastOffDirect.write(st, me, out, cache)``, each block in the order and with the values it writes."""
        cdef int n = self.n, s, r, j, k, idx, pen
        memset(out, 0, self.size * sizeof(float))
        if not 0 <= me < n:
            raise ValueError("blast_off_fast: no such seat")
        cdef int phase = st.phase
        out[self.o_phase + self.phase_pos[phase]] = 1.0
        out[self.o_turn + _rel(st.cur, me, n)] = 1.0
        out[self.o_dealer + _rel(st.dealer, me, n)] = 1.0
        out[self.o_direction] = 1.0 if st.dir == 1 else 0.0
        cdef list hands = st.hands
        self._counts(out, self.o_hand, hands[me])
        s = 0
        for h in hands:
            r = _rel(s, me, n)
            out[self.o_hand_sizes + r] = _ratio(len(h), 20.0)  # HAND_SCALE
            if h:
                out[self.o_active + r] = 1.0
            s += 1
        out[self.o_draw_pile] = _ratio(len(st.draw), self.deck_size)
        cdef list disc = st.disc
        self._counts(out, self.o_discard, disc)
        out[self.o_top_card + self._type(disc[-1])] = 1.0
        cdef int fcol = st.fcol, fval = st.fval
        if 0 <= fcol < 4:
            out[self.o_top_colour + fcol] = 1.0
        if fval != NO_VALUE:
            if not 0 <= fval < MAXVALUE or self.value_pos[fval] < 0:
                raise KeyError(fval)  # (``VALUE_POS[st.fval]``)
            out[self.o_top_value + self.value_pos[fval]] = 1.0
        self._missions(out, self.o_missions_in_force, st, st.inforce, 1.0)
        self._missions(out, self.o_missions_discarded, st, st.mdisc, 4.0)
        out[self.o_mission_deck] = _ratio(len(st.mdeck), max(1, self.nm))
        s = 0
        for k_ in st.skip:
            out[self.o_skip_marks + _rel(s, me, n)] = _ratio(k_, 3)
            s += 1
        for s_ in st.placings:
            out[self.o_placings + _rel(s_, me, n)] = 1.0
        out[self.o_passes] = _ratio(st.passes, n)
        cdef bint rt = st.rt
        if st.cd_rocket >= 0:  # (``st.in_countdown()``)
            out[self.o_countdown] = 1.0
            out[self.o_cd_rocket + _rel(st.cd_rocket, me, n)] = 1.0
            idx = st.cd_idx
            seq = st.cd_seq
            slots = st.cd_slots
            if 0 <= idx < len(seq):
                out[self.o_cd_called + self._pos(seq[idx])] = 1.0
            for v in slots:
                out[self.o_cd_filled + self._pos(v)] = 1.0
            for v in seq[:max(idx, 0)]:
                if v not in slots:
                    out[self.o_cd_skipped + self._pos(v)] = 1.0
            if st.cd_last >= 0:
                out[self.o_cd_last + _rel(st.cd_last, me, n)] = 1.0
            acted = st.cd_acted if rt else st.pend if phase == PH_COUNTDOWN else ()
            for s_ in acted:
                out[self.o_cd_acted + _rel(s_, me, n)] = 1.0
        first_count = None
        index = self.mission_index
        for o in st.obls:
            if o[0] == me:
                out[self.o_obligations + <int>index.get(self._mission(st, o[1]).id, self.nm)] = 1.0
                expect = o[2]
                if first_count is None and isinstance(expect, str) and expect.isdigit():
                    first_count = int(expect)
        if first_count is not None:
            out[self.o_obligation_count] = _ratio(first_count, self.deck_size)
        if 0 <= phase < MAXPHASES and self.decision_of[phase] >= 0:
            out[self.o_decision + self.decision_of[phase]] = 1.0
        if phase == PH_DRAWN and me == st.cur and st.drawn >= 0:
            out[self.o_drawn + self._type(st.drawn)] = 1.0
        if not rt:
            pend = st.pend
            if me in pend:
                p = pend[me]
                out[self.o_pending] = _ratio(len(p) if isinstance(p, list) else 1, 4)
        if phase == PH_RESPONSE:
            for s_ in st.rdone:
                out[self.o_responded + _rel(s_, me, n)] = 1.0
        pen = self.o_penalties
        for p in st.penalties:
            out[pen + _rel(p[0], me, n) * 2 + (1 if p[1] == FALSE_CATCH else 0)] += 0.25
        for j in range(pen, pen + 2 * n):  # counts / 4, clipped to [0, 1] as ratio() does
            if out[j] > 1.0:
                out[j] = 1.0
        log = self._log(st)
        if log is not None and (log.obls or log.viols):  # (nothing owed nor found: every feature is 0)
            feats = self.enc.log_features(log, st.now, me)
            for name_off, vals in zip(self.o_log, feats):
                k = name_off
                for x in vals:
                    if x:
                        out[k] = x
                    k += 1
        out[self.o_over] = 1.0 if st.res is not None else 0.0
        return 0

    cdef object _log(self, st):
        """``self.direct.public_log(st, {MEMO: self._memo(st)})``, the compiled tracker asked directly."""
        if st.res is not None or not st.recent:
            return None
        if FAST_TRACK is None or self.direct.track is not FAST_TRACK:
            return self.direct.public_log(st, {MEMO: self._memo(st)})
        memo = self._memo(st)
        track = memo.get("blast_off_track")
        if track is None:
            track = memo["blast_off_track"] = FAST_TRACK()
        elif type(track) is not FAST_TRACK:  # (another tracker was put there): as ``public_log`` does
            return self.direct.public_log(st, {MEMO: memo})
        return track.log_state(self.game, st, self.direct)

    cdef dict _memo(self, st):
        """The memo of ``st``'s game, as a table's (``Table._memo``): the hooks get the state, not the table, and
        the sub-environments of a vector environment share one encoder, so each state followed has its own
        ``LogTrack``. A memo is dropped when its state dies (a weak reference's callback; the compiled tracker holds
        its state weakly, so a finished game is not kept alive by the pool), and a track never gives another
        state's log (it starts afresh for a state it does not own); at ``MAX_TRACKS`` live states the pool starts
        afresh (each game then replays its window once)."""
        key = id(st)
        memo = self.memos.get(key)
        if memo is None:
            if len(self.memos) >= MAX_TRACKS:
                self.memos.clear()
                self.refs.clear()
            memo = self.memos[key] = {}
            try:
                self.refs[key] = _wref(st, _Drop(self.memos, self.refs, key))
            except TypeError:  # a state that takes no weak reference: kept until the pool starts afresh
                pass
        return <dict>memo

    cdef inline int _pos(self, object v) except -1:
        """``VALUE_POS[v]``."""
        cdef Py_ssize_t x = v
        if not 0 <= x < MAXVALUE or self.value_pos[x] < 0:
            raise KeyError(v)
        return self.value_pos[x]

    # ---- the mask and the decoding: ``Encoder.legal_map`` of the seat's legal actions --------------------
    cdef list _indices(self, list legal):
        """``_catalog(legal)``, kept for the last list asked: a list of the very same action objects (the engine's
        lists of one position, asked for the mask and then for the decoding) gets the same indices."""
        cdef list prev = self.last_legal
        cdef Py_ssize_t i, n = len(legal)
        if prev is not None and len(prev) == n:
            for i in range(n):
                if <object>PyList_GET_ITEM(legal, i) is not <object>PyList_GET_ITEM(prev, i):
                    break
            else:
                return self.last_idx
        idx = self._catalog(legal)
        self.last_legal = legal  # (held: its actions' identities stay theirs)
        self.last_idx = idx
        return idx

    cdef list _catalog(self, list legal):
        """The catalog index of each legal action (-1: not in the catalog), ``legal_map``'s cache by identity."""
        index_of = self.index_of
        try:
            return [index_of[id(a)] for a in legal]
        except KeyError:
            pass
        if len(index_of) > 100_000:  # actions made fresh each time would pile up
            index_of.clear()
            del self.alive[:]
        enc = self.enc
        index = self.index
        for a in legal:
            if id(a) not in index_of:
                k = enc.key(a, EMPTY_VIEW)
                index_of[id(a)] = index.get(k, -1) if k is not None else -1
                self.alive.append(a)
        return [index_of[id(a)] for a in legal]

    def fill_mask(self, st, int seat, signed char[::1] row, bint clear=True):
        """The mask of ``legal_state(st, seat)`` into ``row`` (zeroed first unless ``clear`` is false)."""
        if row.shape[0] != self.num_actions:
            raise ValueError("blast_off_fast: the row is not the catalog's length")
        self._fill(st, seat, &row[0], clear)

    cdef int _fill(self, st, int seat, signed char* row, bint clear) except -1:
        cdef Py_ssize_t j
        if clear:
            memset(row, 0, self.num_actions)
        for i in self._indices(list(st.legal_actions(seat))):
            j = i
            if j >= 0:
                row[j] = 1
        return 0

    def action_of(self, st, int seat, index):
        """``legal_state(st, seat).action(index)`` with ``None`` for ``ILLEGAL``: the first legal action of
        catalog entry ``index``."""
        return self._action_of(st, seat, index)

    cdef object _action_of(self, st, int seat, index):
        if not 0 <= index < self.num_actions:
            return None
        legal = list(st.legal_actions(seat))
        cdef Py_ssize_t i = 0
        for j in self._indices(legal):
            if j == index:
                return legal[i]
            i += 1
        return None

    def observe(self, st, int seat, bint active):
        """A fresh ``{"observation": ..., "action_mask": ...}`` of new arrays (``Table.observe`` in one call): the
        mask all zero unless ``active`` (the seat decides now)."""
        cdef Py_buffer b
        obs = _empty(self.size, _F32)
        PyObject_GetBuffer(obs, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
        try:
            self._write(st, seat, <float*>b.buf)
        finally:
            PyBuffer_Release(&b)
        if not active:
            return {"observation": obs, "action_mask": _zeros(self.num_actions, _I8)}
        mask = _empty(self.num_actions, _I8)
        PyObject_GetBuffer(mask, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)
        try:
            self._fill(st, seat, <signed char*>b.buf, True)
        finally:
            PyBuffer_Release(&b)
        return {"observation": obs, "action_mask": mask}

    def act(self, st, int seat, index):
        """``action_of`` then ``st.apply(seat, action)``: ``True`` if it applied, ``False`` (nothing changes) if
        ``index`` is not legal for ``seat`` now."""
        action = self._action_of(st, seat, index)
        if action is None:
            return False
        st.apply(seat, action)
        return True
