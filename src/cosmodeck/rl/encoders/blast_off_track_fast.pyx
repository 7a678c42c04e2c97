# cython: language_level=3, boundscheck=True, wraparound=True
"""``FastLogTrack``: ``blast_off_track.LogTrack`` compiled, on the compiled public log (``FastPublicLog``).

A copy of ``LogTrack`` (``blast_off_track.py``, the readable reference: each function here names the one it
copies) whose chain is a ``bots/blast_off_log/replay_fast.FastPublicLog`` (``PublicLog``'s bookkeeping in C,
proved equal to it event by event by ``tests/bots/test_blast_off_log_fast.py``), with its signature and its
settled copy made by that log (``FastPublicLog.signature`` / ``settled_copy``, copies of
``blast_off_track.signature`` / ``settled_copy``), and the walk-back of the window's start and the chain's
bookkeeping in C. It holds the state it follows by a weak reference (``LogTrack.owner`` is a strong one): a
pool of tracks (the compiled writer's) keeps no finished game alive. ``log`` returns a ``FastPublicLog`` settled at the view's time, from which
``BlastOffEncoder.log_features`` reads what it reads of a ``PublicLog`` (``obls``, ``viols``, ``sizes``,
``resp``, ``is_open``, ``catchable``). ``BlastOffDirect`` follows a table's log with it when this extension was
built; ``tests/rl/test_blast_off_track_fast.py`` proves its features equal to ``LogTrack``'s at every decision
of seeded games, and ``tests/rl/test_direct.py`` both equal to the full replay.
"""

from weakref import ref as _wref

from cosmodeck.bots.blast_off_log.records import face as _face
from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog
from cosmodeck.bots.blast_off_log.start import inforce_back, size_back, step_back
from cosmodeck.games.blast_off.cards import TYPE_BY_NAME, TYPE_KIND
from cosmodeck.rl.encoders.blast_off_track import _KIND_FACE as _KF
from cosmodeck.rl.encoders.blast_off_track import pile_kind_face

# ``blast_off_track._SIZE_EVENTS`` ... ``_UNKNOWN_TOP``
cdef frozenset _SIZE_EVENTS = frozenset(("played", "slap_accepted", "drew", "effect"))
cdef frozenset _STEP_EVENTS = frozenset(("countdown_started", "countdown_ended", "response_started"))
cdef frozenset _PLAYS = frozenset(("played", "slap_accepted"))
cdef dict _KIND_FACE = _KF  # (the very table ``pile_kind_face`` fills)
cdef tuple _UNKNOWN_TOP = (-1, (-1, 0))
cdef dict C_TYPE_BY_NAME = TYPE_BY_NAME
cdef tuple C_TYPE_KIND = tuple(TYPE_KIND)


cdef tuple _back(tuple facts, e):
    """``blast_off_track._back``: ``facts`` walked back over event ``e`` (``start.size_back`` of a play or a
    draw written out, as it is)."""
    kind = e["type"]
    cdef list cur
    if kind in _SIZE_EVENTS:
        sizes, inforce, in_cd, resp = facts
        if kind in _PLAYS:  # ``size_back``
            cur = list(sizes)
            cur[e["seat"]] = int(e["left"]) + 1
        elif kind == "drew":
            cur = list(sizes)
            seat = e["seat"]
            cur[seat] = max(0, cur[seat] - int(e["count"]))
        else:
            cur = size_back(list(sizes), e)
        return tuple(cur), inforce, in_cd, resp
    if kind == "mission_revealed":
        sizes, inforce, in_cd, resp = facts
        return sizes, tuple(inforce_back(list(inforce), e)), in_cd, resp
    if kind in _STEP_EVENTS:
        sizes, inforce, in_cd, resp = facts
        in_cd, resp = step_back(in_cd, resp, e)
        return sizes, inforce, in_cd, resp
    return facts


