"""Test helpers for Blast Off!: stack the deck, drive steps, read hands. Tests only."""

from __future__ import annotations

from typing import Any

import cosmodeck
from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off.cards import BLAST_OFF, LETTERS, TYPE_BY_NAME, TYPE_COL, TYPE_NAME, TYPE_VAL, WILD_T
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.phases import COUNTDOWN, RESPONSE, TURN
from cosmodeck.games.blast_off.state import BlastOffState


def game(**options: Any) -> BlastOffGame:
    g = cosmodeck.load_game("blast-off", **options)
    assert isinstance(g, BlastOffGame)
    return g


def steps(**options: Any) -> BlastOffGame:
    return game(timing="steps", **options)


def _face(spec: str) -> tuple[int, int]:
    col = -1 if spec[0] == "-" else LETTERS.index(spec[0])
    rest = spec[1:].lstrip(",")
    val = BLAST_OFF if rest == "BO" else (0 if rest == "-" else int(rest))
    return col, val


def stack(g: BlastOffGame, players: int = 4, *, hands: dict[int, str], top: str | None = None,
          discard: str | None = None, draw: str | None = None, cur: int = 1, dealer: int = 0,
          inforce: tuple[str, ...] = (), mdeck: tuple[str, ...] | None = None, mdisc: tuple[str, ...] = (),
          direction: int = 1, seed: int = 0) -> BlastOffState:
    """A state with chosen hands and piles. ``draw`` lists the next card first; when it is
    given, cards not named anywhere leave the game. ``discard`` lists the top card last;
    Wilds on it carry faces: ``W[G3]``, ``W[-4]``."""
    st = g.new_game(players, seed=seed)
    free: dict[int, list[int]] = {}
    for cid, t in enumerate(g.ctype):
        free.setdefault(t, []).append(cid)
    wface: dict[int, tuple[int, int]] = {}

    def take(name: str) -> int:
        face = None
        if name.startswith("W[") and name.endswith("]"):
            face = _face(name[2:-1])
            name = "W"
        cid = free[TYPE_BY_NAME[name]].pop(0)
        if face is not None:
            wface[cid] = face
        return cid

    st.hands = [[take(x) for x in hands.get(s, "").split()] for s in range(players)]
    pile = (discard or top or "O7").split()
    st.disc = [take(x) for x in pile]
    if draw is not None:
        st.draw = [take(x) for x in reversed(draw.split())]
    else:
        st.draw = sorted(c for ids in free.values() for c in ids)
    st.wface = wface
    t = g.ctype[st.disc[-1]]
    st.fcol, st.fval = wface.get(st.disc[-1], (TYPE_COL[t], TYPE_VAL[t]) if t != WILD_T else (-1, 0))
    ids = {m.id: i for i, m in enumerate(g.missions)}
    st.inforce = [ids[x] for x in inforce]
    st.mdisc = [ids[x] for x in mdisc]
    if mdeck is None:
        mdeck = tuple(m.id for m in g.missions if m.id not in inforce and m.id not in mdisc)
    st.mdeck = [ids[x] for x in reversed(mdeck)]
    st.has_restriction = any(g.missions[i].kind == "restriction" for i in st.inforce)
    st.phase, st.cur, st.dir, st.dealer = TURN, cur, direction, dealer
    st.skip = [0] * players
    st.placings, st.passes, st.extra, st.drawn = [], 0, -1, -1
    st.known = [frozenset()] * players
    st.obls, st.viols, st.ctx, st.pend, st.rdone = [], [], None, {}, set()
    st.dec_t = -1.0
    return st


def hand(st: BlastOffState, seat: int) -> list[str]:
    return sorted(TYPE_NAME[st.g.ctype[c]] for c in st.hands[seat])


def legal(st: BlastOffState, seat: int) -> list[str]:
    return [str(a) for a in st.legal_actions(seat)]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def public(events: list[Event]) -> list[dict[str, Any]]:
    return [d for d in (e.for_seat(None) for e in events) if d is not None]


def finish_responses(st: BlastOffState, extra: dict[int, list[str]] | None = None) -> list[Event]:
    """Turn-based: every seat in a RESPONSE step submits ``extra[seat]`` then ``done``."""
    ev: list[Event] = []
    while st.phase == RESPONSE:
        for s in sorted(st.to_act):
            for text in (extra or {}).pop(s, []):
                ev += st.apply(s, text)
            ev += st.apply(s, "done")
    return ev


def run_countdown(st: BlastOffState, plan: dict[Any, dict[int, str]]) -> list[Event]:
    """Turn-based: at each called value, seats slap ``plan[value][seat]`` or pass; RESPONSE steps are empty."""
    ev: list[Event] = []
    while st.phase in (COUNTDOWN, RESPONSE):
        if st.phase == RESPONSE:
            ev += finish_responses(st)
            continue
        v = st.cd_seq[st.cd_idx]
        key: Any = "BO" if v == BLAST_OFF else v
        for s in sorted(st.to_act):
            card = plan.get(key, {}).get(s)
            ev += st.apply(s, f"slap {card} {key}" if card else "pass")
            if st.phase != COUNTDOWN or st.is_over:
                break
    return ev
