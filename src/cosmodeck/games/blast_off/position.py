"""``BlastOffGame.position``: a validated Blast Off! state from named zones (docs/state-formats.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.position import Picker, names
from cosmodeck.games.blast_off.actions import Declare, parse_action
from cosmodeck.games.blast_off.cards import TYPE_COL, TYPE_VAL, WILD, face_text
from cosmodeck.games.blast_off.phases import DRAWN, TURN
from cosmodeck.games.blast_off.state import BlastOffState

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.game import BlastOffGame


def position(g: BlastOffGame, hands: Sequence[Sequence[str]], *, discard: Sequence[str] | None = None,
             draw: Sequence[str] = (), face: str | None = None, turn: int = 0, direction: int = 1,
             dealer: int | None = None, missions: Sequence[str] = (), drawn: str | None = None,
             seed: int = 0) -> BlastOffState:
    """A position at the start of seat ``turn``'s turn (or, with ``drawn``, its decision about a drawn card).

    ``hands``: one list of cards per seat (``R9`` is any Red 9 not named elsewhere, ``R9#2`` one copy).
    ``discard``: the discard pile, bottom first, top (the card to match) last; default: one card, the first
    Planet of the shuffled rest. ``draw``: the top of the draw pile, the next card drawn last; every card not
    named goes under it, shuffled by ``seed``. ``face``: what a Wild on top was declared as (``R4``).
    ``missions``: mission ids in force (revealed), the others in the mission deck, shuffled by ``seed``.
    ``drawn``: a card of the turn player's hand just drawn (phase DRAWN: play it or keep it).
    Anything inconsistent is a ``StateFormatError`` naming the argument.
    """
    players = len(V.seq(list(hands) if isinstance(hands, tuple) else hands, "hands"))
    V.integer(players, "hands (number of seats)", g.info.min_players, g.info.max_players)
    V.integer(seed, "seed")
    st = BlastOffState(g, players, seed)
    picker = Picker(g.card_names)
    zones: list[tuple[str, Any]] = [(f"hands[{s}]", h) for s, h in enumerate(hands)]
    zones += [("discard", discard if discard is not None else []), ("draw", draw)]
    *hand_ids, disc, top_draw = [[g.card_index[x] for x in z] for z in picker.zones(zones)]
    rest = [g.card_index[x] for x in picker.rest()]
    st.rng.shuffle(rest)
    if discard is None:
        first = next((c for c in rest if g.kind[c] == 0), None)
        if first is None:
            V.fail("discard", "no Planet card is left for the discard pile: name its top card", V.CENSUS)
        rest.remove(first)
        disc = [first]
    if not disc:
        V.fail("discard", "the discard pile always holds the face-up card", V.CENSUS)
    st.hands = hand_ids
    st.disc = disc
    st.draw = rest + top_draw
    top = disc[-1]
    st.fcol, st.fval = _face(g, top, face)
    if g.kind[top] == WILD:
        st.wface[top] = (st.fcol, st.fval)
    st.cur = V.integer(turn, "turn", 0, players - 1)
    st.dir = V.one_of(direction, "direction", (1, -1))
    st.dealer = (turn - direction) % players if dealer is None else V.integer(dealer, "dealer", 0, players - 1)
    _missions(g, st, missions)
    st.phase = TURN
    if drawn is not None:
        hand = {g.card_names[c]: c for c in st.hands[st.cur]}
        V.string(drawn, "drawn")
        cid = hand.get(drawn)
        if cid is None:
            cid = next((c for name, c in hand.items() if name.rsplit("#", 1)[0] == drawn), None)
        if cid is None:
            V.fail("drawn", f"{drawn[:20]!r} is not a card in the hand of seat {turn}", V.INCONSISTENT)
        st.drawn = cid
        st.phase = DRAWN
    # the same validation as load_state: the position is a state the engine could be in
    return g._state_class()._from_json(g, json.loads(st.to_json(version=1)))


def _face(g: BlastOffGame, top: int, face: str | None) -> tuple[int, int]:
    t = g.ctype[top]
    if face is None:
        if g.kind[top] == WILD:
            V.fail("face", "a Wild on top of the discard pile needs its declared face (face='R4')",
                   V.INCONSISTENT)
        return TYPE_COL[t], TYPE_VAL[t]
    V.string(face, "face")
    try:
        d = parse_action(f"declare {face}")
    except CosmodeckError:
        V.fail("face", f"{face[:20]!r} is not a face (a colour letter O, G, P, R and a value 1..10 or BO)",
               V.RANGE)
    assert isinstance(d, Declare)
    if g.kind[top] != WILD and (d.col, d.val) != (TYPE_COL[t], TYPE_VAL[t]):
        V.fail("face", f"only a Wild shows a declared face; {g.card_names[top]} shows "
                       f"{face_text(TYPE_COL[t], TYPE_VAL[t])}", V.INCONSISTENT)
    return d.col, d.val


def _missions(g: BlastOffGame, st: BlastOffState, missions: Sequence[str]) -> None:
    index = {m.id: i for i, m in enumerate(g.missions)}
    inforce: list[int] = []
    for i, m in enumerate(names(missions, "missions")):
        f = f"missions[{i}]"
        mi = index.get(V.string(m, f))
        if mi is None:
            V.fail(f, f"{m[:20]!r} is not a mission of this game ({', '.join(index)})", V.UNKNOWN)
        if mi in inforce:
            V.fail(f, f"{m} is named twice", V.CENSUS)
        inforce.append(mi)
    rest = [i for i in range(len(g.missions)) if i not in inforce]
    st.rng.shuffle(rest)
    st.mdeck = rest
    st.inforce = inforce
    st.revealed = list(inforce)
    st.has_restriction = any(g.missions[mi].kind == "restriction" for mi in inforce)
