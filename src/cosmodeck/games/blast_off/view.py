"""BLO-13 hidden information: what a seat may see, and resampling a seat's secrets.

``view`` builds the game's part of a view from what it kept from the state's earlier views
(``ViewCache``, one per state object; a clone gets an empty one): the copies of the public log's events,
the discard pile's entries, each seat's sorted hand, the missions' JSON and the countdown's value texts
are reused while what they are made of is the same (compared by content at every view, so a state
changed outside the engine is still seen as it is). Its dicts and lists are equal to
``view_reference.view_reference``'s (the readable form; ``tests/blast_off/test_view_cached.py``).
Views are read-only: every view gets its own top-level dict and lists, but the entries inside them (an
event, a pile entry, a mission) may be the same objects as in other views of that state.

``bot_view`` is what the simulator gives the heuristic bot (its ``view_for``): a projection of a seat's view on
the keys it reads (``BOT_KEYS``), each entry built, when compiled (``view_fast.BotView``), only when it is read,
by the same helpers and kept parts (``tests/blast_off/test_bot_view.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.blast_off.cards import LETTERS, NTYPES, TYPE_NAME, face_json, face_text, value_text
from cosmodeck.games.blast_off.legal import drawn_auto, drawn_options, face_of, legal_slaps
from cosmodeck.games.blast_off.phases import AUTHOR, CHOOSE, COUNTDOWN, DECLARE, DRAWN, PHASE_NAMES, RESPONSE
from cosmodeck.games.blast_off.view_reference import _card, _known, _pile_face, _revealed, _sort_key

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.mdl import Mission
    from cosmodeck.games.blast_off.state import BlastOffState

__all__ = ["BOT_KEYS", "ViewCache", "_card", "_pile_face", "bot_view", "bot_view_py", "full_view", "full_view_py",
           "resample", "view"]

# texts built once: a card type's own face on the pile, every (colour, value) face, every value a countdown calls
_OWN_FACE: tuple[str, ...] = tuple(face_text(*face_of(t, -1, 0)) for t in range(NTYPES))
_FACE_TEXT: dict[tuple[int, int], str] = {(c, v): face_text(c, v) for c in range(-1, len(LETTERS)) for v in range(12)}
_TOP: dict[tuple[int, int], tuple[str, Any, Any]] = {
    k: (text, *face_json(*k).values()) for k, text in _FACE_TEXT.items()}  # the top face: text, colour, value
_VALUE_TEXT: dict[int, str] = {v: value_text(v) for v in range(12)}
_RANK: tuple[int, ...] = tuple(sorted(range(NTYPES), key=lambda t: _sort_key(TYPE_NAME[t])).index(t)
                               for t in range(NTYPES))  # a type's place in the hand's order (``_sort_key``)
_DECISION = {DECLARE: "declare", CHOOSE: "choose", AUTHOR: "author", DRAWN: "drawn"}


class ViewCache:
    """What ``view`` keeps from a state's earlier views (see the module docs); each part with what it was made of."""

    __slots__ = ("cseq", "cslots", "ctext", "dent", "dids", "dwf", "gid", "hands", "mjson", "mlists", "pent", "pids",
                 "rcopy", "rsrc")

    def __init__(self) -> None:
        self.rsrc: list[dict[str, Any]] = []  # the state's public events copied in ``rcopy`` (the same objects)
        self.rcopy: list[dict[str, Any]] = []
        self.dids: list[int] = []  # the discard pile's cards and Wild faces of ``dent``
        self.dwf: dict[int, tuple[int, int]] = {}
        self.dent: list[dict[str, str]] = []
        self.hands: dict[int, tuple[list[int], list[str]]] = {}  # seat -> (its cards, their sorted names)
        self.mjson: dict[tuple[int, bool | None], tuple[Mission, dict[str, Any]]] = {}
        self.cseq: tuple[int, ...] | None = None  # the countdown's sequence of ``ctext``
        self.ctext: list[str] = []
        self.gid: str | None = None  # the game's id (the compiled view's, ``view_fast``)
        self.mlists: tuple[Any, ...] | None = None  # the three mission lists and what they were made of (``view_fast``)
        self.cslots: tuple[Any, ...] | None = None  # the countdown's slots and skipped values (``view_fast``)
        self.pids: list[Any] = []  # the penalties of ``pent``, its entries (``view_fast``)
        self.pent: list[dict[str, Any]] = []


