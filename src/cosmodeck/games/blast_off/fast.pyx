# cython: language_level=3
"""Blast Off!'s compiled fast path: the same legal lists, events and states as the reference rules, faster.

The reference is ``BlastOffState`` (``state.py``) with ``legal``, ``rules_play``, ``countdown`` and
``response``; ``FastBlastOffState`` subclasses it and is used when ``game.fast`` (the default;
``load_game(..., fast=False)`` never builds it, and a build without this extension runs the reference,
see ``game.py``). It overrides:

- ``is_over``, ``to_act``, ``legal_actions``, ``apply``: the base class's checks in one compiled call each.
  ``apply(seat, action)`` without a time, when ``action`` is the very object of ``seat``'s legal list kept
  for this state (``_lc``, dropped by ``_observe`` after every action and timer, on load and on clone),
  skips ``_precheck`` (every check it makes holds: the list was built for that seat, allowed to act, in
  this state); any other call is the base class's ``apply``.
- ``_compute_to_act``, ``_legal``, ``_do`` in turn-based timing (BLO-11): who acts; the countdown's slaps and
  an unrestricted turn's plays from C tables of the card types, the response step's announcements and
  catches; plays, draws, the drawn card's decision, countdown choices and response steps resolved by
  compiled copies of the reference's functions (each names the one it copies), events built by writing
  the frozen ``Event``'s slots. Missions' checks and effects, the end of a countdown, going out and the
  end of the game call the reference modules. Real time and every other phase run the reference.
- ``_observe``: the public log kept for the view, the reference's code compiled.
- the state's generator: ``FastRng`` (``engine/fast_rng.pyx``, shared with Shooting Star), ``engine/rng.py``'s SplitMix64 in 64-bit C.

``tests/blast_off/test_fast_path.py`` plays seeded games on both paths and compares every step
(docs/ENGINE.md, "Fast path").
"""

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off import countdown as _countdown
from cosmodeck.games.blast_off import legal as _legal_mod
from cosmodeck.games.blast_off import rules_play as _rules_play
from cosmodeck.games.blast_off import missions as _missions
from cosmodeck.games.blast_off.actions import DONE, DRAW, KEEP, PASS, Announce, Catch, Done, Draw, Gesture, Keep, Pass, Play, Slap
from cosmodeck.games.blast_off.cards import TYPE_NAME, face_text
from cosmodeck.games.blast_off.effects import apply_effect as _apply_effect
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED
from cosmodeck.games.blast_off.phases import AUTHOR as _PH_AUTHOR
from cosmodeck.games.blast_off.phases import CD_END, CD_VALUE, DRAWN_CARD, FIRST, NEXT, START_CD, TURN_ACTIONS
from cosmodeck.games.blast_off.phases import CHOOSE as _PH_CHOOSE
from cosmodeck.games.blast_off.phases import DECLARE as _PH_DECLARE
from cosmodeck.games.blast_off.phases import DRAWN as _PH_DRAWN
from cosmodeck.games.blast_off.phases import HOW_DRAWN as _HOW_DRAWN
from cosmodeck.games.blast_off.phases import HOW_SLAP as _HOW_SLAP
from cosmodeck.games.blast_off.rules_core import go_out as _go_out
from cosmodeck.games.blast_off.rules_core import next_active as _next_active
from cosmodeck.games.blast_off.rules_core import reshuffle as _reshuffle
from cosmodeck.games.blast_off.cards import NTYPES as _NTYPES
from cosmodeck.games.blast_off.cards import TYPE_COL, TYPE_KIND, TYPE_VAL, WILD_T as _WILD_T
from cosmodeck.games.blast_off.phases import COUNTDOWN as _PH_CD
from cosmodeck.games.blast_off.phases import OVER as _PH_OVER
from cosmodeck.games.blast_off.phases import RESPONSE as _PH_RESPONSE
from cosmodeck.games.blast_off.phases import TURN as _PH_TURN
from cosmodeck.games.blast_off import state as _state_mod
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
cdef int PH_CHOOSE = _PH_CHOOSE
cdef int PH_DECLARE = _PH_DECLARE
cdef int PH_DRAWN = _PH_DRAWN
cdef int PH_AUTHOR = _PH_AUTHOR
cdef int HOW_DRAWN = _HOW_DRAWN
cdef int HOW_SLAP = _HOW_SLAP
# the kinds of cards.py
DEF K_BLAST = 1
DEF K_WILD = 2
DEF K_COUNTDOWN = 3
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

