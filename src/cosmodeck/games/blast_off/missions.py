"""Missions at run time (BLO-7, BLO-12): triggers, obligations, violations, catches, reveals.

Obligation: ``(seat, mission, expected_arg, deadline_s, due_step)``. Violation:
``(seat, mission, start, end, need_turns, caught)`` where real time uses seconds for
``start``/``end`` and completed turn actions for ``need_turns`` (12.5), and turn-based
timing uses RESPONSE step numbers for ``start``/``end``. Violations are secret: they
appear only in engine-only events (``public=False``, no seats) until caught (12.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off.cards import COLOURS
from cosmodeck.games.blast_off.effects import apply_effect
from cosmodeck.games.blast_off.mdl import EV_PLAYED, EV_SIZE, Mission
from cosmodeck.games.blast_off.phases import AUTHOR, CATCH_PENALTY
from cosmodeck.games.blast_off.rules_core import draw_cards

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState

Obl = tuple[int, int, "str | None", float, int]
Viol = tuple[int, int, float, float, int, bool]


def countdown_from(st: BlastOffState) -> int:
    """BLO-5.2, 9.1: the latest ``countdown_from`` modifier in force, else 10."""
    for mi in reversed(st.inforce):
        m = st.mission(mi)
        if m.kind == "modifier":
            return m.countdown_from
    return 10


def restriction_hit(st: BlastOffState, kind: int, col: int, val: int, in_cd: bool,
                    onto: tuple[int, int, int] | None = None) -> int:
    """The first restriction in force that forbids this card on the top face (or ``onto``), else -1."""
    if not st.has_restriction:
        return -1
    tk, tc, tv = onto if onto is not None else (st.g.kind[st.disc[-1]], st.fcol, st.fval)
    for mi in st.inforce:
        m = st.mission(mi)
        if m.kind == "restriction" and m.applies(in_cd):
            assert m.forbid_card is not None and m.forbid_onto is not None
            if m.forbid_card.match(kind, col, val) and m.forbid_onto.match(tk, tc, tv):
                return mi
    return -1


def check_restriction(st: BlastOffState, ctx: dict[str, Any]) -> list[Event]:
    """12.1 step 4: a play that breaks a restriction stands and makes a violation (12.4)."""
    mi = restriction_hit(st, ctx["k"], ctx["col"], ctx["val"], ctx["cd"], (ctx["bk"], ctx["bc"], ctx["bv"]))
    if mi < 0:
        return []
    return violation(st, ctx["a"], mi, during_turn_action=not ctx["cd"])


def matching(st: BlastOffState, ctx: dict[str, Any], kind: str) -> list[int]:
    """Missions in force of ``kind`` triggered by the event in ``ctx``, in reveal order."""
    out = []
    ev, in_cd = ctx["ev"], ctx["cd"]
    for mi in st.inforce:
        m = st.mission(mi)
        if m.kind != kind or m.event != ev or not m.applies(in_cd):
            continue
        if ev == EV_PLAYED:
            assert m.cond is not None
            if not m.cond.match(ctx["k"], ctx["col"], ctx["val"], ctx["bc"], ctx["bv"]):
                continue
        out.append(mi)
    return out


def _oblige(st: BlastOffState, mi: int, actor: int, col: int) -> list[Event]:
    m = st.mission(mi)
    if m.arg == "hand_size":
        expect: str | None = str(len(st.hands[actor]))
    elif m.arg == "colour":
        if col < 0:
            return []  # ruling: nothing to name when the face has no colour
        expect = COLOURS[col]
    else:
        expect = None
    seats = [s for s in range(st.players) if st.hands[s] and s != actor] if m.who_others else (
        [actor] if st.hands[actor] else [])
    deadline = st.now + st.g.options["obligation_s"] if st.rt else -1.0
    ev = []
    for s in seats:
        st.obls.append((s, mi, expect, deadline, st.resp_no + 1))
        ev.append(Event("obligation", {"seat": s, "mission": m.id, "do": "gesture" if m.gesture else "announce",
                                       "token": m.token, "arg": m.arg}, seats=frozenset((s,)), public=False))
    return ev


def trigger_obligations(st: BlastOffState, ctx: dict[str, Any]) -> list[Event]:
    """12.1 step 6: obligations of the event, then ``hand_size_becomes`` from steps 1-5."""
    ev: list[Event] = []
    for mi in matching(st, ctx, "obligation"):
        ev.extend(_oblige(st, mi, ctx["a"], ctx.get("col", -1)))
    ev.extend(size_triggers(st, ctx["sz"], ctx["cd"]))
    return ev


def size_triggers(st: BlastOffState, before: list[int], in_cd: bool) -> list[Event]:
    if not st.inforce:
        return []
    ev: list[Event] = []
    for s, h in enumerate(st.hands):
        n = len(h)
        if not h or n == before[s]:
            continue
        for mi in st.inforce:
            m = st.mission(mi)
            if m.event == EV_SIZE and m.n == n and m.applies(in_cd):
                if m.kind == "obligation":
                    ev.extend(_oblige(st, mi, s, -1))
                elif m.kind == "effect":
                    ev.extend(apply_effect(st, mi, s, may_pause=False))
    return ev


def penalty(st: BlastOffState, seat: int, n: int, reason: str) -> list[Event]:
    """Draw ``n`` (R11) and fire ``hand_size_becomes``."""
    before = [len(h) for h in st.hands]
    ev = draw_cards(st, seat, n, reason)
    ev.extend(size_triggers(st, before, st.in_countdown()))
    return ev


def violation(st: BlastOffState, seat: int, mi: int, during_turn_action: bool) -> list[Event]:
    """A violation arises (12.4): secret, or an automatic public draw-4 under ``referee`` (12.7)."""
    m = st.mission(mi)
    if st.g.options["mission_enforcement"] == "referee":
        ev = [Event("penalized", {"seat": seat, "mission": m.id})]
        st.penalties.append((seat, "referee", m.id))
        return ev + penalty(st, seat, CATCH_PENALTY, "penalty")
    o = st.g.options
    if st.rt:
        need = st.turn_no + (2 if during_turn_action else 1)
        st.viols.append((seat, mi, st.now, st.now + o["catch_window_s"], need, False))
    else:
        start = st.resp_no + 1
        st.viols.append((seat, mi, float(start), float(start + o["catch_window_steps"] - 1), 0, False))
    return [Event("violation", {"seat": seat, "mission": m.id}, public=False)]


def is_open(st: BlastOffState, v: Viol) -> bool:
    if st.rt:
        return st.now < v[3] or st.turn_no < v[4]
    return v[2] <= st.resp_no <= v[3]


def prune(st: BlastOffState) -> list[Event]:
    """Violations whose catch window has closed lapse silently (12.4)."""
    if not st.viols:
        return []
    keep = [v for v in st.viols if (is_open(st, v) if st.rt else v[3] > st.resp_no)]
    if len(keep) == len(st.viols):
        return []
    gone = [v for v in st.viols if v not in keep]
    st.viols = keep
    return [Event("violation_lapsed", {"seat": v[0], "mission": st.mission(v[1]).id}, public=False)
            for v in gone if not v[5]]


def fulfil(st: BlastOffState, seat: int, gesture: bool, token: str, arg: str | None) -> bool:
    """12.2: the oldest open obligation this announcement or gesture meets (wrong arg: none)."""
    for i, o in enumerate(st.obls):
        if o[0] != seat:
            continue
        m = st.mission(o[1])
        if m.gesture == gesture and m.token == token and o[2] == arg:
            del st.obls[i]
            return True
    return False


def announce(st: BlastOffState, seat: int, gesture: bool, token: str, arg: str | None) -> list[Event]:
    ok = fulfil(st, seat, gesture, token, arg)
    data: dict[str, Any] = {"seat": seat, "token": token}
    if gesture:
        return [Event("gestured", data, private={"fulfilled": ok}, seats=frozenset((seat,)))]
    data["arg"] = arg
    return [Event("announced", data, private={"fulfilled": ok}, seats=frozenset((seat,)))]


def expire(st: BlastOffState, seat: int | None, during_turn_action: bool) -> list[Event]:
    """Unfulfilled obligations become violations: ``seat``'s (its next action), or all due now."""
    ev: list[Event] = []
    keep: list[Obl] = []
    due: list[Obl] = []
    for o in st.obls:
        if (seat is None and 0 <= o[3] <= st.now) or o[0] == seat:
            due.append(o)
        else:
            keep.append(o)
    if not due:
        return ev
    st.obls = keep
    for o in due:
        ev.extend(violation(st, o[0], o[1], during_turn_action))
    return ev


