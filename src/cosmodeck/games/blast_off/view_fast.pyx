# cython: language_level=3, boundscheck=True, wraparound=True
"""Blast Off!'s player view compiled: ``full_view(st, seat)`` is ``State.view(st, seat)`` (the common keys, then
``view.view``'s game part) built as one dict.

The readable forms are ``engine/state.py:State.view`` with ``view.view`` (which keeps parts per state,
``view.ViewCache``) and ``view_reference.view_reference``; this module copies ``view.view`` and its helpers
line for line with C locals (each names the function it copies) and shares the same ``ViewCache``.
``BlastOffState.view`` calls it when the extension is built (``view.full_view``), else ``State.view``.
``tests/blast_off/test_view_cached.py`` proves both paths equal to the reference on every step of seeded
games, key for key, in order and as JSON.
"""

cimport cython

from collections.abc import Mapping

from cosmodeck.games.blast_off.cards import TYPE_NAME, face_json, face_text, value_text
from cosmodeck.games.blast_off.phases import CHOOSE, COUNTDOWN, DRAWN, PHASE_NAMES, RESPONSE
from cosmodeck.games.blast_off.view import (
    BOT_KEYS,
    _DECISION,
    _FACE_TEXT,
    _OWN_FACE,
    _RANK,
    _TOP,
    _VALUE_TEXT,
    _known,
    _revealed,
)

cdef int C_COUNTDOWN = COUNTDOWN
cdef int C_DRAWN = DRAWN
cdef int C_RESPONSE = RESPONSE
cdef int C_CHOOSE = CHOOSE
cdef tuple C_TYPE_NAME = TYPE_NAME
cdef tuple C_OWN_FACE = _OWN_FACE
cdef dict C_FACE_TEXT = _FACE_TEXT
cdef dict C_TOP = _TOP
cdef dict C_VALUE_TEXT = _VALUE_TEXT
cdef tuple C_RANK = _RANK
# the type names in the hand's order: ``C_BY_RANK[C_RANK[t]]`` is ``TYPE_NAME[t]`` (``_RANK`` is a permutation)
cdef tuple C_BY_RANK = tuple(TYPE_NAME[_RANK.index(r)] for r in range(len(_RANK)))
cdef dict C_DECISION = _DECISION
cdef object C_PHASE_NAMES = PHASE_NAMES


def full_view(st, seat):
    """``State.view(st, seat)``: the common keys (``engine/state.py``) then ``view.view(st, seat)``'s, in that
    order, as one dict literal (built at its full size)."""
    players = st.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        st._seat(seat, True)  # the engine's check (and its error) for anything but an int seat of this game
    res = st._result()
    cdef bint rt = st.rt
    vc = st._vc
    gid = vc.gid
    if gid is None:
        gid = vc.gid = st.game.id  # a state's game is its own for good
    cdef int ph = st.phase
    cdef list hands = st.hands
    cdef list disc = st.disc
    fcol, fval = st.fcol, st.fval
    top = C_TOP.get((fcol, fval))
    if top is None:
        top = (face_text(fcol, fval), *face_json(fcol, fval).values())
    g = st.g
    cdef tuple ctype = g.ctype
    cdef int cur = st.cur
    cdef object h
    cdef tuple lists = _mission_lists(st, vc)
    pending = None
    if seat is not None and not rt:
        pend = st.pend
        if seat in pend:
            p = pend[seat]
            pending = [str(a) for a in p] if isinstance(p, list) else str(p)
    drawn = st.drawn
    return {
        "game": gid,
        "players": players,
        "seat": seat,
        "now": st.now,
        "to_act": sorted(st.to_act),
        # ``next_deadline()``: none once over, else ``_deadline()``, which is none in turn-based timing
        "deadline": None if res is not None or not rt else st._deadline(),
        "over": res is not None,
        "result": None if res is None else res.to_dict(),
        # ``view.view``
        "phase": C_PHASE_NAMES[ph],
        "timing": "realtime" if rt else "steps",
        "turn": cur,
        "dealer": st.dealer,
        "dir": st.dir,
        "hand": None if seat is None else _hand(st, vc, seat),
        "hand_sizes": [len(h) for h in hands],
        "known": [] if seat is None or seat not in st.kby else _known(st, seat),
        "active": [bool(h) for h in hands],
        "draw_pile": len(st.draw),
        "discard": _discard(st, vc),
        "top": {"card": C_TYPE_NAME[ctype[disc[-1]]], "face": top[0], "colour": top[1], "value": top[2]},
        "missions_in_force": list(lists[0]),
        "missions_discarded": list(lists[1]),
        "mission_deck": len(st.mdeck),
        "missions": list(lists[2]),
        "penalties": _penalties(st, vc),
        "recent": _recent(st, vc),
        "skip_marks": list(st.skip),
        "placings": list(st.placings),
        "passes": st.passes,
        "response_step": st.resp_no,
        "countdown": None if st.cd_rocket < 0 else _countdown(st, vc, ph, rt),
        "obligations": [] if seat is None or not st.obls else _obligations(st, seat, rt),
        "decision": None if ph not in C_DECISION else _decision(st, ph, cur),
        "drawn": C_TYPE_NAME[ctype[drawn]] if ph == C_DRAWN and seat == cur and drawn >= 0 else None,
        "pending": pending,
        "responded": sorted(st.rdone) if ph == C_RESPONSE else [],
    }