def view(st: BlastOffState, seat: int | None) -> dict[str, Any]:
    """The game's part of ``seat``'s view (``State.view`` adds the common keys): ``view_reference``'s dict."""
    vc: ViewCache = st._vc
    ph = st.phase
    hands = st.hands
    disc = st.disc
    fcol, fval = st.fcol, st.fval
    top = _TOP.get((fcol, fval))
    if top is None:
        top = (face_text(fcol, fval), *face_json(fcol, fval).values())
    mission = st.mission
    out: dict[str, Any] = {
        "phase": PHASE_NAMES[ph],
        "timing": "realtime" if st.rt else "steps",
        "turn": st.cur,
        "dealer": st.dealer,
        "dir": st.dir,
        "hand": None if seat is None else _hand(st, vc, seat),
        "hand_sizes": [len(h) for h in hands],
        "known": [] if seat is None or seat not in st.kby else _known(st, seat),
        "active": [bool(h) for h in hands],
        "draw_pile": len(st.draw),
        "discard": _discard(st, vc),
        "top": {"card": TYPE_NAME[st.g.ctype[disc[-1]]], "face": top[0], "colour": top[1], "value": top[2]},
        "missions_in_force": [_mjson(vc, mi, mission(mi), None) for mi in st.inforce],
        "missions_discarded": [_mjson(vc, mi, mission(mi), None) for mi in st.mdisc],
        "mission_deck": len(st.mdeck),
        "missions": [_mjson(vc, mi, mission(mi), mi in st.inforce, st) for mi in st.revealed],
        "penalties": [{"seat": s, "kind": k, "mission": m} for s, k, m in st.penalties],
        "recent": _recent(st, vc),
        "skip_marks": list(st.skip),
        "placings": list(st.placings),
        "passes": st.passes,
        "response_step": st.resp_no,
        "countdown": None if st.cd_rocket < 0 else _countdown(st, vc),
        "obligations": [] if seat is None or not st.obls else _obligations(st, seat),
        "decision": None if ph not in _DECISION else _decision(st),
        "drawn": TYPE_NAME[st.g.ctype[st.drawn]] if ph == DRAWN and seat == st.cur and st.drawn >= 0 else None,
        "pending": None,
        "responded": sorted(st.rdone) if ph == RESPONSE else [],
    }
    if seat is not None and not st.rt and seat in st.pend:
        p = st.pend[seat]
        out["pending"] = [str(a) for a in p] if isinstance(p, list) else str(p)
    return out


def _hand(st: BlastOffState, vc: ViewCache, seat: int) -> list[str]:
    """``sorted((_card(st, c) for c in hand), key=_sort_key)``, kept while the hand holds the same cards."""
    hand = st.hands[seat]
    kept = vc.hands.get(seat)
    if kept is not None and kept[0] == hand:
        return kept[1][:]
    ctype = st.g.ctype
    names = [TYPE_NAME[t] for t in sorted(map(ctype.__getitem__, hand), key=_RANK.__getitem__)]
    vc.hands[seat] = (hand[:], names)
    return names[:]


def _recent(st: BlastOffState, vc: ViewCache) -> list[dict[str, Any]]:
    """``list(map(dict, st.recent))``: each event copied once, at the first view that shows it."""
    rec = st.recent
    src = vc.rsrc
    if src and rec:
        off = rec[0]["n"] - src[0]["n"]
        kept = len(src) - off  # events of the last copy still in the log (the log only grows and forgets its oldest)
        if off >= 0 and 0 < kept <= len(rec) and (src[off:] if off else src) == rec[:kept]:
            if kept == len(rec) and not off:
                return vc.rcopy[:]
            cop = vc.rcopy[off:]
            cop += map(dict, rec[kept:])
            vc.rsrc = rec[:]
            vc.rcopy = cop
            return cop[:]
    cop = list(map(dict, rec))
    vc.rsrc = rec[:]
    vc.rcopy = cop
    return cop[:]


def _discard(st: BlastOffState, vc: ViewCache) -> list[dict[str, str]]:
    """``[{"card": _card(st, c), "face": _pile_face(st, c)} for c in st.disc]``, an entry built once per card."""
    disc = st.disc
    wface = st.wface
    ids = vc.dids
    n = len(ids)
    if wface == vc.dwf and n <= len(disc):
        if n == len(disc):
            if disc == ids:
                return vc.dent[:]
        elif disc[:n] == ids:
            ent = vc.dent + _entries(st, disc[n:])
            vc.dids = disc[:]
            vc.dent = ent
            return ent[:]
    ent = _entries(st, disc)
    vc.dids = disc[:]
    vc.dwf = dict(wface)
    vc.dent = ent
    return ent[:]


