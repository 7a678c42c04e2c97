"""BLO-13 hidden information: what a seat may see, and resampling a seat's secrets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.cards import LETTERS, NTYPES, TYPE_NAME, face_json, face_text, value_text
from cosmodeck.games.blast_off.legal import drawn_auto, drawn_options, face_of, legal_slaps
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


# the discard pile's face texts, built once: a card type's own face, and every (colour, value) a Wild can
# declare (``face_text`` of every pair; ``_pile_face`` is the readable form, ``_discard`` the loop of ``view``)
_OWN_FACE: tuple[str, ...] = tuple(face_text(*face_of(t, -1, 0)) for t in range(NTYPES))
_FACE_TEXT: dict[tuple[int, int], str] = {(c, v): face_text(c, v) for c in range(-1, len(LETTERS)) for v in range(12)}
_VALUE_TEXT: dict[int, str] = {v: value_text(v) for v in range(12)}  # every value a countdown calls


def _discard(st: BlastOffState) -> list[dict[str, str]]:
    """``[{"card": _card(st, c), "face": _pile_face(st, c)} for c in st.disc]``, without a call per card."""
    ctype = st.g.ctype
    wface = st.wface
    if not wface:
        return [{"card": TYPE_NAME[t], "face": _OWN_FACE[t]} for t in map(ctype.__getitem__, st.disc)]
    out = []
    for c in st.disc:
        t = ctype[c]
        w = wface.get(c)
        out.append({"card": TYPE_NAME[t], "face": _OWN_FACE[t] if w is None else _FACE_TEXT.get(w) or face_text(*w)})
    return out


def view(st: BlastOffState, seat: int | None) -> dict[str, Any]:
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
        "discard": _discard(st),
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
    vt = _VALUE_TEXT
    if not vt.keys() >= set(seq):
        vt = {**vt, **{v: value_text(v) for v in seq}}
    slots = st.cd_slots
    return {
        "rocket": st.cd_rocket,
        "sequence": [vt[v] for v in seq],
        "called": None if called is None else vt[called],
        "slots": {vt.get(v) or value_text(v): s for v, s in sorted(slots.items(), reverse=True)},
        "skipped": [vt[v] for v in seq[:max(idx, 0)] if v not in slots],
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


def _waits(st: BlastOffState, cid: int) -> bool:
    """Whether drawing ``cid`` here would open the DRAWN decision rather than resolve at once."""
    was, st.drawn = st.drawn, cid
    try:
        return drawn_auto(st, drawn_options(st)) is None
    finally:
        st.drawn = was


def resample(st: BlastOffState, owner: int | None, rng: Rng) -> BlastOffState:
    """A clone with ``owner``'s secrets re-drawn (None: draw pile and mission deck reshuffled).

    The owner's hand keeps the cards others know (received by passing or swapping); the rest is
    re-dealt from those cards plus the draw pile. A pending drawn card is re-drawn too (BLO-12.8,
    13: the DRAWN decision tells others nothing about it), among the cards that would also have
    waited for that decision. A pending hidden choice (turn-based countdown) is re-picked among the
    new hand's choices.
    """
    c = st.clone()
    if owner is None:
        rng.shuffle(c.draw)
        rng.shuffle(c.mdeck)
        return c
    fixed = set(c.known[owner])
    hand = c.hands[owner]
    keep = [x for x in hand if x in fixed]
    free = [x for x in hand if x not in fixed]
    pool = free + c.draw
    rng.shuffle(pool)
    if c.phase == DRAWN and c.cur == owner and c.drawn in free:
        c.drawn = next(x for x in pool if _waits(c, x))  # the real drawn card qualifies, so one exists
        pool.remove(c.drawn)
        c.hands[owner] = keep + pool[:len(free) - 1] + [c.drawn]
        c.draw = pool[len(free) - 1:]
    else:
        c.hands[owner] = keep + pool[:len(free)]
        c.draw = pool[len(free):]
    if not c.rt and owner in c.pend:
        if c.phase == COUNTDOWN:
            opts = legal_slaps(c, owner)
            c.pend[owner] = opts[rng.randbelow(len(opts))]
        elif c.phase == RESPONSE:
            c.pend[owner] = []
    return c