# ``BotView``'s keys (``view.BOT_KEYS``), numbered in that order
cdef tuple C_BOT_KEYS = BOT_KEYS
cdef dict C_BOT_CODE = {k: i for i, k in enumerate(BOT_KEYS)}
cdef object _NOT_BUILT = object()


def bot_view(st, seat):
    """``view.bot_view_py(st, seat)`` as a ``BotView``: the same entries, each built when first read."""
    return BotView(st, seat)


cdef class BotView:
    """A projection of ``seat``'s view: its entries named by ``view.BOT_KEYS`` (in that order), each built when it
    is first read, by the helpers and kept parts ``full_view`` uses (equal to ``full_view(st, seat)[key]``), then
    kept for the next read. A read-only mapping, like ``bots.base.LazyView`` read at once: its entries are those of
    the state as it is when they are read (the simulator hands it to the bot and applies nothing until the bot has
    answered). ``has_countdown()`` is ``self["countdown"] is not None`` without building the countdown's entry."""

    def __cinit__(self, st, seat):
        if type(seat) is not int or not 0 <= <long>seat < <long>st.players:
            st._seat(seat)  # the engine's check (and its error): a seat of this game, not a spectator
        self.st = st
        self.seat = seat
        self.got = {}

    cdef bint has_countdown(self) except -1:
        return self.st.cd_rocket >= 0

    cdef object entry(self, key):
        """The entry ``key`` (``KeyError`` for a key it does not hold)."""
        got = self.got.get(key, _NOT_BUILT)
        if got is not _NOT_BUILT:
            return got
        code = C_BOT_CODE.get(key)
        if code is None:
            raise KeyError(key)
        got = self.got[key] = self._build(code)
        return got

    cdef object _build(self, int code):
        """``full_view``'s expression for the key numbered ``code``."""
        st = self.st
        if code == 0:  # seat
            return self.seat
        if code == 1:  # now
            return st.now
        if code == 2:  # deadline
            return None if not st.rt or st._result() is not None else st._deadline()
        if code == 3:  # phase
            return C_PHASE_NAMES[st.phase]
        if code == 4:  # timing
            return "realtime" if st.rt else "steps"
        if code == 5:  # hand
            return _hand(st, st._vc, self.seat)
        if code == 6:  # hand_sizes
            return [len(h) for h in <list>st.hands]
        if code == 7:  # top
            fcol, fval = st.fcol, st.fval
            top = C_TOP.get((fcol, fval))
            if top is None:
                top = (face_text(fcol, fval), *face_json(fcol, fval).values())
            return {"card": C_TYPE_NAME[(<tuple>st.g.ctype)[(<list>st.disc)[-1]]], "face": top[0], "colour": top[1],
                    "value": top[2]}
        if code == 8:  # missions_in_force
            return list(_mission_lists(st, st._vc)[0])
        if code == 9:  # missions
            return list(_mission_lists(st, st._vc)[2])
        if code == 10:  # recent
            return _recent(st, st._vc)
        if code == 11:  # response_step
            return st.resp_no
        if code == 12:  # countdown
            return None if st.cd_rocket < 0 else _countdown(st, st._vc, st.phase, st.rt)
        # obligations
        return [] if not st.obls else _obligations(st, self.seat, st.rt)

    def __getitem__(self, key):
        return self.entry(key)

    def get(self, key, default=None):
        if key in C_BOT_CODE:
            return self.entry(key)
        return default

    def __contains__(self, key):
        return key in C_BOT_CODE

    def __iter__(self):
        return iter(C_BOT_KEYS)

    def __len__(self):
        return len(C_BOT_KEYS)

    def keys(self):
        return list(C_BOT_KEYS)

    def values(self):
        return [self.entry(k) for k in C_BOT_KEYS]

    def items(self):
        return [(k, self.entry(k)) for k in C_BOT_KEYS]

    def __eq__(self, other):
        if isinstance(other, (BotView, Mapping)):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        raise TypeError("unhashable type: 'BotView'")

    def __repr__(self):
        return f"BotView({dict(self.items())!r})"


