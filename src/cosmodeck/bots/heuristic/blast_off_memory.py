"""How a Blast Off! player forgets a mission obligation, and notices someone else's lapse.

A mission obligation is an *event-based prospective memory* task: when a cue happens (a 5 is
played), do something (say "Roger!"). People fail such tasks more when the cue is rare, when the
cue is not what they are attending to (another player's card rather than their own), when the
response needs working out (a count, a colour) and when they hold more intentions at once
(McDaniel & Einstein, *Prospective Memory*, 2007, chapters 3-5). The model puts those factors on
the log-odds of forgetting one obligation:

    logit P(forget) = offset + rarity * bits + call * [a count or colour to say]
                      + gesture * [a gesture] + others * [cue is another's play]
                      + load * (missions in force - 1)

where ``bits = log2(1 / P(trigger on a play))`` is the trigger's surprise, computed from the deck
and the mission's condition (a 7: 5 of 68 cards, 3.8 bits; an orange card: 15 of 68, 2.2 bits; a card on
the same colour: about 2 bits; a draw action and "left with one card" use fixed estimates,
``DRAW_P`` and ``LAST_CARD_P``).

``offset`` is calibrated, for each game definition, so that the mean forgetting rate over the
obligations a table owes equals the bot's ``p_forget`` (default 0.1): each obligation mission is
weighted by how often it binds someone (its trigger probability, times the players it obliges).
So ``p_forget`` keeps its meaning (the average), ``p_forget=0`` never forgets and ``p_forget=1``
always forgets, while the model spreads the average over the missions. The weights below are the
model's assumptions, chosen from the direction of the effects in the literature; no table of
human play has been fitted (none exists for this game).

Noticing another player's lapse needs the catcher to remember the mission at the cue, as a
non-focal cue: ``P(notice) = 1 - P(forget | others)`` for that mission, and a bot catches with
probability ``p_catch * P(notice)``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cosmodeck.games.blast_off.cards import TYPE_COL, TYPE_KIND, TYPE_VAL
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED, EV_SIZE

DRAW_P = 0.25  # share of turns that are a draw action (heuristic bots, 4 players: about one in four)
LAST_CARD_P = 0.08  # chance that a play leaves its player with exactly one card
MEMORY = ("mission", "flat")  # the bot's memory: this model, or one probability for every obligation


@dataclass(frozen=True, slots=True)
class MemoryWeights:
    """The model's log-odds weights (see the module docs)."""

    rarity: float = 0.35  # per bit of trigger surprise
    call: float = 0.5  # the announcement needs working out (the hand size, a colour)
    gesture: float = -0.3  # a gesture (tap, salute) is easier to produce than a phrase
    others: float = 0.7  # the cue is another player's play, not one's own
    load: float = 0.4  # per mission in force beyond the first


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def trigger_p(game: Any, mission: Any) -> float:
    """The chance that one play (or turn) triggers ``mission``, from the deck's composition."""
    if mission.event == EV_DRAW:
        return DRAW_P
    if mission.event == EV_SIZE:
        return LAST_CARD_P
    if mission.event != EV_PLAYED or mission.cond is None:
        return 1.0
    freq = Counter(game.ctype)
    n = sum(freq.values())
    below = [(t, k) for t, k in freq.items() if TYPE_COL[t] >= 0]  # the card played onto shows a face
    nb = sum(k for _t, k in below)
    hit = 0.0
    for t, k in freq.items():
        for u, j in below:
            if mission.cond.match(TYPE_KIND[t], TYPE_COL[t], TYPE_VAL[t], TYPE_COL[u], TYPE_VAL[u]):
                hit += (k / n) * (j / nb)
    return max(hit, 1.0 / (n * nb))


class MissionMemory:
    """Per-mission forgetting and noticing probabilities for one game definition and ``p_forget``."""

    def __init__(self, game: Any, p_forget: float, players: int = 4, weights: MemoryWeights | None = None) -> None:
        self.w = weights or MemoryWeights()
        self.p_forget_mean = p_forget
        self.bits: dict[str, float] = {}
        self.terms: dict[str, float] = {}
        self.others: dict[str, bool] = {}
        weight: dict[str, float] = {}
        for m in getattr(game, "missions", ()):
            if m.kind != "obligation":
                continue
            p = trigger_p(game, m)
            self.bits[m.id] = math.log2(1.0 / p)
            self.others[m.id] = bool(m.who_others)
            self.terms[m.id] = self._term(self.bits[m.id], m.arg is not None, bool(m.gesture))
            weight[m.id] = p * ((players - 1) if m.who_others else 1)
        self.offset = self._calibrate(weight)

    def _term(self, bits: float, call: bool, gesture: bool) -> float:
        w = self.w
        return w.rarity * bits + (w.call if call else 0.0) + (w.gesture if gesture else 0.0)

    def _calibrate(self, weight: dict[str, float]) -> float:
        """The offset whose weighted mean forgetting rate (one mission in force) is ``p_forget``."""
        target = self.p_forget_mean
        if not weight or not 0.0 < target < 1.0:
            return 0.0
        total = sum(weight.values())

        def mean(offset: float) -> float:
            return sum(wt * _sigmoid(offset + self._full(mid, 1)) for mid, wt in weight.items()) / total

        lo, hi = -40.0, 40.0
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if mean(mid) < target else (lo, mid)
        return (lo + hi) / 2

    def _full(self, mission: str, in_force: int, others: bool | None = None) -> float:
        o = self.others.get(mission, False) if others is None else others
        return self.terms[mission] + (self.w.others if o else 0.0) + self.w.load * max(0, in_force - 1)

    def p_forget(self, mission: str, in_force: int = 1) -> float:
        """The chance to forget one obligation of ``mission`` with ``in_force`` missions in force."""
        if self.p_forget_mean <= 0.0:
            return 0.0
        if self.p_forget_mean >= 1.0:
            return 1.0
        if mission not in self.terms:  # a mission this definition does not know (authored in play)
            return self.p_forget_mean
        return _sigmoid(self.offset + self._full(mission, in_force))

    def p_notice(self, mission: str, in_force: int = 1) -> float:
        """The chance to notice another player's lapse on ``mission`` (remembering it at their cue)."""
        if mission not in self.terms or not 0.0 < self.p_forget_mean < 1.0:
            return 1.0 - self.p_forget_mean if self.p_forget_mean < 1.0 else 0.0
        return 1.0 - _sigmoid(self.offset + self._full(mission, in_force, others=True))

    def table(self) -> list[dict[str, Any]]:
        """Each obligation mission's trigger surprise and probabilities (one mission in force)."""
        return [{"mission": mid, "trigger_bits": round(self.bits[mid], 3), "others": self.others[mid],
                 "p_forget": round(self.p_forget(mid), 4), "p_notice": round(self.p_notice(mid), 4)}
                for mid in sorted(self.terms)]


_CACHE: dict[tuple[int, float], tuple[Any, MissionMemory]] = {}


def memory_for(game: Any, p_forget: float) -> MissionMemory:
    """The model for ``game`` (calibrated for a 4-player table), built once per game definition."""
    key = (id(game), p_forget)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_CACHE) >= 16:
        _CACHE.pop(next(iter(_CACHE)))
    mem = MissionMemory(game, p_forget)
    _CACHE[key] = (game, mem)
    return mem
