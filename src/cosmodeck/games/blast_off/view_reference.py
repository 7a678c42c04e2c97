"""BLO-13: the readable player view, as ``view.view`` built it before session 24 (the reference).

``view.view`` builds the same dict from per-state caches (``view.ViewCache``); ``tests/blast_off/test_view_cached.py``
proves the two equal on every step of seeded games. Kept readable: one expression per key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.games.blast_off.cards import TYPE_NAME, face_json, face_text, value_text
from cosmodeck.games.blast_off.legal import face_of
from cosmodeck.games.blast_off.phases import AUTHOR, CHOOSE, COUNTDOWN, DECLARE, DRAWN, PHASE_NAMES, RESPONSE

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def _card(st: BlastOffState, cid: int) -> str:
    return TYPE_NAME[st.g.ctype[cid]]


def _pile_face(st: BlastOffState, cid: int) -> str:
    t = st.g.ctype[cid]
    if cid in st.wface:
        return face_text(*st.wface[cid])
    return face_text(*face_of(t, -1, 0))


def view_reference(st: BlastOffState, seat: int | None) -> dict[str, Any]:
    """The game's part of ``seat``'s view (``State.view`` adds the common keys), built afresh."""
    ph = st.phase
    out: dict[str, Any] = {
        "phase": PHASE_NAMES[ph],
        "timing": "realtime" if st.rt else "steps",
        "turn": st.cur,
        "dealer": st.dealer,
        "dir": st.dir,
        "hand": None if seat is None else sorted((_card(st, c) for c in st.hands[seat]), key=_sort_key),
        "hand_sizes": [len(h) for h in st.hands],
        "known": [] if seat is None else _known(st, seat),
        "active": [bool(h) for h in st.hands],
        "draw_pile": len(st.draw),
        "discard": [{"card": _card(st, c), "face": _pile_face(st, c)} for c in st.disc],
        "top": {"card": _card(st, st.disc[-1]), "face": face_text(st.fcol, st.fval), **face_json(st.fcol, st.fval)},
        "missions_in_force": [st.mission(mi).to_json() for mi in st.inforce],
        "missions_discarded": [st.mission(mi).to_json() for mi in st.mdisc],
        "mission_deck": len(st.mdeck),
        "missions": [_revealed(st, mi) for mi in st.revealed],
        "penalties": [{"seat": s, "kind": k, "mission": m} for s, k, m in st.penalties],
        "recent": list(map(dict, st.recent)),
        "skip_marks": list(st.skip),
        "placings": list(st.placings),
        "passes": st.passes,
        "response_step": st.resp_no,
        "countdown": _countdown(st, seat),
        "obligations": [] if seat is None else _obligations(st, seat),
        "decision": _decision(st),
        "drawn": _card(st, st.drawn) if ph == DRAWN and seat == st.cur and st.drawn >= 0 else None,
        "pending": None,
        "responded": sorted(st.rdone) if ph == RESPONSE else [],
    }
    if seat is not None and seat in st.pend and not st.rt:
        p = st.pend[seat]
        out["pending"] = [str(a) for a in p] if isinstance(p, list) else str(p)
    return out


def _revealed(st: BlastOffState, mi: int) -> dict[str, Any]:
    m = st.mission(mi)
    out = {**m.to_json(), "revealed": True, "in_force": mi in st.inforce}
    if mi >= len(st.g.missions):  # BLO-9.2: an authored mission is written down for everyone to see
        out["source"] = m.source
    return out


def _known(st: BlastOffState, seat: int) -> list[dict[str, Any]]:
    """Cards ``seat`` knows another seat holds: those it gave by passing or swapping hands, not yet played."""
    return [{"seat": s, "cards": sorted((_card(st, c) for c in st.known[s]), key=_sort_key)}
            for s in range(st.players) if s != seat and st.kby[s] == seat and st.known[s]]


def _sort_key(name: str) -> tuple[int, str]:
    return (len(name), name)


def _countdown(st: BlastOffState, seat: int | None) -> dict[str, Any] | None:
    if not st.in_countdown():
        return None
    idx = st.cd_idx
    seq = st.cd_seq
    called = seq[idx] if 0 <= idx < len(seq) else None
    return {
        "rocket": st.cd_rocket,
        "sequence": [value_text(v) for v in seq],
        "called": None if called is None else value_text(called),
        "slots": {value_text(v): s for v, s in sorted(st.cd_slots.items(), reverse=True)},
        "skipped": [value_text(v) for v in seq[:max(idx, 0)] if v not in st.cd_slots],
        "last": st.cd_last,
        "acted": sorted(st.cd_acted) if st.rt else sorted(st.pend) if st.phase == COUNTDOWN else [],
        "next_call": st.cd_t if st.cd_t >= 0 else None,
    }


def _obligations(st: BlastOffState, seat: int) -> list[dict[str, Any]]:
    out = []
    for o in st.obls:
        if o[0] == seat:
            m = st.mission(o[1])
            out.append({"mission": m.id, "do": "gesture" if m.gesture else "announce", "token": m.token,
                        "arg": m.arg, "expect": o[2], "deadline": o[3] if st.rt else None,
                        "due_step": None if st.rt else o[4]})
    return out


def _decision(st: BlastOffState) -> dict[str, Any] | None:
    kinds = {DECLARE: "declare", CHOOSE: "choose", AUTHOR: "author", DRAWN: "drawn"}
    kind = kinds.get(st.phase)
    if kind is None:
        return None
    out: dict[str, Any] = {"kind": kind, "seat": st.cur, "deadline": st.dec_t if st.dec_t >= 0 else None}
    if st.phase == CHOOSE:
        out["candidates"] = [s for s, h in enumerate(st.hands) if h and s != st.cur]
    return out