# Events are built by writing the frozen dataclass's slots (``engine/fast_event.pyx``): the same objects as
# ``Event(...)``, without its checked ``__init__``.
from cosmodeck.engine.fast_event cimport new_event


cdef inline object _event(str kind, dict data, private, frozenset seats, bint public):
    """``Event(kind, data, private=private, seats=seats, public=public)``."""
    return new_event(kind, data, private, seats, public)


cdef dict _SEATS = {}  # a bit mask of seats -> their frozenset (the to_act sets, made once each)


cdef object _seats_of(unsigned long long mask):
    got = _SEATS.get(mask)
    if got is None:
        got = _SEATS[mask] = frozenset([s for s in range(64) if (mask >> s) & 1])
    return got


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
    used_targets = {a.target for a in subs if isinstance(a, Catch)} if subs else ()
    cdef list out = []
    cdef list specs = _token_specs(st, seat)
    cdef set sub_ids = None
    cdef Py_ssize_t hits = 0
    hi = -1
    if subs:  # the submitted announcements and gestures, by identity (a Catch never equals one of them)
        sub_ids = {id(a) for a in subs if not isinstance(a, Catch)}
    for spec in specs:
        acts = g.token_acts(*spec)
        if spec[2] == "hand_size":
            hi = _legal_mod.count_limit(st, seat) if hi < 0 else hi
            acts = acts[:hi + 1]
        if not sub_ids:
            out.extend(acts)
        else:
            for a in acts:
                if id(a) in sub_ids:
                    hits += 1
                else:
                    out.append(a)
    if sub_ids and hits < len(sub_ids):  # a submission that is not one of these very objects: by equality, as
        used = set(subs)         # ``legal.mission_actions`` (each act is listed once, so identity sufficed above)
        out = []
        for spec in specs:
            acts = g.token_acts(*spec)
            if spec[2] == "hand_size":
                acts = acts[:hi + 1]
            out.extend([a for a in acts if a not in used])
    if not g.referee:
        ms = g.missions
        nm = len(ms)
        ids = [(ms[mi] if mi < nm else st.customs[mi - nm]).id for mi in st.inforce]
        hands = st.hands
        catches = g._catches  # ``g.catch_act``'s table, read here; a missing entry is made by it
        for t in range(st.players):
            if t != seat and hands[t] and t not in used_targets:
                a = catches.get((t, None))
                out.append(a if a is not None else g.catch_act(t, None))
                for i in ids:
                    a = catches.get((t, i))
                    out.append(a if a is not None else g.catch_act(t, i))
    return out


cdef dict _TEXTS = {}  # id(action) -> (action, str(action)): the interned actions' texts, made once


cdef str _text(a):
    """``str(a)``, kept per action object (the object kept with it, so its id is not reused while kept)."""
    got = _TEXTS.get(id(a))
    if got is not None and (<tuple>got)[0] is a:
        return (<tuple>got)[1]
    text = str(a)
    if len(_TEXTS) >= 4096:
        _TEXTS.clear()
    _TEXTS[id(a)] = (a, text)
    return text


cdef list _submit(st, int seat, a):
    """``response.submit``: one announcement, gesture or catch added to ``seat``'s hidden list, or ``done``."""
    if isinstance(a, Done):
        st.rdone.add(seat)
        return [_event("responded", {"seat": seat}, {"actions": [_text(x) for x in st.pend[seat]]}, _one(seat),
                       True)]
    st.pend[seat].append(a)
    return [_event("response_added", {"seat": seat}, {"action": _text(a)}, _one(seat), False)]


