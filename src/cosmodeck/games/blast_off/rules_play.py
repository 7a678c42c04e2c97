"""Playing cards and resolving them (BLO-4, BLO-12.1), decisions, and timeouts.

An accepted card resolves in the order of 12.1: (1) move the card; (2) going out;
(3) declaration if needed; (4) restriction; (5) effects; (6) obligations; (7) mission
reveal; (8) next value or turn. The pending resolution lives in ``st.ctx`` so that a
decision (DECLARE, CHOOSE, AUTHOR) can pause it and ``resume`` can carry on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off import countdown, missions
from cosmodeck.games.blast_off.actions import Play, Slap
from cosmodeck.games.blast_off.cards import BLAST_OFF, TYPE_NAME, WILD, face_json, face_text
from cosmodeck.games.blast_off.cards import COUNTDOWN as K_COUNTDOWN
from cosmodeck.games.blast_off.effects import apply_effect, swap
from cosmodeck.games.blast_off.legal import drawn_auto, drawn_options, face_of
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED
from cosmodeck.games.blast_off.phases import (
    AUTHOR,
    CD_END,
    CD_VALUE,
    CHOOSE,
    DECLARE,
    DRAWN,
    DRAWN_CARD,
    FIRST,
    HOW_DRAWN,
    HOW_SLAP,
    NEXT,
    START_CD,
    TURN,
    TURN_ACTIONS,
)
from cosmodeck.games.blast_off.response import start_response
from cosmodeck.games.blast_off.rules_core import (
    draw_cards,
    end_game,
    go_out,
    n_active,
    next_active,
    next_turn,
    start_turn,
)

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def play_card(st: BlastOffState, seat: int, cid: int, col: int, val: int, how: int) -> list[Event]:
    """Steps 1-2 of 12.1, then the rest via ``resume``."""
    g = st.g
    kind = g.kind[cid]
    hand = st.hands[seat]
    sz = [len(h) for h in st.hands]
    ctx: dict[str, Any] = {"ev": EV_PLAYED, "a": seat, "c": cid, "k": kind, "col": col, "val": val,
                           "bc": st.fcol, "bv": st.fval, "bk": g.kind[st.disc[-1]], "sz": sz,
                           "cd": how == HOW_SLAP, "bo": False, "st": 0, "ei": 0, "eff": None}
    hand.remove(cid)
    if cid in st.known[seat]:
        st.known[seat] = st.known[seat] - {cid}
    st.disc.append(cid)
    if kind == WILD:
        st.wface[cid] = (col, val)
    st.fcol, st.fval = col, val
    data = {"seat": seat, "card": TYPE_NAME[g.ctype[cid]], "face": face_text(col, val), "left": len(hand)}
    if how == HOW_SLAP:
        v = st.cd_seq[st.cd_idx]
        st.cd_slots[v] = seat
        st.cd_last = seat
        st.cd_acted.add(seat)
        ctx["bo"] = v == BLAST_OFF
        ctx["then"] = CD_END if v == BLAST_OFF else CD_VALUE
        if v == BLAST_OFF:
            st.cd_t = -1.0
        ev = [Event("slap_accepted", {**data, "value": "BO" if v == BLAST_OFF else v})]
    else:
        st.passes = 0
        ctx["then"] = START_CD if kind == K_COUNTDOWN else NEXT
        ev = [Event("played", {**data, "drawn": how == HOW_DRAWN})]
    if not hand:
        ev.extend(go_out(st, seat))
        if st.res is not None:
            return ev
    st.ctx = ctx
    if ctx["bo"] and kind == WILD and col < 0:  # 10.7: the declaration comes later
        st.phase = DECLARE
        st.cur = seat
        if st.rt:
            st.dec_t = st.now + g.options["declare_timeout_s"]
        return [*ev, Event("declare_needed", {"seat": seat})]
    ev.extend(resume(st))
    return ev


def resume(st: BlastOffState) -> list[Event]:
    """Steps 4-8 of 12.1 for the resolution in ``st.ctx``."""
    ctx = st.ctx
    assert ctx is not None
    ev: list[Event] = []
    if ctx["st"] == 0:
        if ctx["ev"] == EV_PLAYED:
            ev.extend(missions.check_restriction(st, ctx))
        ctx["st"] = 1
    if ctx["st"] == 1:
        if not ctx["cd"]:  # R12: effects never apply during a countdown
            if ctx["eff"] is None:
                ctx["eff"] = missions.matching(st, ctx, "effect")
            effs = ctx["eff"]
            while ctx["ei"] < len(effs):
                i = ctx["ei"]
                ctx["ei"] = i + 1
                ev.extend(apply_effect(st, effs[i], ctx["a"]))
                if st.phase == CHOOSE:
                    return ev
        ctx["st"] = 2
    if ctx["st"] == 2:
        ev.extend(missions.trigger_obligations(st, ctx))
        ctx["st"] = 3
    if ctx["st"] == 3:
        ctx["st"] = 4
        if ctx["bo"]:  # 5.8, 7.1
            ev.extend(missions.reveal(st, ctx["a"]))
            if st.phase == AUTHOR:
                return ev
    st.ctx = None
    ev.extend(finish(st, ctx["then"]))
    return ev


def finish(st: BlastOffState, then: str) -> list[Event]:
    """A resolution is complete: a RESPONSE step follows it (turn-based, 12.3), then ``then``."""
    ev: list[Event] = []
    if then in TURN_ACTIONS:
        st.turn_no += 1
        if st.rt:
            ev.extend(missions.prune(st))
    if not st.rt and st.inforce and then not in (DRAWN_CARD, FIRST):
        return ev + start_response(st, then)
    return ev + after(st, then)


def after(st: BlastOffState, then: str) -> list[Event]:
    if then == NEXT:
        return next_turn(st, st.cur)
    if then == START_CD:
        return countdown.start(st, st.cur)
    if then == CD_VALUE:
        if not st.rt or st.g.options["countdown_pace"] == "fast":
            return countdown.next_value(st)
        return []
    if then == CD_END:
        return countdown.end(st)
    if then == FIRST:
        return start_turn(st, next_active(st, st.dealer, 1))
    return drawn_decision(st)


# ---- turn actions ---------------------------------------------------------------------------


def _card_of(st: BlastOffState, seat: int, t: int) -> int:
    types = st.g.ctype
    for c in st.hands[seat]:
        if types[c] == t:
            return c
    raise AssertionError("checked action names a card in hand")


def turn_play(st: BlastOffState, seat: int, a: Play) -> list[Event]:
    ev = missions.expire(st, seat, True) if st.rt and st.obls else []
    col, val = face_of(a.card, a.col, a.val)
    return ev + play_card(st, seat, _card_of(st, seat, a.card), col, val, 0)


def draw(st: BlastOffState, seat: int) -> list[Event]:
    """BLO-4.4: draw one card; then play it if it is playable (4.4.2, R18)."""
    ev = missions.expire(st, seat, True) if st.rt and st.obls else []
    st.passes = 0
    sz = [len(h) for h in st.hands]
    ev.extend(draw_cards(st, seat, 1, "draw"))
    st.drawn = st.hands[seat][-1]
    st.ctx = {"ev": EV_DRAW, "a": seat, "c": -1, "k": -1, "col": -1, "val": 0, "bc": -1, "bv": 0, "bk": -1,
              "sz": sz, "cd": False, "bo": False, "st": 1, "ei": 0, "eff": None, "then": DRAWN_CARD}
    ev.extend(resume(st))
    return ev


def drawn_decision(st: BlastOffState) -> list[Event]:
    opts = drawn_options(st)
    seat = st.cur
    auto = drawn_auto(st, opts)
    if auto is not None:
        return drawn_play(st, seat, auto) if isinstance(auto, Play) else keep(st, seat)
    st.phase = DRAWN
    return [Event("drawn_decision", {"seat": seat})]


def drawn_play(st: BlastOffState, seat: int, a: Play) -> list[Event]:
    cid, st.drawn = st.drawn, -1
    col, val = face_of(a.card, a.col, a.val)
    return play_card(st, seat, cid, col, val, HOW_DRAWN)


def keep(st: BlastOffState, seat: int) -> list[Event]:
    st.drawn = -1
    return [Event("kept", {"seat": seat}), *finish(st, NEXT)]


def pass_turn(st: BlastOffState, seat: int) -> list[Event]:
    """R10: nothing to draw; every active player passing in a row ends the game (8.4)."""
    ev = missions.expire(st, seat, True) if st.rt and st.obls else []
    st.passes += 1
    ev.append(Event("passed", {"seat": seat}))
    if st.passes >= n_active(st):
        return ev + end_game(st, "stalemate")
    return ev + finish(st, NEXT)


# ---- decisions and timeouts -----------------------------------------------------------------


def declare(st: BlastOffState, seat: int, col: int, val: int) -> list[Event]:
    ctx = st.ctx
    assert ctx is not None
    st.dec_t = -1.0
    cid = ctx["c"]
    st.wface[cid] = (col, val)
    st.fcol, st.fval = col, val
    ctx["col"], ctx["val"] = col, val
    ev = [Event("declared", {"seat": seat, "face": face_text(col, val), **face_json(col, val)})]
    return ev + resume(st)


def choose(st: BlastOffState, seat: int, target: int) -> list[Event]:
    ctx = st.ctx
    assert ctx is not None
    st.dec_t = -1.0
    st.phase = TURN
    mi = ctx["eff"][ctx["ei"] - 1]
    return swap(st, seat, target, st.mission(mi).id) + resume(st)


def author(st: BlastOffState, seat: int, text: str) -> list[Event]:
    st.dec_t = -1.0
    m = st.g.authored(text)
    ident = f"C{len(st.customs) + 1}"
    mi = missions.add_custom(st, replace(m, id=ident))
    return [Event("mission_authored", {"seat": seat, "mission": ident, "source": text}),
            *missions.in_force(st, mi, seat), *resume(st)]


def timeout(st: BlastOffState) -> list[Event]:
    """A real-time decision ran out: R27 default face, next player (M14), or the mission card (9.2)."""
    ph = st.phase
    st.dec_t = -1.0
    ev = [Event("timeout", {"seat": st.cur, "phase": ph})]
    if ph == DECLARE:
        ctx = st.ctx
        assert ctx is not None
        col = ctx["bc"] if ctx["bc"] >= 0 else (0 if 0 in st.g.colours else st.g.colours[0])
        return ev + declare(st, st.cur, col, BLAST_OFF)
    if ph == CHOOSE:
        return ev + choose(st, st.cur, next_active(st, st.cur))
    return ev + missions.reveal_card(st, st.cur) + resume(st)


# ---- the countdown --------------------------------------------------------------------------


def rt_slap(st: BlastOffState, seat: int, a: Slap | Any) -> list[Event]:
    """BLO-10.3: accepted, or bounced (public, without the card); rejections never get here."""
    if not isinstance(a, Slap):  # pass for this value
        st.cd_acted.add(seat)
        return [Event("countdown_pass", {"seat": seat, "value": countdown.called_text(st)})]
    ev = missions.expire(st, seat, False) if st.obls else []
    v = st.cd_seq[st.cd_idx]
    if v in st.cd_slots:
        st.cd_acted.add(seat)
        return [*ev, Event("slap_bounced", {"seat": seat, "value": countdown.called_text(st)})]
    return ev + accept_slap(st, seat, a)


def accept_slap(st: BlastOffState, seat: int, a: Slap) -> list[Event]:
    cid = _card_of(st, seat, a.card)
    v = a.value
    if st.g.kind[cid] == WILD:  # R3: (none, v); 10.7: the Blast Off slot waits for a declaration
        col, val = (a.col, a.val) if a.col >= 0 else (-1, v)
    else:
        col, val = face_of(a.card, -1, 0)
    return play_card(st, seat, cid, col, val, HOW_SLAP)


def step_choice(st: BlastOffState, seat: int, a: Any) -> list[Event]:
    """Turn-based COUNTDOWN(v): choices stay hidden until every active player has chosen (11.2)."""
    st.pend[seat] = a
    ev = [Event("chose", {"seat": seat}, private={"action": str(a)}, seats=frozenset((seat,)))]
    if any(h and s not in st.pend for s, h in enumerate(st.hands)):
        return ev
    winner, bounced = countdown.collide(st)
    choice = st.pend
    st.pend = {}
    text = countdown.called_text(st)
    ev.extend(Event("slap_bounced", {"seat": s, "value": text}) for s in bounced)
    if winner < 0:
        return ev + countdown.next_value(st)
    w = choice[winner]
    assert isinstance(w, Slap)
    return ev + accept_slap(st, winner, w)