def expire_steps(st: BlastOffState) -> list[Event]:
    """Turn-based deadline (12.2): the end of the RESPONSE step after the trigger."""
    due = [o for o in st.obls if o[4] <= st.resp_no]
    if not due:
        return []
    st.obls = [o for o in st.obls if o[4] > st.resp_no]
    ev: list[Event] = []
    for o in due:
        ev.extend(violation(st, o[0], o[1], False))
    return ev


def catch(st: BlastOffState, by: int, target: int, mission_id: str | None) -> list[Event]:
    """12.6: valid (oldest open violation caught, draw 4), duplicate, or false."""
    found = dup = -1
    for i, v in enumerate(st.viols):
        if v[0] != target or (mission_id is not None and st.mission(v[1]).id != mission_id) or not is_open(st, v):
            continue
        if not v[5]:
            found = i
            break
        if dup < 0:
            dup = i
    data: dict[str, Any] = {"by": by, "target": target, "mission": mission_id}
    if found >= 0:
        v = st.viols[found]
        st.viols[found] = (*v[:5], True)
        data["mission"] = st.mission(v[1]).id
        st.penalties.append((target, "caught", data["mission"]))
        return [Event("caught", data), *penalty(st, target, CATCH_PENALTY, "caught")]
    if dup >= 0:
        return [Event("catch_duplicate", data)]
    ev = [Event("catch_failed", data)]
    n = st.g.options["false_catch_penalty"]
    if n:
        st.penalties.append((by, "false_catch", mission_id))
        ev.extend(penalty(st, by, n, "false_catch"))
    return ev


