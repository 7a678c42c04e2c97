# cython: language_level=3, boundscheck=True, wraparound=True
"""``FastPublicLog``: ``replay.PublicLog`` compiled, for the heuristic's own tracker (``bots/heuristic/blast_off.py``).

A copy of ``PublicLog``'s bookkeeping (``replay.py``, the readable reference: each method here names the
one it copies) with the replay's scalars in C fields and a resolution in progress as a C record. It keeps
the same obligations and violations (``records.Obligation`` / ``Violation`` objects, the same values and
Python types), the same counters and the same ``found`` list. It offers what the heuristic reads (``feed``,
``settle``, ``owed``, ``catchable``, ``rt``, ``now``, ``lost``) and ``snapshot()``, everything it holds as
plain values, which ``tests/bots/test_blast_off_log_fast.py`` compares with ``replay.snapshot(PublicLog)``
after every event and settle of seeded games. The determinizers use ``PublicLog``; the RL encoders' compiled
log tracker (``rl/encoders/blast_off_track_fast.pyx``) follows its chain with this log, through the methods
added for it (``signature``, ``settled_copy``, ``start_at``, ``is_open``: copies of ``blast_off_track``'s
and ``PublicLog``'s), which the heuristic does not call.
"""

from contextlib import suppress
from dataclasses import replace

from cosmodeck.bots.blast_off_log.records import Obligation, Violation, face
from cosmodeck.bots.blast_off_log.replay import snapshot_values as _snapshot
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.games.blast_off.cards import BLAST_OFF as _BLAST_OFF
from cosmodeck.games.blast_off.cards import COLOURS, TYPE_BY_NAME, TYPE_KIND, face_text
from cosmodeck.games.blast_off.mdl import EV_DRAW as _EV_DRAW
from cosmodeck.games.blast_off.mdl import EV_PLAYED as _EV_PLAYED
from cosmodeck.games.blast_off.mdl import EV_SIZE as _EV_SIZE
from cosmodeck.games.blast_off.phases import CD_END, CD_VALUE, NEXT, START_CD

# ``records.face`` of every face text the engine writes (``cards.face_text``), looked up; any other text calls it
cdef dict _FACES = {}
for _c in range(-1, len(COLOURS)):
    for _v in range(12):
        _t = face_text(_c, _v)
        with suppress(ValueError, IndexError):
            _FACES[_t] = face(_t)


cdef tuple _face(text):
    got = _FACES.get(text)
    return face(text) if got is None else got


cdef int EV_DRAW = _EV_DRAW
cdef int EV_PLAYED = _EV_PLAYED
cdef int EV_SIZE = _EV_SIZE
cdef int BLAST_OFF = _BLAST_OFF
cdef tuple C_COLOURS = tuple(COLOURS)
cdef dict C_TYPE_BY_NAME = TYPE_BY_NAME
cdef tuple C_TYPE_KIND = tuple(TYPE_KIND)

# ``replay._INSIDE`` and ``replay._RESUME``
cdef frozenset _INSIDE = frozenset(("went_out", "declare_needed", "choose_needed", "effect", "hand", "reshuffled",
                                    "timeout", "penalized", "declared"))
cdef frozenset _RESUME = frozenset(("declared", "effect", "hand", "timeout"))

# the event kinds ``PublicLog`` has an ``_on_KIND`` for, numbered
cdef dict _KIND = {k: i + 1 for i, k in enumerate((
    "played", "slap_accepted", "slap_bounced", "passed", "kept", "drew", "hand", "declared", "choose_needed",
    "effect", "went_out", "game_over", "turn", "mission_authored", "mission_revealed", "countdown_started",
    "countdown_ended", "announced", "gestured", "caught", "response_started", "response_ended"))}


cdef class _Play:
    """``records.Play``."""
    cdef public int event, actor, kind, col, val, bkind, bcol, bval
    cdef public bint in_cd, blast_off, paused, choosing, late
    cdef public list before
    cdef public double t
    cdef public long turns

    def values(self):
        return (self.event, self.actor, self.kind, self.col, self.val, self.bkind, self.bcol, self.bval, self.in_cd,
                self.blast_off, list(self.before), self.t, self.turns, self.paused, self.choosing, self.late)