cdef list _step_choice(st, int seat, a):
    """``rules_play.step_choice``: a hidden countdown choice (11.2); the last one resolves the value."""
    cdef dict pend = st.pend
    pend[seat] = a
    cdef list ev = [_event("chose", {"seat": seat}, {"action": _text(a)}, _one(seat), True)]
    cdef list hands = st.hands
    cdef Py_ssize_t s
    for s in range(len(hands)):
        if hands[s] and s not in pend:
            return ev
    # countdown.collide: the winner among contenders by a reaction-time CHANCE (11.2); the others bounce
    contenders = [s for s in sorted(pend) if type(pend[s]) is Slap or isinstance(pend[s], Slap)]
    if not contenders:
        winner, bounced = -1, ()
    elif len(contenders) == 1:
        winner, bounced = contenders[0], ()
    else:
        winner = _countdown.race(st, contenders)
        bounced = [s for s in contenders if s != winner]
    choice = pend
    st.pend = {}
    text = _called_text(st)
    for b in bounced:
        ev.append(_event("slap_bounced", {"seat": b, "value": text}, None, _EMPTY, True))
    if winner < 0:
        return ev + _next_value(st)
    w = choice[winner]
    assert isinstance(w, Slap)
    return ev + _accept_slap(st, winner, w)


# ---- turn-based resolution (rules_play, countdown, response): the reference's code, compiled ----------------


cdef int _card_of(st, int seat, int t) except -1:
    """``rules_play._card_of``."""
    cdef tuple types = st.g.ctype
    for c in st.hands[seat]:
        if <int>types[c] == t:
            return c
    raise AssertionError("checked action names a card in hand")


cdef list _play_card(st, int seat, int cid, int col, int val, int how):
    """``rules_play.play_card``: steps 1-2 of 12.1, then the rest via ``_resume``."""
    g = st.g
    cdef tuple gkind = g.kind
    cdef int kind = gkind[cid]
    cdef list hand = st.hands[seat]
    sz = [len(h) for h in st.hands]
    disc = st.disc
    cdef dict ctx = {"ev": EV_PLAYED, "a": seat, "c": cid, "k": kind, "col": col, "val": val,
                     "bc": st.fcol, "bv": st.fval, "bk": gkind[disc[len(disc) - 1]], "sz": sz,
                     "cd": how == HOW_SLAP, "bo": False, "st": 0, "ei": 0, "eff": None}
    hand.remove(cid)
    known = st.known
    if cid in known[seat]:
        known[seat] = known[seat] - {cid}
    disc.append(cid)
    if kind == K_WILD:
        st.wface[cid] = (col, val)
    st.fcol = col
    st.fval = val
    data = {"seat": seat, "card": TYPE_NAME[g.ctype[cid]], "face": face_text(col, val), "left": len(hand)}
    cdef list ev
    if how == HOW_SLAP:
        v = st.cd_seq[st.cd_idx]
        st.cd_slots[v] = seat
        st.cd_last = seat
        st.cd_acted.add(seat)
        ctx["bo"] = v == BLAST_OFF
        ctx["then"] = CD_END if v == BLAST_OFF else CD_VALUE
        if v == BLAST_OFF:
            st.cd_t = -1.0
        ev = [_event("slap_accepted", {**data, "value": "BO" if v == BLAST_OFF else v}, None, _EMPTY, True)]
    else:
        st.passes = 0
        ctx["then"] = START_CD if kind == K_COUNTDOWN else NEXT
        ev = [_event("played", {**data, "drawn": how == HOW_DRAWN}, None, _EMPTY, True)]
    if not hand:
        ev.extend(_go_out(st, seat))
        if st.res is not None:
            return ev
    st.ctx = ctx
    if ctx["bo"] and kind == K_WILD and col < 0:  # 10.7: the declaration comes later
        st.phase = PH_DECLARE
        st.cur = seat
        if st.rt:
            st.dec_t = st.now + g.options["declare_timeout_s"]
        return [*ev, _event("declare_needed", {"seat": seat}, None, _EMPTY, True)]
    ev.extend(_resume(st))
    return ev