def _entries(st: BlastOffState, cards: list[int]) -> list[dict[str, str]]:
    ctype = st.g.ctype
    wface = st.wface
    if not wface:
        return [{"card": TYPE_NAME[t], "face": _OWN_FACE[t]} for t in map(ctype.__getitem__, cards)]
    out = []
    for c in cards:
        t = ctype[c]
        w = wface.get(c)
        out.append({"card": TYPE_NAME[t], "face": _OWN_FACE[t] if w is None else _FACE_TEXT.get(w) or face_text(*w)})
    return out


def _mjson(vc: ViewCache, mi: int, m: Mission, in_force: bool | None,
           st: BlastOffState | None = None) -> dict[str, Any]:
    """``m.to_json()`` (``in_force`` None) or ``_revealed(st, mi)``, built once per mission (and flag)."""
    key = (mi, in_force)
    kept = vc.mjson.get(key)
    if kept is not None and kept[0] is m:
        return kept[1]
    out = m.to_json() if st is None else _revealed(st, mi)
    vc.mjson[key] = (m, out)
    return out


def _countdown(st: BlastOffState, vc: ViewCache) -> dict[str, Any]:
    """``view_reference._countdown`` (in a countdown), the sequence's value texts built once per sequence."""
    seq = st.cd_seq
    if seq != vc.cseq:
        vc.cseq = tuple(seq)
        vc.ctext = [_VALUE_TEXT.get(v) or value_text(v) for v in seq]
    texts = vc.ctext
    idx = st.cd_idx
    slots = st.cd_slots
    vt = _VALUE_TEXT
    return {
        "rocket": st.cd_rocket,
        "sequence": texts[:],
        "called": texts[idx] if 0 <= idx < len(texts) else None,
        "slots": {vt.get(v) or value_text(v): s for v, s in sorted(slots.items(), reverse=True)} if slots else {},
        "skipped": [texts[i] for i in range(min(idx, len(texts))) if seq[i] not in slots] if idx > 0 else [],
        "last": st.cd_last,
        "acted": sorted(st.cd_acted) if st.rt else sorted(st.pend) if st.phase == COUNTDOWN else [],
        "next_call": st.cd_t if st.cd_t >= 0 else None,
    }


def _obligations(st: BlastOffState, seat: int) -> list[dict[str, Any]]:
    out = []
    rt = st.rt
    for o in st.obls:
        if o[0] == seat:
            m = st.mission(o[1])
            out.append({"mission": m.id, "do": "gesture" if m.gesture else "announce", "token": m.token,
                        "arg": m.arg, "expect": o[2], "deadline": o[3] if rt else None,
                        "due_step": None if rt else o[4]})
    return out


def _decision(st: BlastOffState) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": _DECISION[st.phase], "seat": st.cur, "deadline": st.dec_t if st.dec_t >= 0 else None}
    if st.phase == CHOOSE:
        out["candidates"] = [s for s, h in enumerate(st.hands) if h and s != st.cur]
    return out


def full_view_py(st: BlastOffState, seat: int | None) -> dict[str, Any]:
    """``seat``'s whole view: ``State.view`` (the common keys, then ``view``'s game part)."""
    return State.view(st, seat)


# The keys of a seat's view that the heuristic bot reads (``bots/heuristic/blast_off.py``, evidence catching, and
# its public-log tracker's start, ``bots/blast_off_log``), in the full view's order: ``bot_view``'s keys.
BOT_KEYS: tuple[str, ...] = ("seat", "now", "deadline", "phase", "timing", "hand", "hand_sizes", "top",
                             "missions_in_force", "missions", "recent", "response_step", "countdown", "obligations")


def bot_view_py(st: BlastOffState, seat: int) -> dict[str, Any]:
    """A projection of ``seat``'s own view: its entries named by ``BOT_KEYS``, in that order (the same values; what
    a bot given it may see is a part of what the seat sees). A seat, never a spectator. The readable form of
    ``bot_view``, whose compiled ``view_fast.BotView`` builds each entry only when it is read (by ``full_view``'s
    helpers), so that a bot pays only for what it reads (``tests/blast_off/test_bot_view.py``)."""
    st._seat(seat)
    full = st.view(seat)
    return {k: full[k] for k in BOT_KEYS}


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


# ``BlastOffState.view``: the compiled copy of ``full_view_py`` (``view_fast.pyx``) when it was built; ``bot_view``:
# the compiled ``bot_view_py`` (a ``view_fast.BotView``: the same entries, each built when first read)
bot_view: Callable[[BlastOffState, int], Mapping[str, Any]]
try:
    from cosmodeck.games.blast_off.view_fast import bot_view, full_view
except ImportError:  # not built (e.g. a source tree without a C compiler): the readable views, the same entries
    full_view = full_view_py
    bot_view = bot_view_py
