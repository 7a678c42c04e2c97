# cython: language_level=3
"""Blast Off!'s compiled fast path: the public State API's hot calls, and the commonest legal lists, in C.

The reference is ``BlastOffState`` (``state.py``) with ``legal.py``; ``FastBlastOffState`` subclasses it
and is used when ``game.fast`` (the default; ``load_game(..., fast=False)`` never builds it, and a build
without this extension runs the reference, see ``game.py``). It overrides:

- ``is_over``, ``to_act``, ``legal_actions``, ``apply``: the base class's checks in one compiled call each.
  ``apply(seat, action)`` without a time, when ``action`` is the very object of ``seat``'s legal list kept
  for this state (``_lc``, dropped by ``_observe`` after every action and timer, on load and on clone),
  skips ``_precheck`` (every check it makes holds: the list was built for that seat, allowed to act, in
  this state) and runs the reference's ``_do``, ``_observe`` and log step; any other call is the
  base class's ``apply``.
- ``_compute_to_act``: turn-based timing (BLO-11) computed here; real time runs the reference.
- ``_legal``: turn-based timing, in the countdown (``legal_slaps``, BLO-11.2) and on a turn with no
  restriction mission in force (``legal_turn``, BLO-4.4), the same lists in the same order of the same
  interned actions from C tables of the card types; every other phase, real time and any restriction
  run ``legal.legal``.
- ``_observe``: the public log kept for the view, the reference's code compiled.

The rules (``_do``), events, views and JSON are the reference's. ``tests/blast_off/test_fast_path.py``
plays seeded games on both paths and compares every step.
"""

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off import countdown as _countdown
from cosmodeck.games.blast_off import legal as _legal_mod
from cosmodeck.games.blast_off import response as _response
from cosmodeck.games.blast_off import rules_play as _rules_play
from cosmodeck.games.blast_off.actions import DONE, DRAW, PASS, Catch, Done, Pass, Slap
from cosmodeck.games.blast_off.cards import NTYPES as _NTYPES
from cosmodeck.games.blast_off.cards import TYPE_COL, TYPE_KIND, TYPE_VAL, WILD_T as _WILD_T
from cosmodeck.games.blast_off.phases import COUNTDOWN as _PH_CD
from cosmodeck.games.blast_off.phases import OVER as _PH_OVER
from cosmodeck.games.blast_off.phases import RESPONSE as _PH_RESPONSE
from cosmodeck.games.blast_off.phases import TURN as _PH_TURN
from cosmodeck.games.blast_off.state import RECENT as _RECENT
from cosmodeck.games.blast_off.state import BlastOffState

DEF NT = 64  # room for the card types (NTYPES is checked below)

cdef int KIND[NT]
cdef int COL[NT]
cdef int VAL[NT]
cdef int C_NTYPES = _NTYPES
cdef int C_WILD_T = _WILD_T
cdef int PH_TURN = _PH_TURN
cdef int PH_CD = _PH_CD
cdef int PH_RESPONSE = _PH_RESPONSE
cdef int PH_OVER = _PH_OVER
cdef Py_ssize_t C_RECENT = _RECENT
# the kinds of cards.py
DEF K_BLAST = 1
DEF K_WILD = 2
DEF BLAST_OFF = 11
DEF NO_VALUE = 0

if _NTYPES > NT:  # pragma: no cover - a data change the tables must follow
    raise ImportError("blast_off.fast: more card types than its tables hold")
for _t in range(_NTYPES):
    KIND[_t] = TYPE_KIND[_t]
    COL[_t] = TYPE_COL[_t]
    VAL[_t] = TYPE_VAL[_t]

_EMPTY = frozenset()
_ONE = tuple(frozenset({seat}) for seat in range(16))

# Events are built by setting the frozen dataclass's slots directly (as games/shooting_star/fast.py does):
# the same objects, without its checked ``__init__``.
_new = object.__new__
_set_type = Event.__dict__["type"].__set__
_set_data = Event.__dict__["data"].__set__
_set_private = Event.__dict__["private"].__set__
_set_seats = Event.__dict__["seats"].__set__
_set_public = Event.__dict__["public"].__set__


cdef object _event(str kind, dict data, private, seats, bint public):
    """``Event(kind, data, private=private, seats=seats, public=public)``."""
    e = _new(Event)
    _set_type(e, kind)
    _set_data(e, data)
    _set_private(e, private)
    _set_seats(e, seats)
    _set_public(e, public)
    return e


