"""Blast Off! knowledge for the ISMCTS bot: a widening order, root candidates, a playout policy.

``prior(game)`` returns a :class:`~cosmodeck.bots.ismcts.Guide`. One score per action, read off
a state that is a determinization (built from the bot's view alone, ``bots/determinize/blast_off.py``)
or a state the search reached from one, so it uses no secret. Higher is better:

- mission actions (RESPONSE steps; any time in real time): the announcement or gesture that
  fulfils one of the seat's open obligations (with the right argument); a catch of a seat with
  an open, uncaught violation (derived from the public log); then ``done``; every other
  announcement or catch is never considered (it achieves nothing, or risks a false-catch penalty);
- countdown: throw in a Planet or Blast Off card, then a Wild; passing is never better than
  waiting (real time) and comes last (steps);
- turn and drawn card: a matching Planet or Blast Off card of the colour held most (so that the
  next match is likely), a Countdown card when enough numbered cards are left to slap, a Wild
  declared as the colour and value held most, and last draw / pass / keep;
- decisions: a declaration of the colour held most; the swap partner with the fewest cards.

Used three ways:

- turn-based timing (``timing="steps"``): the order in which the search tree widens (``__call__``,
  straight from the searched state; playouts stay uniformly random);
- real time, root candidates (``scores``): the ``width`` best actions scoring above ``act_floor``
  (so never a useless announcement, catch or pass), compared with waiting by paired playouts;
  with no candidate (nothing owed, nothing to catch, not its decision, nothing to slap) the bot
  waits without searching;
- real time, playouts (``policy``): every seat plays the best-scored action, forgets an
  obligation with probability ``p_forget`` and catches on evidence with probability ``p_catch``
  per look (the heuristic bot's defaults), and waits when nothing scores above the floor;
  a finished playout is scored by ``reward``: a share of the win, plus a little for each seat
  by how few cards it was left holding (``exp(-cards / 4)``), so that playouts a seat loses
  still tell a near miss from a rout.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.determinize.blast_off import determinize
from cosmodeck.bots.ismcts import Guide, rewards
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import (
    Announce,
    Author,
    Catch,
    Choose,
    Declare,
    Done,
    Gesture,
    Play,
    Slap,
)
from cosmodeck.games.blast_off.cards import BLAST, COUNTDOWN, PLANET, TYPE_COL, TYPE_KIND, TYPE_VAL, WILD
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.state import BlastOffState

OWED = 4.0  # fulfil an obligation
EVIDENCE = 3.5  # catch an open violation
SLAP = 3.0
SLAP_WILD = 1.5
DONE = 0.5
FALLBACK = 0.05  # draw / pass / keep on one's own turn: above the floor, below every play
USELESS = -3.0  # an unowed announcement, a catch without evidence, a countdown pass
CARDS_LEFT = 0.25  # weight of the cards-left term of a playout's reward


def _hand_counts(st: BlastOffState, seat: int) -> tuple[Counter[int], Counter[int], int]:
    cols: Counter[int] = Counter()
    vals: Counter[int] = Counter()
    numbered = 0
    types = st.g.ctype
    for c in st.hands[seat]:
        t = types[c]
        if TYPE_KIND[t] in (PLANET, BLAST):
            cols[TYPE_COL[t]] += 1
            vals[TYPE_VAL[t]] += 1
            numbered += 1
    return cols, vals, numbered


def _owed(st: BlastOffState, seat: int, a: Announce | Gesture) -> bool:
    gesture = isinstance(a, Gesture)
    arg = a.arg if isinstance(a, Announce) else None
    for o in st.obls:
        if o[0] == seat:
            m = st.mission(o[1])
            if m.gesture == gesture and m.token == a.token and o[2] == arg:
                return True
    return False


def _evidence(st: BlastOffState, a: Catch) -> bool:
    for v in st.viols:
        if v[0] == a.target and not v[5] and (a.mission is None or st.mission(v[1]).id == a.mission):
            if st.rt:
                if st.now < v[3] or st.turn_no < v[4]:
                    return True
            elif v[2] <= st.resp_no <= v[3]:
                return True
    return False


def scores(st: BlastOffState, seat: int, legal: Sequence[Any]) -> list[float]:
    """The score of each of ``legal`` for ``seat`` in ``st`` (see the module docstring)."""
    cols, vals, numbered = _hand_counts(st, seat)
    out: list[float] = []
    for a in legal:
        if isinstance(a, (Announce, Gesture)):
            out.append(OWED if _owed(st, seat, a) else USELESS)
        elif isinstance(a, Catch):
            out.append(EVIDENCE - (0.1 if a.mission is not None else 0.0) if _evidence(st, a) else USELESS)
        elif isinstance(a, Done):
            out.append(DONE)
        elif isinstance(a, Slap):
            out.append(SLAP_WILD + 0.01 * cols[a.col] if TYPE_KIND[a.card] == WILD else SLAP)
        elif isinstance(a, Play):
            k = TYPE_KIND[a.card]
            if k == WILD:
                out.append(0.2 + 0.1 * cols[a.col] + 0.05 * vals[a.val])
            elif k == COUNTDOWN:
                out.append(2.0 if numbered >= 3 else 0.3)
            else:
                out.append(1.0 + 0.2 * (cols[TYPE_COL[a.card]] - 1) + (0.1 if k == BLAST else 0.0))
        elif isinstance(a, Declare):
            out.append(0.1 + 0.1 * cols[a.col] + 0.05 * vals[a.val])
        elif isinstance(a, Choose):
            out.append(1.0 / (1.0 + len(st.hands[a.target])))
        elif isinstance(a, Author):
            out.append(FALLBACK)
        elif st.in_countdown():  # pass for the called value
            out.append(USELESS)
        else:  # draw, pass (nothing to draw), keep
            out.append(FALLBACK)
    return out


class BlastOffGuide(Guide[BlastOffState]):
    """The scores above as widening order, root candidates and playout policy."""

    def __init__(self, game: BlastOffGame, p_forget: float = 0.1, p_catch: float = 0.3) -> None:
        self.game = game
        self.p_forget = p_forget
        self.p_catch = p_catch
        self.act_floor = 0.0
        self.width = 3
        self.idle_s = 3.0

    def __call__(self, state: BlastOffState, seat: int, legal: Sequence[Any], rng: Rng) -> Sequence[float]:
        return scores(state, seat, legal)

    def scores(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Sequence[float]:
        # the view's determinization is cached: its public and own parts are all the scores read
        return scores(determinize(self.game, view, seat, Rng(0)), seat, legal)

    def policy(self, state: BlastOffState, seat: int, rng: Rng) -> Any | None:
        legal = state.legal_actions(seat)
        if not legal:
            return None
        best, best_v = None, self.act_floor
        for a, v in zip(legal, scores(state, seat, legal), strict=True):
            if v == OWED and rng.random() < self.p_forget:
                continue
            if v >= EVIDENCE - 0.1 and v < OWED and rng.random() >= self.p_catch:
                continue
            if v > best_v:
                best, best_v = a, v
        return best

    def reward(self, result: Result, players: int) -> list[float]:
        return reward(result, players)


def reward(result: Result, players: int) -> list[float]:
    """A share of the win, plus ``CARDS_LEFT * exp(-cards / 4)`` for the cards each seat holds at the end."""
    win = rewards(result, players, shaping=0.0)
    sizes = (result.details or {}).get("hand_sizes") or [0] * players
    return [(1.0 - CARDS_LEFT) * win[s] + CARDS_LEFT * math.exp(-float(sizes[s]) / 4.0) for s in range(players)]


def prior(game: BlastOffGame) -> BlastOffGuide:
    return BlastOffGuide(game)