class _Strong:
    """A strong reference called as a weak one is (for an owner that takes no weak reference)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __call__(self):
        return self.obj


cdef object _ref(obj):
    """A weak reference to ``obj`` (a strong one if it takes none)."""
    try:
        return _wref(obj)
    except TypeError:
        return _Strong(obj)


cdef object _fresh(g, public, tuple start, tuple top, events):
    """``blast_off_track._fresh``: a log started at the window's start, before its first event."""
    sizes, inforce, in_cd, resp = start
    top_kind, top_face = top
    fresh = FastPublicLog(g, public)
    fresh.start_at(sizes, inforce, in_cd, resp, top_kind, top_face, float(events[0]["t"]))
    return fresh


cdef class FastLogTrack:
    """``LogTrack`` (the chain of one table); ``log(game, state, public)`` per position."""

    cdef object owner_ref  # a weak reference to the state followed (``LogTrack.owner``): a dead one is not kept
    cdef object chain, facts, last_out, last_seen, keys_game
    cdef long first, end
    cdef dict sigs, back, cum, keys

    def __init__(self):
        self.owner_ref = None
        self.chain = None
        self.first = -1
        self.end = -1
        self.sigs = {}
        self.facts = None
        self.back = {}
        self.cum = {}
        self.last_out = None  # (``LogTrack.last_out`` is the pair (last_seen, last_out))
        self.last_seen = None
        self.keys_game = None
        self.keys = {}  # (for the game ``keys_game``) authored missions listed -> the ids a fresh log knows (``by_id``), in order

    cdef tuple _start(self, bint same, tuple facts, events, long first, long last, public, st):
        """``LogTrack._start`` of the view's ``facts`` (the pile read from ``public``, or from the state ``st``
        when ``public`` is None)."""
        cdef dict back = self.back
        cdef dict cum = self.cum
        cdef tuple cur = facts
        cdef Py_ssize_t k = len(events)
        cdef long n, plays, shuffles
        cdef tuple pc
        if same and self.facts is not None:
            while k and int(events[k - 1]["n"]) > self.end:
                k -= 1
                e = events[k]
                cur = _back(cur, e)
                back[int(e["n"])] = cur
            if cur != self.facts:
                same = False
        if not same or self.facts is None:
            back = self.back = {}
            cum = self.cum = {first - 1: (0, 0)}
            cur = facts
            for e in reversed(events):
                cur = _back(cur, e)
                back[int(e["n"])] = cur
            k = 0
        for e in events[k:]:
            n = int(e["n"])
            pc = cum[n - 1]
            plays, shuffles = pc
            kind = e["type"]
            if kind in _PLAYS:
                cum[n] = (plays + 1, shuffles)
            elif kind == "reshuffled":
                cum[n] = (plays, shuffles + 1)
            else:
                cum[n] = pc
        self.facts = facts
        if same:
            for n in range(self.first, first):
                del back[n]
                del cum[n - 1]
        cdef tuple at_last = cum[last]
        cdef tuple before = cum[first - 1]
        cdef long played = <long>at_last[0] - <long>before[0]
        cdef Py_ssize_t i
        top = _UNKNOWN_TOP
        if at_last[1] == before[1]:  # no reshuffle in the window
            if public is None:
                i = len(st.disc) - 1 - played
                if i >= 0:  # ``pile_kind_face(st, i)`` (what ``_Discard.kind_face`` gives), its table read here
                    cid = st.disc[i]
                    top = _KIND_FACE.get((st.g.ctype[cid], st.wface.get(cid)))
                    if top is None:
                        top = pile_kind_face(st, i)
            else:
                disc = public["discard"]
                i = len(disc) - 1 - played
                if i >= 0:
                    kind_face = getattr(disc, "kind_face", None)
                    if kind_face is not None:
                        top = kind_face(i)
                    else:
                        d = disc[i]
                        top = C_TYPE_KIND[C_TYPE_BY_NAME[d["card"]]], _face(d["face"])
        return back[first], top

    def log(self, g, owner, public):
        """``LogTrack.log``: ``replay_view(g, public)`` as far as the features read it (a ``FastPublicLog``)."""
        facts = (tuple(public["hand_sizes"]), tuple([m["id"] for m in public["missions_in_force"]]),
                 public["countdown"] is not None, int(public["response_step"]))
        missions = tuple([(a["id"], a.get("source")) for a in public.get("missions") or ()])
        return self._log(g, owner, public["recent"], facts, float(public["now"]), public.get("timing"), missions,
                         public, None, None)

    def log_state(self, g, st, direct):
        """``log(g, st, direct.public_facts(st))`` read from the state ``st`` itself: the public facts
        ``BlastOffDirect.public_facts`` would list, the dict built only when a fresh log needs it."""
        ms = st.g.missions  # (``st.mission(mi)``: ``ms[mi]``, or an authored one past them)
        cdef Py_ssize_t base = len(ms)
        customs = st.customs
        facts = (tuple([len(h) for h in st.hands]),
                 tuple([(ms[mi] if mi < base else customs[mi - base]).id for mi in st.inforce]),
                 st.cd_rocket >= 0, int(st.resp_no))  # (``in_countdown()``)
        missions = tuple([(m.id, m.source) for mi in st.revealed if mi >= base for m in (customs[mi - base],)])
        return self._log(g, st, st.recent, facts, float(st.now), "realtime" if st.rt else "steps", missions,
                         None, st, direct)

    cdef object _log(self, g, owner, events, tuple facts, double now, timing, tuple missions, public, st, direct):
        """``LogTrack.log`` (``public`` None: ``st`` and ``direct.public_facts(st)`` for a fresh log)."""
        cdef long first = int(events[0]["n"]), last = int(events[-1]["n"])
        cur_owner = None if self.owner_ref is None else self.owner_ref()
        cdef bint same = (owner is cur_owner and self.chain is not None and last >= self.end
                          and self.first <= first <= self.end + 1)
        start, top = self._start(same, facts, events, first, last, public, st)
        seen = (first, last, start, top, now)
        if same and self.last_out is not None and self.last_seen == seen:
            return self.last_out
        chain = self.chain
        cdef dict sigs = self.sigs if same else {}
        # ``signature(_fresh(...))`` written out (the readable code keeps it by what the fresh log is made of): a
        # fresh log holds the start, the top card, no obligation, violation nor play, and the game's and the
        # authored missions by id (those ids kept by the authored missions listed)
        if g is not self.keys_game:
            self.keys = {}
            self.keys_game = g
        keys = self.keys.get(missions)
        if keys is None:
            if public is None:
                public = direct.public_facts(st)
            keys = tuple(FastPublicLog(g, public).by_id)
            if len(self.keys) > 1000:
                self.keys.clear()
            self.keys[missions] = keys
        fresh = None
        sizes, inforce, in_cd, resp = start
        top_kind, top_face = top
        sig0 = (sizes, inforce, top_face, top_kind, in_cd, resp, (), (), None, keys)
        cdef bint joined = sigs.get(first - 1) == sig0
        cdef Py_ssize_t i = 0, count = len(events)
        cdef long n
        cdef dict new_sigs
        if not joined:
            if fresh is None:
                if public is None:
                    public = direct.public_facts(st)
                fresh = _fresh(g, public, start, top, events)
            log = fresh
            new_sigs = {first - 1: sig0}
            while i < count:
                e = events[i]
                log.feed(e, float(e["t"]))
                n = int(e["n"])
                sig = log.signature()
                new_sigs[n] = sig
                i += 1
                if sigs.get(n) == sig:
                    joined = True
                    break
            if joined:
                sigs.update(new_sigs)
            else:
                sigs = new_sigs
        if joined:
            assert chain is not None
            log = chain
            i = self.end - first + 1
        while i < count:
            e = events[i]
            log.feed(e, float(e["t"]))
            sigs[int(e["n"])] = log.signature()
            i += 1
        if same:
            for n in range(self.first - 1, first - 1):
                sigs.pop(n, None)
        if owner is not cur_owner:
            self.owner_ref = _ref(owner)
        self.chain, self.first, self.end, self.sigs = log, first, last, sigs
        out = log.settled_copy(now)
        self.last_seen = seen
        self.last_out = out
        return out