cdef list _resume(st):
    """``rules_play.resume``: steps 4-8 of 12.1 for the resolution in ``st.ctx``."""
    cdef dict ctx = st.ctx
    cdef list ev = []
    if ctx["st"] == 0:
        if ctx["ev"] == EV_PLAYED and st.has_restriction:  # without one, restriction_hit finds none
            ev.extend(_missions.check_restriction(st, ctx))
        ctx["st"] = 1
    if ctx["st"] == 1:
        if not ctx["cd"]:  # R12: effects never apply during a countdown
            if ctx["eff"] is None:  # nothing in force: nothing matches
                ctx["eff"] = _missions.matching(st, ctx, "effect") if st.inforce else []
            effs = ctx["eff"]
            while ctx["ei"] < len(effs):
                i = ctx["ei"]
                ctx["ei"] = i + 1
                ev.extend(_apply_effect(st, effs[i], ctx["a"]))
                if st.phase == PH_CHOOSE:
                    return ev
        ctx["st"] = 2
    if ctx["st"] == 2:
        if st.inforce:  # nothing in force: no obligation and no hand-size trigger
            ev.extend(_missions.trigger_obligations(st, ctx))
        ctx["st"] = 3
    if ctx["st"] == 3:
        ctx["st"] = 4
        if ctx["bo"]:  # 5.8, 7.1
            ev.extend(_missions.reveal(st, ctx["a"]))
            if st.phase == PH_AUTHOR:
                return ev
    st.ctx = None
    ev.extend(_finish(st, ctx["then"]))
    return ev


cdef list _finish(st, then):
    """``rules_play.finish`` in turn-based timing: a RESPONSE step (12.3) when missions are in force."""
    if then in TURN_ACTIONS:
        st.turn_no += 1
    if st.inforce and then != DRAWN_CARD and then != FIRST:
        st.resp_no += 1  # response.start_response
        st.phase = PH_RESPONSE
        st.rthen = then
        st.pend = {s: [] for s, h in enumerate(st.hands) if h}
        st.rdone = set()
        return [_event("response_started", {"step": st.resp_no}, None, _EMPTY, True)]
    return _after(st, then)


cdef list _after(st, then):
    """``rules_play.after`` in turn-based timing."""
    if then == NEXT:
        return _next_turn(st, st.cur)
    if then == CD_VALUE:
        return _next_value(st)
    if then == START_CD:
        return _countdown.start(st, st.cur)
    if then == CD_END:
        return _countdown.end(st)
    if then == DRAWN_CARD:
        return _drawn_decision(st)
    return _rules_play.after(st, then)


cdef object _called_text(st):
    v = st.cd_seq[st.cd_idx]
    return "BO" if v == BLAST_OFF else v


cdef list _next_value(st):
    """``countdown.next_value``: the current value ends (5.7: an unfilled value is skipped); the next is called."""
    cdef list ev = []
    if st.cd_idx >= 0 and st.cd_seq[st.cd_idx] not in st.cd_slots:
        ev.append(_event("value_skipped", {"value": _called_text(st)}, None, _EMPTY, True))
    st.cd_idx += 1  # countdown.call_next
    if st.cd_idx >= len(st.cd_seq):
        return ev + _countdown.end(st)
    st.phase = PH_CD
    st.cd_acted = set()
    st.pend = {}
    ev.append(_event("countdown_called", {"value": _called_text(st)}, None, _EMPTY, True))
    return ev


cdef list _accept_slap(st, int seat, a):
    """``rules_play.accept_slap``."""
    cdef int cid = _card_of(st, seat, a.card)
    v = a.value
    if st.g.kind[cid] == K_WILD:  # R3: (none, v); 10.7: the Blast Off slot waits for a declaration
        if a.col >= 0:
            return _play_card(st, seat, cid, a.col, a.val, HOW_SLAP)
        return _play_card(st, seat, cid, -1, v, HOW_SLAP)
    return _play_card(st, seat, cid, COL[a.card], VAL[a.card], HOW_SLAP)  # legal.face_of


