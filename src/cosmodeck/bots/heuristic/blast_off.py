"""A Blast Off! heuristic: sheds cards, keeps its Wilds, races the countdown, keeps its missions.

From its view alone:
- on its turn it plays a matching Planet or Blast Off card, preferring the colour it holds
  most of (so it keeps matching later); a Countdown card when it holds enough cards to slap;
  a Wild only when nothing else can be played (declared as its most-held colour and value);
  it draws when it must;
- in a countdown it throws in a card for every value it can, and reacts faster while a
  countdown runs (``race``: its reaction time is multiplied by this factor, default 0.5);
- it keeps each mission obligation it owes, except with probability ``p_forget`` (decided
  once per obligation);
- it catches: in the turn-based timing (``timing="steps"``) it follows the view's public log
  (``recent``) with a ``PublicTracker`` and catches each violation it derives there, with
  probability ``p_catch`` (an evidence catch, never false); in real time it still guesses: after
  another player's play while an obligation mission is in force it calls a catch on that player
  with probability ``p_catch``, which the engine judges (a false catch costs
  ``false_catch_penalty``, free by default);
- when a swap is theirs to choose, it swaps with the player holding the fewest cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.heuristic.blast_off_tracker import PublicTracker
from cosmodeck.bots.params import Params
from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import (
    Announce,
    Catch,
    Choose,
    Declare,
    Draw,
    Gesture,
    Keep,
    Play,
    Slap,
)
from cosmodeck.games.blast_off.game import BlastOffGame


def _colour(name: str) -> str:
    """The colour letter of a card name (``O7`` -> ``O``, ``BO-G`` -> ``G``); ``''`` for W and CD."""
    if name.startswith("BO-"):
        return name[3:]
    if name in ("W", "CD") or not name:
        return ""
    return name[0]


class BlastOffHeuristic:
    name = "heuristic"

    def __init__(self, game: BlastOffGame, p_forget: float = 0.1, p_catch: float = 0.3, race: float = 0.5,
                 reaction: ReactionTime | None = None) -> None:
        self.game = game
        self.p_forget = p_forget
        self.p_catch = p_catch
        self.race = race
        self.reaction = reaction or ReactionTime()
        self._racing = False
        self._forget: dict[tuple[Any, ...], bool] = {}
        self._seen_discard = -1
        self._last_turn = -1
        self._suspect: int | None = None
        self._tracker: PublicTracker | None = None
        self._log_seen = -1
        self._evidence: list[tuple[int, str]] = []

    @staticmethod
    def from_params(game: BlastOffGame, p: Params, reaction: ReactionTime) -> BlastOffHeuristic:
        bot = BlastOffHeuristic(game, p.float("p_forget", 0.1, lo=0.0, hi=1.0), p.float("p_catch", 0.3, lo=0.0, hi=1.0),
                                p.float("race", 0.5, lo=0.01), reaction)
        p.done()
        return bot

    def reaction_time(self, rng: Rng) -> float:
        t = self.reaction.sample(rng)
        return t * self.race if self._racing else t

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if not legal:
            return None
        seat = int(view["seat"])
        self._racing = view.get("countdown") is not None
        self._watch(view, seat, rng)
        hand = list(view.get("hand") or [])
        # 1. obligations owed
        for o in view.get("obligations") or ():
            key = (o["mission"], o["token"], o.get("expect"), o.get("deadline"), o.get("due_step"))
            if key not in self._forget:
                self._forget[key] = rng.random() < self.p_forget
            if self._forget[key]:
                continue
            for a in legal:
                if isinstance(a, (Announce, Gesture)) and a.token == o["token"] and (
                        not isinstance(a, Announce) or o.get("expect") is None or str(a.arg) == str(o["expect"])):
                    return a
        # 2. a catch: on evidence from the public log, else on a suspicion
        catches = [a for a in legal if isinstance(a, Catch)]
        if self._evidence and catches:  # a RESPONSE step: the window for what was derived before it
            evidence, self._evidence = self._evidence, []
            for target, mission in evidence:
                for a in catches:
                    if a.target == target and a.mission in (mission, None):
                        return a
        if self._suspect is not None:
            target, self._suspect = self._suspect, None
            for a in legal:
                if isinstance(a, Catch) and a.target == target and a.mission is None:
                    return a
        # 3. countdown: throw in a card (not a Wild while another card fits)
        slaps = [a for a in legal if isinstance(a, Slap)]
        if slaps:
            plain = [a for a in slaps if str(a).split()[1] != "W" and not str(a).split()[1].startswith("W[")]
            return (plain or slaps)[0]
        # 4. decisions: declare a Wild, choose a swap partner, keep or play the drawn card
        decl = [a for a in legal if isinstance(a, Declare)]
        if decl:
            return self._best_declaration(decl, hand)
        choose = [a for a in legal if isinstance(a, Choose)]
        if choose:
            sizes = view["hand_sizes"]
            return min(choose, key=lambda a: (sizes[a.target], a.target))
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._best_play(plays, hand)
        for a in legal:
            if isinstance(a, (Draw, Keep)):
                return a
        others = [a for a in legal if not isinstance(a, (Catch, Announce, Gesture))]
        if view.get("countdown") is not None and view.get("timing") != "steps":
            return None  # real time: nothing to throw in for this value, wait for the next call
        return others[0] if others else None

    def _watch(self, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
        if view.get("timing") == "steps" and "recent" in view:
            self._follow_log(view, seat, rng)
        else:
            self._guess(view, seat, rng)

    def _follow_log(self, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
        """Feed new public events to the tracker; each violation it derives is caught with ``p_catch``."""
        recent = view["recent"]
        if self._tracker is None or (recent and recent[0]["n"] > self._log_seen + 1):
            # first look (or we missed events): start from this view, as of its newest event
            self._tracker = PublicTracker(self.game, dict(view))
            self._log_seen = recent[-1]["n"] if recent else -1
            return
        for e in recent:
            if e["n"] > self._log_seen:
                self._tracker.feed({k: v for k, v in e.items() if k not in ("n", "t")})
                self._log_seen = e["n"]
        for target, mission in self._tracker.found:
            if target != seat and rng.random() < self.p_catch:
                self._evidence.append((target, mission))
        self._tracker.found.clear()

    def _guess(self, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
        """Remember who just played; suspect them (with ``p_catch``) when an obligation mission is in force."""
        n = len(view.get("discard") or ())
        turn = int(view.get("turn", -1))
        if self._seen_discard >= 0 and n > self._seen_discard and self._last_turn not in (-1, seat):
            obligations = [m for m in view.get("missions_in_force") or () if self._is_obligation(m.get("id"))]
            if obligations and rng.random() < self.p_catch:
                self._suspect = self._last_turn
        self._seen_discard = n
        self._last_turn = turn

    def _is_obligation(self, mid: Any) -> bool:
        for m in self.game.missions:
            if m.id == mid:
                return m.kind == "obligation"
        return False

    @staticmethod
    def _best_play(plays: list[Any], hand: list[str]) -> Any:
        counts = Counter(_colour(c) for c in hand if _colour(c))
        numbered = sum(1 for c in hand if c not in ("W", "CD"))

        def score(a: Any) -> float:
            words = str(a).split()
            card = words[1] if len(words) > 1 else ""
            if card.startswith("W"):
                return -10.0  # keep Wilds for when nothing else plays
            if card == "CD":
                return 3.0 if numbered >= 3 else -1.0
            return counts[_colour(card)] + (0.5 if card.startswith("BO-") else 0.0)

        return max(plays, key=score)

    @staticmethod
    def _best_declaration(decl: list[Any], hand: list[str]) -> Any:
        counts = Counter(_colour(c) for c in hand if _colour(c))
        return max(decl, key=lambda a: (counts[str(a).split()[1][:1]], -len(str(a))))