cdef _Play _new_play(int event, int actor, int kind, int col, int val, int bkind, int bcol, int bval, bint in_cd,
                     bint blast_off, list before, double t, long turns):
    cdef _Play p = _Play.__new__(_Play)
    p.event, p.actor, p.kind, p.col, p.val = event, actor, kind, col, val
    p.bkind, p.bcol, p.bval, p.in_cd, p.blast_off = bkind, bcol, bval, in_cd, blast_off
    p.before, p.t, p.turns = before, t, turns
    p.paused = p.choosing = p.late = False
    return p


cdef _Play _copy_play(_Play q):
    """A copy of ``q`` (its ``before`` list copied too)."""
    cdef _Play p = _new_play(q.event, q.actor, q.kind, q.col, q.val, q.bkind, q.bcol, q.bval, q.in_cd, q.blast_off,
                             list(q.before), q.t, q.turns)
    p.paused, p.choosing, p.late = q.paused, q.choosing, q.late
    return p


cdef object _play_sig(_Play p, long turns, bint rt):
    """``blast_off_track._play_sig(p, turns if rt else None)``."""
    if p is None:
        return None
    return (p.event, p.actor, p.kind, p.col, p.val, p.bkind, p.bcol, p.bval, p.in_cd, p.blast_off, tuple(p.before),
            p.t, p.turns - turns if rt else None, p.paused, p.choosing, p.late)