cdef list _turn_play(st, int seat, a):
    """``rules_play.turn_play`` in turn-based timing."""
    cdef int t = a.card
    cdef int cid = _card_of(st, seat, t)
    if t == C_WILD_T:  # legal.face_of
        return _play_card(st, seat, cid, a.col, a.val, 0)
    return _play_card(st, seat, cid, COL[t], VAL[t], 0)


cdef list _draw(st, int seat):
    """``rules_play.draw`` in turn-based timing: draw one card, then decide about it (4.4.2, R18)."""
    st.passes = 0
    sz = [len(h) for h in st.hands]
    cdef list ev = _draw_cards(st, seat, 1, "draw")
    hand = st.hands[seat]
    st.drawn = hand[len(hand) - 1]
    st.ctx = {"ev": EV_DRAW, "a": seat, "c": -1, "k": -1, "col": -1, "val": 0, "bc": -1, "bv": 0, "bk": -1,
              "sz": sz, "cd": False, "bo": False, "st": 1, "ei": 0, "eff": None, "then": DRAWN_CARD}
    ev.extend(_resume(st))
    return ev


cdef list _start_turn(st, seat):
    """``rules_core.start_turn``."""
    st.phase = PH_TURN
    st.cur = seat
    return [_event("turn", {"seat": seat}, None, _EMPTY, True)]


cdef list _next_turn(st, frm):
    """``rules_core.next_turn``: an ``extra_turn`` first, then skip marks are consumed."""
    cdef list ev = []
    if st.extra >= 0:
        p = st.extra
        st.extra = -1
        if st.hands[p]:
            return _start_turn(st, p)
    p = _next_active(st, frm)
    skip = st.skip
    while skip[p] > 0:
        skip[p] -= 1
        ev.append(_event("turn_skipped", {"seat": p}, None, _EMPTY, True))
        p = _next_active(st, p)
    ev.extend(_start_turn(st, p))
    return ev


cdef list _draw_cards(st, int seat, int n, str reason):
    """``rules_core.draw_cards``: ``n`` cards, reshuffling lazily (R19); a short pile gives what exists (R11)."""
    cdef list ev = []
    cdef list got = []
    for _ in range(n):
        if not st.draw:
            if len(st.disc) <= 1:
                break
            ev.extend(_reshuffle(st))
        got.append(st.draw.pop())
    st.hands[seat].extend(got)
    cdef tuple types = st.g.ctype
    ev.append(_event("drew", {"seat": seat, "count": len(got), "reason": reason},
                     {"cards": [TYPE_NAME[types[c]] for c in got]}, _one(seat), True))
    return ev


cdef list _drawn_options(st):
    """``legal.drawn_options``; with no restriction in force every candidate play is clean (compiled here)."""
    if st.has_restriction:
        return _legal_mod.drawn_options(st)
    g = st.g
    cdef int t = g.ctype[st.drawn]
    cdef int k = KIND[t]
    cdef list out
    if k == K_WILD:
        out = list(g.wild_plays)
    elif k == K_COUNTDOWN or _matches(t, st.fcol, st.fval):
        out = [g.play_acts[t]]
    else:
        out = []
    if not out or g.options["drawn_card_play"] == "may":
        out.append(KEEP)
    return out


cdef list _drawn_decision(st):
    """``rules_play.drawn_decision``: the drawn card's choice, made by the engine when it is forced."""
    cdef list opts = _drawn_options(st)
    seat = st.cur
    g = st.g
    auto = None  # legal.drawn_auto
    if len(opts) == 1 and g.options["drawn_card_play"] == "must":
        auto = opts[0]
        if isinstance(auto, Keep) and st.has_restriction and not g.assist:
            auto = None
    if auto is not None:
        return _drawn_play(st, seat, auto) if isinstance(auto, Play) else _keep(st, seat)
    st.phase = PH_DRAWN
    return [_event("drawn_decision", {"seat": seat}, None, _EMPTY, True)]