def reveal(st: BlastOffState, by: int) -> list[Event]:
    """BLO-5.8, 7.1, 9.2: the Blast Off player turns a mission (or authors one)."""
    if st.g.options["custom_missions"] and st.hands[by]:
        st.phase = AUTHOR
        st.cur = by
        if st.rt:
            st.dec_t = st.now + st.g.options["custom_mission_timeout_s"]
        return [Event("author_needed", {"seat": by})]
    return reveal_card(st, by)


def reveal_card(st: BlastOffState, by: int) -> list[Event]:
    ev: list[Event] = []
    if not st.mdeck and st.mdisc:  # 7.7
        st.mdeck = st.mdisc
        st.mdisc = []
        st.rng.shuffle(st.mdeck)
        ev.append(Event("missions_recycled", {"count": len(st.mdeck)}))
    if not st.mdeck:
        return [*ev, Event("no_mission", {"seat": by})]
    return ev + in_force(st, st.mdeck.pop(), by)


def in_force(st: BlastOffState, mi: int, by: int) -> list[Event]:
    """7.2: the new mission replaces the old (to the mission discard); 9.1: or joins them."""
    replaced: list[str] = []
    if not st.g.options["mission_out_of_control"]:
        for old in st.inforce:
            replaced.append(st.mission(old).id)
            if old < len(st.g.missions):
                st.mdisc.append(old)
        st.inforce = [mi]
    else:
        st.inforce = [*st.inforce, mi]
    st.has_restriction = any(st.mission(x).kind == "restriction" for x in st.inforce)
    st.revealed.append(mi)
    m = st.mission(mi)
    return [Event("mission_revealed", {"seat": by, "mission": m.id, "name": m.name, "text": m.text,
                                       "replaced": replaced})]


def add_custom(st: BlastOffState, m: Mission) -> int:
    st.customs = (*st.customs, m)
    return len(st.g.missions) + len(st.customs) - 1