cdef class FastPublicLog:
    """``PublicLog`` (``replay.py``) compiled: the same bookkeeping for the heuristic's tracker."""

    cdef public object g
    cdef public bint rt, referee, in_cd, lost
    cdef public double obligation_s, window_s, now
    cdef public long window_steps, resp, turns, _next_key
    cdef readonly dict by_id
    cdef readonly list inforce
    cdef public list sizes, obls, viols, found
    cdef public int fcol, fval, top_kind, extra
    cdef _Play pending, last
    cdef public str last_choose, _then
    cdef public object rthen
    # the missions in force by what they apply to (``_kept``), for ``inforce`` and ``_authored`` as they were
    cdef dict _mc
    cdef object _mc_src
    cdef long _mc_ver, _authored

    def __init__(self, g, view):
        """``PublicLog.__init__``."""
        self.g = g
        self._mc = {}
        self._mc_src = None
        self._mc_ver = self._authored = 0
        self.rt = view.get("timing", "steps") != "steps"
        o = g.options
        self.referee = g.referee
        self.obligation_s = float(o["obligation_s"])
        self.window_s = float(o["catch_window_s"])
        self.window_steps = int(o["catch_window_steps"])
        self.by_id = {m.id: m for m in g.missions}
        for m in view.get("missions") or ():
            if m.get("source") and m["id"] not in self.by_id:
                self._on_mission_authored({"mission": m["id"], "source": m["source"]})
        self.inforce = [m["id"] for m in view["missions_in_force"]]
        self.sizes = list(view["hand_sizes"])
        top = view["top"]
        self.fcol, self.fval = face(top["face"])
        self.top_kind = C_TYPE_KIND[C_TYPE_BY_NAME[top["card"]]]
        self.in_cd = view.get("countdown") is not None
        self.resp = int(view.get("response_step") or 0)
        self.turns = 0
        self.now = float(view.get("now") or 0.0)
        self.obls = []
        self.viols = []
        self.found = []
        self.lost = False
        self.pending = None
        self.last = None
        self.last_choose = ""
        self.extra = -1
        self.rthen = None
        self._then = ""
        self._next_key = 0

    # ---- queries ----------------------------------------------------------------------------
    def catchable(self, now=None, deadline=None, step=None):
        """``PublicLog.catchable``."""
        if now is not None:
            self._settle(now)
        cdef list out = []
        cdef list sizes = self.sizes
        for v in self.viols:
            if v.caught or not sizes[v.seat]:
                continue
            if self.rt:
                if self.turns < v.need or (deadline is not None and deadline <= v.end):
                    out.append(v)
            elif step is not None and v.start <= step <= v.end:
                out.append(v)
        return out

    def owed(self, seat):
        """``PublicLog.owed``."""
        return [o for o in self.obls if o.seat == seat]

    cdef bint _is_open(self, v, double t):
        """``PublicLog.is_open(v, t)``."""
        if self.rt:
            return t < v.end or self.turns < v.need
        return v.start <= self.resp <= v.end

    def snapshot(self):
        """Everything the log holds, as plain values (what ``replay.snapshot`` gives for a ``PublicLog``)."""
        return _snapshot(self.rt, self.sizes, self.inforce, (self.fcol, self.fval), self.top_kind, self.in_cd,
                         self.resp, self.turns, self.now, self.obls, self.viols, self.found, self.lost,
                         None if self.pending is None else self.pending.values(),
                         None if self.last is None else self.last.values(), self.last_choose, self.extra,
                         self.rthen, self._then, self._next_key, self.by_id)

    # ---- for the RL encoder's tracker (``rl/encoders/blast_off_track_fast.pyx``) -------------------------
    def is_open(self, v, t=None):
        """``PublicLog.is_open``."""
        return self._is_open(v, self.now if t is None else t)

    def start_at(self, sizes, inforce, bint in_cd, long resp, int top_kind, top_face, double now):
        """What ``blast_off_track._fresh`` sets on a fresh ``PublicLog``: the window's start state."""
        self.sizes, self.inforce, self.in_cd, self.resp = list(sizes), list(inforce), in_cd, resp
        self.top_kind = top_kind
        self.fcol, self.fval = top_face
        self.now = now

    def signature(self):
        """``blast_off_track.signature`` of the same ``PublicLog`` (the face as one tuple, as ``log.face``)."""
        cdef long t
        obls, viols = self.obls, self.viols
        if self.rt:
            t = self.turns
            return (tuple(self.sizes), tuple(self.inforce), (self.fcol, self.fval), self.top_kind, self.in_cd,
                    self.resp,
                    tuple([(o.seat, o.mission, o.gesture, o.token, o.expect, o.deadline, o.due) for o in obls])
                    if obls else (),
                    tuple([(v.seat, v.mission, v.start, v.end, v.need - t, v.caught) for v in viols]) if viols else (),
                    _play_sig(self.pending, t, True), tuple(self.by_id))
        return (tuple(self.sizes), tuple(self.inforce), (self.fcol, self.fval), self.top_kind, self.in_cd, self.resp,
                tuple([(o.seat, o.mission, o.gesture, o.token, o.expect, o.due) for o in obls]) if obls else (),
                tuple([(v.seat, v.mission, v.start, v.end, v.caught) for v in viols]) if viols else (),
                _play_sig(self.pending, 0, False), tuple(self.by_id))

    def settled_copy(self, double now):
        """``blast_off_track.settled_copy``: a copy settled at ``now`` (this log is left as it was)."""
        if self.pending is None and not self.rt:
            return self
        cdef FastPublicLog new = FastPublicLog.__new__(FastPublicLog)
        new.g = self.g
        new.rt, new.referee, new.in_cd, new.lost = self.rt, self.referee, self.in_cd, self.lost
        new.obligation_s, new.window_s, new.now = self.obligation_s, self.window_s, self.now
        new.window_steps, new.resp, new.turns, new._next_key = self.window_steps, self.resp, self.turns, \
            self._next_key
        new.by_id = dict(self.by_id)
        new.inforce = self.inforce  # never changed in place (a reveal makes a new list)
        new.sizes = list(self.sizes)
        new.obls = list(self.obls)  # obligations are never modified, only added and removed
        new.viols = [replace(v) for v in self.viols]
        new.found = list(self.found)
        new.fcol, new.fval, new.top_kind, new.extra = self.fcol, self.fval, self.top_kind, self.extra
        new.pending = None if self.pending is None else _copy_play(self.pending)
        new.last = self.last
        new.last_choose, new._then, new.rthen = self.last_choose, self._then, self.rthen
        new._mc, new._mc_src, new._mc_ver, new._authored = self._mc, self._mc_src, self._mc_ver, self._authored
        new._settle(now)
        return new

    def settle(self, now):
        """``PublicLog.settle``."""
        self._settle(now)

    cdef void _settle(self, double t) except *:
        """``settle`` (called in C by ``follow`` and ``catchable``)."""
        cdef _Play p = self.pending
        if p is not None:
            self._late_restriction(p, "")
            if not p.paused:
                self._finish_play()
        if self.rt:
            self._expire_due(t)
            self.now = max(self.now, t)

    # ---- feeding ----------------------------------------------------------------------------
    def follow(self, recent, seen, double now):
        """``PublicLog.follow``."""
        cdef Py_ssize_t start, i, m = len(recent)
        cdef long last = seen
        start = last + 1 - recent[0]["n"] if m else 0
        if not 0 <= start < m or recent[start]["n"] != last + 1:
            start = 0
        for i in range(start, m):
            e = recent[i]
            n = e["n"]
            if n > last:
                self._feed(e, float(e["t"]))
                last = n
        self._settle(now)
        return last

    def feed(self, d, t=None):
        """``PublicLog.feed``."""
        if t is None:
            t = float(d.get("t", self.now))
        self._feed(d, t)

    cdef void _feed(self, d, double tt) except *:
        """``feed`` at game time ``tt``."""
        kind = d["type"]
        cdef _Play p = self.pending
        if p is not None:
            if p.late:
                self._late_restriction(p, kind)
            if not p.paused and self._ends(p, d, kind, tt):
                self._finish_play()
            elif kind in _RESUME:
                p.t = tt
        if self.rt:
            self._expire_due(tt)
        self.now = max(self.now, tt)
        code = _KIND.get(kind)
        if code is None:
            return
        cdef int k = code
        if k == 1:
            self._on_played(d, tt)
        elif k == 2:
            self._on_slap_accepted(d, tt)
        elif k == 3:
            if self.rt:  # _on_slap_bounced
                self._expire_seat(d["seat"], tt, 1)
        elif k == 4:
            if self.rt:  # _on_passed
                self._expire_seat(d["seat"], tt, 2)
            self._then = NEXT
            self.turns += 1
        elif k == 5:
            self._then = NEXT  # _on_kept
            self.turns += 1
        elif k == 6:
            self._on_drew(d, tt)
        elif k == 7:
            self.sizes[d["seat"]] = d["count"]  # _on_hand
        elif k == 8:
            self._on_declared(d, tt)
        elif k == 9:
            self._on_choose_needed(d)
        elif k == 10:
            self._on_effect(d, tt)
        elif k == 11:
            self._on_went_out(d)
        elif k == 12:
            self.obls, self.viols, self.pending = [], [], None  # _on_game_over
        elif k == 13:
            self.extra = -1  # _on_turn
        elif k == 14:
            self._on_mission_authored(d)
        elif k == 15:
            gone = set(d.get("replaced") or ())  # _on_mission_revealed
            self.inforce = [i for i in self.inforce if i not in gone] + [d["mission"]]
        elif k == 16:
            self.in_cd = True  # _on_countdown_started
            self.extra = -1
        elif k == 17:
            self.in_cd = False  # _on_countdown_ended
        elif k == 18:
            self._fulfil(d["seat"], False, d["token"], d.get("arg"))  # _on_announced
        elif k == 19:
            self._fulfil(d["seat"], True, d["token"], None)  # _on_gestured
        elif k == 20:
            self._on_caught(d, tt)
        elif k == 21:
            self.resp = int(d["step"])  # _on_response_started
            self.rthen = self._then
        elif k == 22:
            self._on_response_ended(d)

    cdef bint _ends(self, _Play p, d, kind, double t):
        """``PublicLog._ends``."""
        if self.rt and t > p.t:
            return True
        if kind == "drew":
            return d.get("reason") == "draw"
        return kind not in _INSIDE

    cdef void _on_played(self, d, double t) except *:
        seat = d["seat"]
        if self.rt and not d.get("drawn"):
            self._expire_seat(seat, t, 2)
        self._then = START_CD if d["card"] == "CD" else NEXT
        self._start_play(d, t, False)
        self.turns += 1

    cdef void _on_slap_accepted(self, d, double t) except *:
        if self.rt:
            self._expire_seat(d["seat"], t, 1)
        self._then = CD_END if d.get("value") == "BO" else CD_VALUE
        self._start_play(d, t, True)

    cdef void _on_drew(self, d, double t) except *:
        seat, reason = d["seat"], d.get("reason")
        cdef list before = list(self.sizes)
        if reason == "draw" and self.rt:
            self._expire_seat(seat, t, 2)
        self.sizes[seat] += d["count"]
        if reason == "draw":
            self.pending = _new_play(EV_DRAW, seat, -1, -1, 0, -1, -1, 0, False, False, before, t, self.turns)
        elif reason != "effect":
            self._size_triggers(before, self.in_cd, t)

    cdef void _on_declared(self, d, double t) except *:
        self.fcol, self.fval = _face(d["face"])
        cdef _Play p = self.pending
        if p is not None and p.paused and not p.choosing:
            p.col, p.val = self.fcol, self.fval
            p.paused = False
            p.t = t
            self._restriction(p, t)

    cdef void _on_choose_needed(self, d) except *:
        self.last_choose = str(d.get("mission", ""))
        cdef _Play p = self.pending
        if p is not None:
            p.paused = p.choosing = True
            self.turns -= 1

    cdef void _on_effect(self, d, double t) except *:
        m = self.by_id.get(d.get("mission", ""))
        if m is not None and m.event == EV_SIZE:
            self.lost = True
        if (d.get("effect"), d.get("result")) in (("extra_turn", None), ("reverse", "play_again")):
            self.extra = d["seat"]
        cdef _Play p = self.pending
        if p is not None and p.choosing and d.get("effect") == "swap_hands":
            p.paused = p.choosing = False
            p.t = t
            self.turns += 1

    cdef void _on_went_out(self, d) except *:
        seat = d["seat"]
        self.sizes[seat] = 0
        self.obls = [o for o in self.obls if o.seat != seat]
        self.viols = [v for v in self.viols if v.seat != seat]
        if self.extra == seat:
            self.extra = -1

    cdef void _on_mission_authored(self, d) except *:
        with suppress(CosmodeckError, KeyError):
            self.by_id[d["mission"]] = replace(self.g.authored(d["source"]), id=d["mission"])
        self._authored += 1

    cdef void _on_caught(self, d, double t) except *:
        target, mission = d["target"], d["mission"]
        for v in self.viols:
            if v.seat == target and v.mission == mission and not v.caught and self._is_open(v, t):
                v.caught = True
                break

    cdef void _on_response_ended(self, d) except *:
        cdef long step = int(d["step"])
        cdef list due = [o for o in self.obls if o.due <= step]
        if due:
            self.obls = [o for o in self.obls if o.due > step]
            for o in due:
                self._violation(o.seat, o.mission, float(step + 1), float(step + self.window_steps), 0)
        self.viols = [v for v in self.viols if v.end > step]

    # ---- the engine's rules, mirrored -------------------------------------------------------
    cdef list _missions(self):
        """``PublicLog._missions``."""
        cdef list inforce = self.inforce
        if not inforce:
            return []
        cdef dict by_id = self.by_id
        cdef list out = []
        for i in inforce:
            m = by_id.get(i)
            if m is not None:
                out.append(m)
        return out

    cdef list _kept(self, int what, int event, bint in_cd):
        """The missions in force (``_missions``, in order) that ``_restriction`` (``what`` 0), ``_matching(p,
        "obligation")`` for ``event`` (1) or ``_size_triggers`` (2) look at in a turn or a countdown: kept while
        ``inforce`` is the same list and no mission was authored since (missions are frozen)."""
        if self.inforce is not self._mc_src or self._mc_ver != self._authored:
            self._mc = {}
            self._mc_src = self.inforce
            self._mc_ver = self._authored
        key = (what, event, in_cd)
        cdef list got = self._mc.get(key)
        if got is not None:
            return got
        if what == 0:
            got = [m for m in self._missions() if m.kind == "restriction" and m.applies(in_cd)]
        elif what == 1:
            got = [m for m in self._missions() if m.kind == "obligation" and m.event == event and m.applies(in_cd)]
        else:
            got = [m for m in self._missions() if m.event == EV_SIZE and m.applies(in_cd)]
        self._mc[key] = got
        return got

    cdef void _start_play(self, d, double t, bint in_cd) except *:
        """``PublicLog._start_play``."""
        cdef int kind = C_TYPE_KIND[C_TYPE_BY_NAME[d["card"]]]
        col, val = _face(d["face"])
        seat = d["seat"]
        cdef _Play p = _new_play(EV_PLAYED, seat, kind, col, val, self.top_kind, self.fcol, self.fval, in_cd,
                                 in_cd and d.get("value") == "BO", list(self.sizes), t, self.turns)
        self.fcol, self.fval, self.top_kind = col, val, kind
        left = d["left"]
        self.sizes[seat] = left
        self.pending = p
        if in_cd and d["card"] == "W" and val == BLAST_OFF and col < 0:
            p.paused = True
        elif not left:
            p.late = True
        else:
            self._restriction(p, t)

    cdef void _late_restriction(self, _Play p, kind) except *:
        """``PublicLog._late_restriction``."""
        if p.late and kind != "went_out":
            p.late = False
            if kind != "game_over":
                self._restriction(p, p.t)

    cdef void _restriction(self, _Play p, double t) except *:
        """``PublicLog._restriction``."""
        if p.bkind < 0 or not self.inforce:
            return
        for m in self._kept(0, 0, p.in_cd):
            if m.forbid_card.match(p.kind, p.col, p.val) and m.forbid_onto.match(p.bkind, p.bcol, p.bval):
                if self.rt:
                    self._violation(p.actor, m.id, t, t + self.window_s, p.turns + (1 if p.in_cd else 2))
                else:
                    self._violation(p.actor, m.id, float(self.resp + 1), float(self.resp + self.window_steps), 0)
                return

    cdef list _matching(self, _Play p, kind):
        """``PublicLog._matching``."""
        cdef list out = []
        if not self.inforce:
            return out
        assert kind == "obligation"
        for m in self._kept(1, p.event, p.in_cd):
            if p.event == EV_PLAYED:
                if not m.cond.match(p.kind, p.col, p.val, p.bcol, p.bval):
                    continue
            out.append(m)
        return out

    cdef void _finish_play(self) except *:
        """``PublicLog._finish_play``."""
        cdef _Play p = self.pending
        self.pending = None
        self.last = p
        for m in self._matching(p, "obligation"):
            self._oblige(m, p.actor, p.col, p.t)
        self._size_triggers(p.before, p.in_cd, p.t)

    cdef void _size_triggers(self, list before, bint in_cd, double t) except *:
        """``PublicLog._size_triggers``."""
        if not self.inforce:
            return
        cdef list missions = self._kept(2, EV_SIZE, in_cd)
        if not missions:
            return
        cdef Py_ssize_t s
        for s, n in enumerate(self.sizes):
            if n and n != before[s]:
                for m in missions:
                    if m.n == n:
                        if m.kind == "obligation":
                            self._oblige(m, s, -1, t)
                        elif m.kind == "effect":
                            self.lost = True

    cdef void _oblige(self, m, actor, int col, double t) except *:
        """``PublicLog._oblige``."""
        if m.arg == "hand_size":
            expect = str(self.sizes[actor])
        elif m.arg == "colour":
            if col < 0:
                return
            expect = C_COLOURS[col]
        else:
            expect = None
        if m.who_others:
            seats = [s for s, n in enumerate(self.sizes) if n and s != actor]
        else:
            seats = [actor] if self.sizes[actor] else []
        deadline = t + self.obligation_s if self.rt else -1.0
        due = self.resp + 1
        mid, gesture, token = m.id, m.gesture, m.token
        self.obls += [Obligation(s, mid, gesture, token, expect, deadline, due) for s in seats]

    cdef void _fulfil(self, seat, gesture, token, arg) except *:
        """``PublicLog._fulfil``."""
        cdef Py_ssize_t i
        for i, o in enumerate(self.obls):
            if o.seat == seat and o.gesture == gesture and o.token == token and o.expect == arg:
                del self.obls[i]
                return

    cdef void _expire_due(self, double t) except *:
        """``PublicLog._expire_due``."""
        cdef list keep
        while True:
            due = [o.deadline for o in self.obls if 0 <= o.deadline <= t]
            if not due:
                break
            d = min(due)
            keep = []
            for o in self.obls:
                if 0 <= o.deadline <= d:
                    self._violation(o.seat, o.mission, d, d + self.window_s, self.turns + 1)
                else:
                    keep.append(o)
            self.obls = keep
        self.viols = [v for v in self.viols if self._is_open(v, t)]

    cdef void _expire_seat(self, seat, double t, long turns) except *:
        """``PublicLog._expire_seat``."""
        cdef list keep = []
        for o in self.obls:
            if o.seat == seat:
                self._violation(seat, o.mission, t, t + self.window_s, self.turns + turns)
            else:
                keep.append(o)
        self.obls = keep

    cdef void _violation(self, seat, mission, double start, double end, long need) except *:
        """``PublicLog._violation``."""
        if self.referee:
            return
        self.viols.append(Violation(self._next_key, seat, mission, start, end, need))
        self._next_key += 1
        self.found.append((seat, mission))