cdef list _drawn_play(st, int seat, a):
    """``rules_play.drawn_play``."""
    cdef int cid = st.drawn
    st.drawn = -1
    cdef int t = a.card
    if t == C_WILD_T:  # legal.face_of
        return _play_card(st, seat, cid, a.col, a.val, HOW_DRAWN)
    return _play_card(st, seat, cid, COL[t], VAL[t], HOW_DRAWN)


cdef list _keep(st, int seat):
    """``rules_play.keep``."""
    st.drawn = -1
    return [_event("kept", {"seat": seat}, None, _EMPTY, True), *_finish(st, NEXT)]


cdef list _resolve(st):
    """``response.resolve``: announcements, then catches in reaction-time order, then missed obligations."""
    cdef dict subs = st.pend
    st.pend = {}
    st.rdone = set()
    cdef list ev = []
    order = sorted(subs)
    for s in order:
        for a in subs[s]:
            if isinstance(a, (Announce, Gesture)):
                ev.extend(_missions.announce(st, s, isinstance(a, Gesture), a.token,
                                             a.arg if isinstance(a, Announce) else None))
    catchers = [s for s in order if any([isinstance(a, Catch) for a in subs[s]])]
    if len(catchers) > 1:
        if st.g.options["reaction_time"] is None:
            st.rng.shuffle(catchers)
        else:
            times = {s: _countdown.reaction(st, s) for s in catchers}
            catchers.sort(key=lambda s: (times[s], s))
    hands = st.hands
    for s in catchers:
        for a in subs[s]:
            if isinstance(a, Catch) and hands[a.target]:
                ev.extend(_missions.catch(st, s, a.target, a.mission))
    ev.extend(_missions.expire_steps(st))
    ev.extend(_missions.prune(st))
    ev.append(_event("response_ended", {"step": st.resp_no}, None, _EMPTY, True))
    return ev


# ---- the generator: engine/rng.py's SplitMix64 in 64-bit C arithmetic (the same numbers) ------------------

from cosmodeck.engine.fast_rng import FastRng  # the states' generator (also re-exported here)

from cosmodeck.engine.splitmix cimport below as _below, u64



class FastBlastOffState(BlastOffState):
    """A Blast Off! state whose hot public calls and commonest legal lists are compiled (module docs)."""

    def __init__(self, game, players, seed):
        BlastOffState.__init__(self, game, players, seed)
        self.rng = FastRng(raw_state=self.rng.state)

    def _copy_into(self, o):
        BlastOffState._copy_into(self, o)
        o.rng = FastRng(raw_state=o.rng.state)

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
        cdef unsigned long long mask = 0
        if self.players > 60:  # (the masks below hold 60 seats)
            return BlastOffState._compute_to_act(self)
        if ph == PH_RESPONSE:
            rdone = self.rdone
            for s in self.pend:
                if s not in rdone:
                    mask |= 1ULL << <int>s
            return _seats_of(mask)
        if ph == PH_CD:
            hands = self.hands
            pend = self.pend
            n = self.players
            for s in range(n):
                if hands[s] and s not in pend:
                    mask |= 1ULL << s
            return _seats_of(mask)
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
                    ev.extend(_resolve(self))
                    ev.extend(_after(self, self.rthen))
                return ev
            if ph == PH_CD and (type(a) is Slap or type(a) is Pass):
                return _step_choice(self, seat, a)
            if ph == PH_TURN:
                if type(a) is Play:
                    return _turn_play(self, seat, a)
                if type(a) is Draw:
                    return _draw(self, seat)
            elif ph == PH_DRAWN and seat == self.cur:
                if type(a) is Play:
                    return _drawn_play(self, seat, a)
                if type(a) is Keep:
                    return _keep(self, seat)
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
        keep = _state_mod.RECENT  # read at each call, as the reference does (a test may widen it)
        if len(recent) > keep:
            del recent[:len(recent) - keep]