Mapping.register(BotView)


cdef tuple _mission_lists(st, vc):
    """``full_view``'s three mission lists (in force, discarded, revealed), kept while the missions in force,
    discarded and revealed are the same (and no mission was authored since); ``st.mission(mi)``: the game's
    mission ``mi``, else authored ``mi - ngm``."""
    g = st.g
    gm = g.missions
    cdef Py_ssize_t ngm = len(gm)
    customs = st.customs
    cdef list inforce = st.inforce
    cdef list mdisc = st.mdisc
    cdef list revealed = st.revealed
    kept = vc.mlists
    if kept is not None and kept[3] is customs and kept[4] is gm and kept[0] == inforce and kept[1] == mdisc \
            and kept[2] == revealed:
        return kept[5]
    lists = ([_mjson(vc, mi, gm[mi] if mi < ngm else customs[mi - ngm], None, None) for mi in inforce],
             [_mjson(vc, mi, gm[mi] if mi < ngm else customs[mi - ngm], None, None) for mi in mdisc],
             [_mjson(vc, mi, gm[mi] if mi < ngm else customs[mi - ngm], mi in inforce, st) for mi in revealed])
    vc.mlists = (inforce[:], mdisc[:], revealed[:], customs, gm, lists)
    return lists


cdef list _hand(st, vc, seat):
    """``view._hand``."""
    cdef list hand = st.hands[seat]
    cdef dict kept_by_seat = vc.hands
    kept = kept_by_seat.get(seat)
    if kept is not None and kept[0] == hand:
        return list(kept[1])
    cdef tuple ctype = st.g.ctype
    # the types sorted by their place in the hand's order (a stable sort by ``_RANK``: equal places are one type)
    cdef list ranks = [C_RANK[ctype[c]] for c in hand]
    ranks.sort()
    cdef list names = [C_BY_RANK[r] for r in ranks]
    kept_by_seat[seat] = (hand[:], names)
    return list(names)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef bint _same(list a, Py_ssize_t off, list b, Py_ssize_t n) except -1:
    """``a[off:off + n] == b[:n]`` (both that long, which the callers check), without the slices: the same
    objects, else equal ones."""
    cdef Py_ssize_t i
    for i in range(n):
        x = a[off + i]
        y = b[i]
        if x is not y and x != y:
            return False
    return True


cdef list _recent(st, vc):
    """``view._recent`` (the kept lists trimmed and extended in place: only copies of them leave)."""
    cdef list rec = st.recent
    cdef list src = vc.rsrc
    cdef list cop
    cdef Py_ssize_t off, kept
    if src and rec:
        off = rec[0]["n"] - src[0]["n"]
        kept = len(src) - off
        if off >= 0 and 0 < kept <= len(rec) and _same(src, off, rec, kept):
            cop = vc.rcopy
            if off:
                del src[:off]
                del cop[:off]
            for e in rec[kept:]:
                src.append(e)
                cop.append(dict(e))
            return list(cop)
    cop = [dict(e) for e in rec]
    vc.rsrc = rec[:]
    vc.rcopy = cop
    return list(cop)


cdef list _discard(st, vc):
    """``view._discard`` (the kept lists extended in place: only copies of them leave)."""
    cdef list disc = st.disc
    cdef dict wface = st.wface
    cdef list ids = vc.dids
    cdef Py_ssize_t n = len(ids)
    cdef list ent
    if wface == vc.dwf and n <= len(disc):
        if n == len(disc):
            if _same(ids, 0, disc, n):
                return list(vc.dent)
        elif _same(ids, 0, disc, n):
            ent = vc.dent
            ent.extend(_entries(st, disc[n:]))
            ids.extend(disc[n:])
            return list(ent)
    ent = _entries(st, disc)
    vc.dids = disc[:]
    vc.dwf = dict(wface)
    vc.dent = ent
    return list(ent)