cdef object _one(int seat):
    return _ONE[seat] if 0 <= seat < 16 else frozenset((seat,))


cdef inline bint _matches(int t, int fc, int fv):
    """``cards.card_matches``."""
    cdef int c = COL[t]
    return (c == fc and c >= 0) or (VAL[t] == fv and fv != NO_VALUE) or (fc < 0 and fv == NO_VALUE)


cdef inline bint _eligible(int t, int v):
    """``cards.eligible_for``."""
    cdef int k = KIND[t]
    if k == K_WILD:
        return True
    if v == BLAST_OFF:
        return k == K_BLAST
    return k == 0 and VAL[t] == v


cdef list _slaps(st, int seat):
    """``legal.legal_slaps`` in turn-based timing (no ``cd_acted`` check, no Wild Blast Off faces)."""
    cdef int idx = st.cd_idx
    if idx < 0:
        return []
    g = st.g
    cdef tuple ctype = g.ctype
    cdef tuple slap_acts = g.slap_acts
    cdef int v = st.cd_seq[idx]
    cdef char seen[NT]
    cdef int t
    cdef list out = [PASS]
    for i in range(C_NTYPES):
        seen[i] = 0
    for cid in st.hands[seat]:
        t = ctype[cid]
        if not seen[t]:
            seen[t] = 1
            if _eligible(t, v):
                out.append((<dict>slap_acts[t])[v])
    return out


cdef list _turn(st, int seat):
    """``legal.legal_turn`` with no restriction in force (so no card is restricted and ``assist`` is off)."""
    g = st.g
    cdef tuple ctype = g.ctype
    cdef tuple play_acts = g.play_acts
    cdef int fc = st.fcol
    cdef int fv = st.fval
    cdef char seen[NT]
    cdef int t, k
    cdef bint clean = False
    cdef list out = []
    for i in range(C_NTYPES):
        seen[i] = 0
    for cid in st.hands[seat]:
        t = ctype[cid]
        if seen[t]:
            continue
        seen[t] = 1
        k = KIND[t]
        if k <= K_BLAST:
            if _matches(t, fc, fv):
                clean = True
                out.append(play_acts[t])
        elif k == K_WILD:
            out.extend(g.wild_plays)
        else:
            out.append(play_acts[t])
    if not clean or g.options["voluntary_draw"]:
        out.append(DRAW if (st.draw or len(st.disc) > 1) else PASS)  # rules_core.can_draw
    return out


cdef list _token_specs(st, int seat):
    """``legal.token_specs``."""
    cdef dict specs = {}
    g = st.g
    ms = g.missions
    cdef Py_ssize_t nm = len(ms)
    for mi in st.inforce:
        m = ms[mi] if mi < nm else st.customs[mi - nm]
        if m.kind == "obligation":
            specs[(m.gesture, m.token, m.arg)] = None
    for o in st.obls:
        if o[0] == seat:
            mi = o[1]
            m = ms[mi] if mi < nm else st.customs[mi - nm]
            specs[(m.gesture, m.token, m.arg)] = None
    return list(specs)


cdef list _mission_actions(st, int seat, subs):
    """``legal.mission_actions``: announcements and gestures of the obligations, then the catches."""
    g = st.g
    used = set(subs) if subs else None
    used_targets = {a.target for a in subs if isinstance(a, Catch)} if subs else ()
    cdef list out = []
    hi = -1
    for spec in _token_specs(st, seat):
        acts = g.token_acts(*spec)
        if spec[2] == "hand_size":
            hi = _legal_mod.count_limit(st, seat) if hi < 0 else hi
            acts = acts[:hi + 1]
        if used is None:
            out.extend(acts)
        else:
            out.extend([a for a in acts if a not in used])
    if not g.referee:
        ms = g.missions
        nm = len(ms)
        ids = [(ms[mi] if mi < nm else st.customs[mi - nm]).id for mi in st.inforce]
        hands = st.hands
        catch_act = g.catch_act
        for t in range(st.players):
            if t != seat and hands[t] and t not in used_targets:
                out.append(catch_act(t, None))
                for i in ids:
                    out.append(catch_act(t, i))
    return out


cdef list _submit(st, int seat, a):
    """``response.submit``: one announcement, gesture or catch added to ``seat``'s hidden list, or ``done``."""
    if isinstance(a, Done):
        st.rdone.add(seat)
        return [_event("responded", {"seat": seat}, {"actions": [str(x) for x in st.pend[seat]]}, _one(seat),
                       True)]
    st.pend[seat].append(a)
    return [_event("response_added", {"seat": seat}, {"action": str(a)}, _one(seat), False)]


cdef list _step_choice(st, int seat, a):
    """``rules_play.step_choice``: a hidden countdown choice (11.2); the last one resolves the value."""
    cdef dict pend = st.pend
    pend[seat] = a
    cdef list ev = [_event("chose", {"seat": seat}, {"action": str(a)}, _one(seat), True)]
    cdef list hands = st.hands
    cdef Py_ssize_t s
    for s in range(len(hands)):
        if hands[s] and s not in pend:
            return ev
    winner, bounced = _countdown.collide(st)
    choice = pend
    st.pend = {}
    text = _countdown.called_text(st)
    for b in bounced:
        ev.append(_event("slap_bounced", {"seat": b, "value": text}, None, _EMPTY, True))
    if winner < 0:
        return ev + _countdown.next_value(st)
    w = choice[winner]
    assert isinstance(w, Slap)
    return ev + _rules_play.accept_slap(st, winner, w)


class FastBlastOffState(BlastOffState):
    """A Blast Off! state whose hot public calls and commonest legal lists are compiled (module docs)."""

    @property
    def is_over(self):
        return self.res is not None

    @property
    def to_act(self):
        if self.res is not None:
            return _EMPTY
        ta = self._ta
        if ta is None:
            ta = self._ta = self._compute_to_act()
        return ta

    def legal_actions(self, seat):
        if type(seat) is not int or self.res is not None:
            return BlastOffState.legal_actions(self, seat)
        lc = self._lc
        if lc is not None and lc[0] == seat:
            return list(lc[1])
        ta = self._ta
        if ta is None:
            ta = self._ta = self._compute_to_act()
        if seat in ta and 0 <= seat < self.players:
            return self._legal(seat)
        return BlastOffState.legal_actions(self, seat)

    def apply(self, seat, action, at=None):
        lc = self._lc
        if at is None and lc is not None and lc[0] is seat and self.res is None:
            for x in lc[1]:
                if x is action:
                    events = self._do(seat, action)
                    self._observe(events)
                    self._log = (self._log, (self.now, seat, action))
                    return list(events)
        return BlastOffState.apply(self, seat, action, at)

    def _compute_to_act(self):
        cdef int ph = self.phase
        cdef int s, n
        if self.rt or ph == PH_OVER:
            return BlastOffState._compute_to_act(self)
        if ph == PH_RESPONSE:
            rdone = self.rdone
            return frozenset([s for s in self.pend if s not in rdone])
        if ph == PH_CD:
            hands = self.hands
            pend = self.pend
            n = self.players
            return frozenset([s for s in range(n) if hands[s] and s not in pend])
        cur = self.cur
        return _ONE[cur] if 0 <= cur < 16 else frozenset((cur,))

    def _legal(self, seat):
        lc = self._lc
        if lc is not None and lc[0] == seat:
            return list(lc[1])
        cdef int ph = self.phase
        if self.rt:
            out = _legal_mod.legal(self, seat)
        elif ph == PH_CD:
            out = _slaps(self, seat)
        elif ph == PH_RESPONSE:
            out = [DONE, *_mission_actions(self, seat, self.pend.get(seat))]
        elif ph == PH_TURN and seat == self.cur and not self.has_restriction:
            out = _turn(self, seat)
        else:
            out = _legal_mod.legal(self, seat)
        self._lc = (seat, tuple(out))
        return out

    def _do(self, seat, a):
        cdef int ph = self.phase
        if not self.rt:
            if ph == PH_RESPONSE:
                ev = _submit(self, seat, a)
                if len(self.rdone) >= len(self.pend):  # response.all_done
                    ev.extend(_response.resolve(self))
                    ev.extend(_rules_play.after(self, self.rthen))
                return ev
            if ph == PH_CD and (type(a) is Slap or type(a) is Pass):
                return _step_choice(self, seat, a)
        return BlastOffState._do(self, seat, a)

    def _observe(self, events):
        self._ta = None
        self._lc = None
        recent = self.recent
        cdef Py_ssize_t n = self.recent_n
        now = self.now
        for e in events:
            if e.public:
                recent.append({"n": n, "t": now, "type": e.type, **e.data})
                n += 1
        self.recent_n = n
        if len(recent) > C_RECENT:
            del recent[:len(recent) - C_RECENT]