cdef list _penalties(st, vc):
    """``[{"seat": s, "kind": k, "mission": m} for s, k, m in st.penalties]``, an entry built once per penalty
    (the kept lists extended in place while the penalties so far are the same: only copies of them leave)."""
    cdef list pens = st.penalties
    cdef list ids = vc.pids
    cdef Py_ssize_t n = len(ids)
    cdef list ent
    if n <= len(pens) and _same(ids, 0, pens, n):
        ent = vc.pent
        for p in pens[n:]:
            s, k, m = p
            ids.append(p)
            ent.append({"seat": s, "kind": k, "mission": m})
        return list(ent)
    ent = [{"seat": s, "kind": k, "mission": m} for s, k, m in pens]
    vc.pids = pens[:]
    vc.pent = ent
    return list(ent)


cdef list _entries(st, list cards):
    """``view._entries``."""
    cdef tuple ctype = st.g.ctype
    cdef dict wface = st.wface
    cdef list out = []
    cdef object t
    if not wface:
        for c in cards:
            t = ctype[c]
            out.append({"card": C_TYPE_NAME[t], "face": C_OWN_FACE[t]})
        return out
    for c in cards:
        t = ctype[c]
        w = wface.get(c)
        out.append({"card": C_TYPE_NAME[t],
                    "face": C_OWN_FACE[t] if w is None else C_FACE_TEXT.get(w) or face_text(*w)})
    return out


cdef dict _mjson(vc, mi, m, in_force, st):
    """``view._mjson``."""
    key = (mi, in_force)
    cdef dict kept_by_key = vc.mjson
    kept = kept_by_key.get(key)
    if kept is not None and kept[0] is m:
        return kept[1]
    cdef dict out = m.to_json() if st is None else _revealed(st, mi)
    kept_by_key[key] = (m, out)
    return out


cdef dict _countdown(st, vc, int ph, bint rt):
    """``view._countdown``."""
    seq = st.cd_seq
    if seq != vc.cseq:
        vc.cseq = tuple(seq)
        vc.ctext = [C_VALUE_TEXT.get(v) or value_text(v) for v in seq]
        vc.cslots = None
    cdef list texts = vc.ctext
    cdef Py_ssize_t idx = st.cd_idx
    cdef Py_ssize_t i, ntexts = len(texts)
    cdef dict slots = st.cd_slots
    cdef dict slot_texts
    cdef list skipped
    kept = vc.cslots  # (slots, idx, slot texts, skipped) for the sequence of ``ctext``
    if kept is not None and kept[1] == idx and kept[0] == slots:
        slot_texts = dict(kept[2])
        skipped = list(kept[3])
    else:
        slot_texts = {}
        skipped = []
        if slots:
            for v, s in sorted(slots.items(), reverse=True):
                slot_texts[C_VALUE_TEXT.get(v) or value_text(v)] = s
        if idx > 0:
            for i in range(min(idx, ntexts)):
                if seq[i] not in slots:
                    skipped.append(texts[i])
        vc.cslots = (dict(slots), idx, dict(slot_texts), list(skipped))
    return {
        "rocket": st.cd_rocket,
        "sequence": list(texts),
        "called": texts[idx] if 0 <= idx < ntexts else None,
        "slots": slot_texts,
        "skipped": skipped,
        "last": st.cd_last,
        "acted": sorted(st.cd_acted) if rt else sorted(st.pend) if ph == C_COUNTDOWN else [],
        "next_call": st.cd_t if st.cd_t >= 0 else None,
    }


cdef list _obligations(st, seat, bint rt):
    """``view._obligations``."""
    cdef list out = []
    for o in st.obls:
        if o[0] == seat:
            m = st.mission(o[1])
            out.append({"mission": m.id, "do": "gesture" if m.gesture else "announce", "token": m.token,
                        "arg": m.arg, "expect": o[2], "deadline": o[3] if rt else None,
                        "due_step": None if rt else o[4]})
    return out


cdef dict _decision(st, int ph, int cur):
    """``view._decision``."""
    dec_t = st.dec_t
    cdef dict out = {"kind": C_DECISION[ph], "seat": cur, "deadline": dec_t if dec_t >= 0 else None}
    if ph == C_CHOOSE:
        out["candidates"] = [s for s, h in enumerate(st.hands) if h and s != cur]
    return out
