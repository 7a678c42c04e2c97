"""A Shooting Star heuristic: score every placement from the view, play the best.

The score of ``place CARD X,Y ARROW`` is an expectation over what the view leaves open (the
face-down cards of those who placed before this seat are uniform over their unknown cards):

- an attack: captures (1 point, +1 with moons, plus what it adds to this seat's missions),
  planets isolated into the debris, opponents' cards destroyed; flips that only set up a
  capture for someone else cost a little. It is discounted by the chance that an earlier
  card destroys this one first and by the chance that a target is a Space Shield (which
  hands the card and the Shield to its owner);
- a Space Shield: the chance that an opponent's card already placed hits it (each hit wins
  two cards and cancels that attack), plus a smaller chance for those placing later;
- a small cost for spending a card that is worth keeping (the priority-7 capture, the Shield).

Parameters: ``noise`` adds uniform noise of that size to each score (a weaker, more varied
bot); ``level`` (easy/normal/hard) only sets the reaction time, as for every bot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK, NEIGHBOURS, Cell
from cosmodeck.games.shooting_star.game import ShootingStarGame
from cosmodeck.games.shooting_star.view import BOT_KEYS, bot_view

KEEP = {"P7": 0.45, "SH": 0.35, "P8": 0.15, "P1": 0.15, "P3": 0.1}
FLIP_COST = 0.2
DESTROY_GAIN = 1.2
ISOLATE_GAIN = 0.55
SHIELD_WIN = 2.6
SHIELD_LOSS = 2.4
LATER_THREAT = 0.06
LATER_ATTRACT = 0.12


class ShsEval:
    """Everything the scores need, computed once from one seat's view."""

    def __init__(self, game: ShootingStarGame, view: Mapping[str, Any],
                 gains: dict[Any, dict[str, float]] | None = None) -> None:
        """``gains``: a memo of ``mission_gain`` shared by views (the fast scorer's), keyed by what it reads
        (this seat's missions in order, the named planets and the counts it has captured)."""
        data = game.data
        self.data = data
        self._cap: dict[str, float] = {}
        self._memo: dict[tuple[str, Cell, frozenset[Cell]], float] = {}
        self.seat = seat = int(view["seat"])
        self.players = int(view["players"])
        cells = view["grid"]["cells"]
        self.shape: set[Cell] = {(c["x"], c["y"]) for c in cells}
        self.board: dict[Cell, tuple[str, int]] = {
            (c["x"], c["y"]): (c["planet"], 0 if c["level"] is None else c["level"])
            for c in cells if c["planet"] is not None}
        placed = view["placed"]
        self.my_order = len(placed)
        self.later = self.players - 1 - len(placed)
        used = {h["seat"]: set(h["used"]) for h in view["hands"]}
        # per opponent card on the board: its cell and the (type, probability) it may be
        self.opp: dict[Cell, list[tuple[str, float]]] = {}
        self.opp_order: dict[Cell, int] = {}
        for p in placed:
            if p["seat"] == seat:
                continue
            unknown = [k for k in data.card_order if k not in used[p["seat"]]]
            cell = (p["cell"][0], p["cell"][1])
            self.opp[cell] = [(k, 1.0 / len(unknown)) for k in unknown]
            self.opp_order[cell] = int(p["order"])
        # threats: cell -> [(probability, priority, placement order)] of opponents' attacks hitting it
        self.threat: dict[Cell, list[tuple[float, int, int]]] = {}
        for p in placed:
            if p["seat"] == seat:
                continue
            cell = (p["cell"][0], p["cell"][1])
            for k, prob in self.opp[cell]:
                ct = data.cards[k]
                if ct.shield or ct.priority is None:
                    continue
                for t in {(cell[0] + dx, cell[1] + dy) for dx, dy in ct.rotated[p["orientation"]]}:
                    self.threat.setdefault(t, []).append((prob, ct.priority, int(p["order"])))
        self.shield_p = {c: sum(pr for k, pr in ks if data.cards[k].shield) for c, ks in self.opp.items()}
        # this seat's missions and what it has captured so far (conquest and debris count, R17)
        mine = view["missions"][seat] or []
        self.missions = [data.missions[m["id"]] for m in mine]
        got = [p for p in (*view["conquest"][seat], *view["debris"][seat]) if ":" not in p]
        planets = data.planets
        got_p = [planets[p] for p in got if planets[p].kind != KIND_DARK]
        self.names = {p.name for p in got_p if p.kind == KIND_34}
        self.counts = {"planets": len(got_p), KIND_12: sum(1 for p in got_p if p.kind == KIND_12),
                       KIND_34: sum(1 for p in got_p if p.kind == KIND_34),
                       "moon": sum(1 for p in got_p if p.moons >= 1)}
        self._gain: dict[str, float] | None = None
        if gains is not None:
            key = (tuple(str(m["id"]) for m in mine), frozenset(self.names), tuple(self.counts.values()))
            got_gains = gains.get(key)
            if got_gains is None:
                if len(gains) > 4096:
                    gains.clear()
                got_gains = gains[key] = {}
            self._gain = got_gains

    # ---- pieces of a score ---------------------------------------------------------------
    def mission_gain(self, pid: str) -> float:
        memo = self._gain
        if memo is None:
            return self._mission_gain(pid)
        v = memo.get(pid)
        if v is None:
            v = memo[pid] = self._mission_gain(pid)
        return v

    def _mission_gain(self, pid: str) -> float:
        p = self.data.planets[pid]
        if p.kind == KIND_DARK:
            return 0.0
        gain = 0.0
        for m in self.missions:
            if m.named:
                if p.name in m.named and p.name not in self.names:
                    found = sum(1 for n in m.named if n in self.names)
                    gain += m.score_by_found[found + 1] - m.score_by_found[found]
                continue
            keys = ["planets", p.kind] + (["moon"] if p.moons >= 1 else [])
            short = sum(max(0, v - self.counts.get(k, 0)) for k, v in m.need.items())
            if short and any(self.counts.get(k, 0) < m.need.get(k, 0) for k in keys):
                gain += 0.8 * m.points / short
        return gain

    def capture_value(self, pid: str) -> float:
        v = self._cap.get(pid)
        if v is None:
            p = self.data.planets[pid]
            v = self._cap[pid] = 1.0 + (1.0 if p.moons >= 1 else 0.0) + self.mission_gain(pid)
        return v

    def destroyed_first(self, cell: Cell, priority: int) -> float:
        """Chance that an opponent's card already placed destroys the card on ``cell`` before it resolves."""
        keep = 1.0
        for prob, pr, _order in self.threat.get(cell, ()):
            if pr >= priority:  # equal priority: the earlier placement (theirs) goes first
                keep *= 1.0 - prob
        return 1.0 - keep * (1.0 - LATER_THREAT) ** self.later

    def resolves_after(self, cell: Cell, priority: int) -> float:
        """Chance that the opponent's card on ``cell`` would resolve after a card of ``priority``."""
        return sum(pr for k, pr in self.opp[cell]
                   if (q := self.data.cards[k].priority) is not None and q < priority)

    # ---- the score of one placement --------------------------------------------------------
    def value(self, card: str, cell: Cell, arrow: str) -> float:
        ct = self.data.cards[card]
        keep = KEEP.get(card, 0.0)
        if ct.shield:
            hits = sum(prob for prob, _pr, _o in self.threat.get(cell, ()))
            here = self.board.get(cell)
            attract = LATER_ATTRACT * (1.5 if here is not None and here[1] in (1, 3) else 1.0)
            return SHIELD_WIN * min(1.0, hits + attract * self.later) - keep
        ox, oy = cell
        board = self.board
        targets = tuple((ox + dx, oy + dy) for dx, dy in ct.rotated[arrow])
        key = (card, cell, frozenset(t for t in targets if t in board))
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = self._attack(card, cell, targets) - keep
        return v

    def _attack(self, card: str, cell: Cell, targets: tuple[Cell, ...]) -> float:
        priority = self.data.cards[card].priority or 0
        board = dict(self.board)
        gain = 0.0
        emptied: list[Cell] = []
        shield_keep = 1.0
        for t in targets:
            if t not in self.shape:
                continue
            here = board.get(t)
            if here is None:
                continue
            if t in self.opp:
                shield_keep *= 1.0 - self.shield_p.get(t, 0.0)
                after = self.resolves_after(t, priority)
                gain += after * DESTROY_GAIN
                if after >= 0.5:
                    continue
            pid, level = here
            if level == 0:
                continue
            if level in (4, 2):
                board[t] = (pid, level - 1)
                if card != "P7":  # priority 7 hits twice: its flip is followed by the capture
                    gain -= FLIP_COST
                continue
            gain += self.capture_value(pid)
            if level == 3:
                board[t] = ("", 2)  # a replacement 1/2 card at level 2
            else:
                del board[t]
                emptied.append(t)
        for t in emptied:  # SHS-10: neighbours left without a neighbour go to the debris
            for dx, dy in NEIGHBOURS:
                n = (t[0] + dx, t[1] + dy)
                if n not in board:
                    continue
                if not any((n[0] + ex, n[1] + ey) in board for ex, ey in NEIGHBOURS):
                    pid = board.pop(n)[0]
                    gain += ISOLATE_GAIN + (self.mission_gain(pid) if pid else 0.0)
                    if n in self.opp and n != cell:
                        gain += DESTROY_GAIN
        p_shield = 1.0 - shield_keep
        live = 1.0 - self.destroyed_first(cell, priority)
        return live * (1.0 - p_shield) * gain - p_shield * SHIELD_LOSS


def scores(game: ShootingStarGame, view: Mapping[str, Any], legal: Sequence[Any]) -> list[float]:
    """A score per legal action (``PlacePlanet`` in the custom sector: 0, no preference)."""
    ev: ShsEval | None = None
    out = []
    for a in legal:
        if isinstance(a, Place):
            if ev is None:
                ev = ShsEval(game, view)
            out.append(ev.value(a.card, a.cell, a.orientation))
        else:
            out.append(0.0)
    return out


# The view entries the heuristic reads (``ShsEval``, the compiled kernel): a simulator may give the bot only these
# (``games/shooting_star/view.py:bot_view``, the same entries as the whole view's).
VIEW_KEYS = BOT_KEYS


class ShootingStarHeuristic:
    name = "heuristic"
    view_keys = VIEW_KEYS

    def __init__(self, game: ShootingStarGame, noise: float = 0.0, reaction: ReactionTime | None = None) -> None:
        self.game = game
        self.noise = noise
        self.reaction = reaction or ReactionTime()
        # What the simulator shows it (``sim/runner.py``): the game's projection of its seat's view on
        # ``view_keys`` (``games/shooting_star/view.py:bot_view``, the same entries as the whole view's; compiled,
        # a mapping whose parts the compiled kernel reads in C), or,
        # for a subclass (it may read any key), the whole view (None). It reads no state itself.
        self.view_for: Callable[[Any, int], Mapping[str, Any]] | None = (
            bot_view if type(self) is ShootingStarHeuristic else None)
        self._choose: Callable[[Mapping[str, Any], Sequence[Any], Rng], Any | None] | None = None
        self._noisy: Callable[[Mapping[str, Any], Sequence[Any], float, Rng], list[int] | None] | None = None

    def reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample(rng)

    def call_reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample_call(rng)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if not legal:
            return None
        if self.noise <= 0:  # the list path below, without the list (the compiled kernel's choice among the best)
            choose = self._choose
            if choose is None:
                from cosmodeck.bots.heuristic.shooting_star_fast import chooser_of

                choose = self._choose = chooser_of(self.game)
            got = choose(view, legal, rng)
            if got is not None:
                return got
        else:  # the same draws and choice as the list path below, compiled
            noisy = self._noisy
            if noisy is None:
                from cosmodeck.bots.heuristic.shooting_star_fast import noisy_best_indices_of

                noisy = self._noisy = noisy_best_indices_of(self.game)
            tops = noisy(view, legal, self.noise, rng)
            if tops is not None:
                return legal[tops[rng.randbelow(len(tops))] if len(tops) > 1 else tops[0]]
        from cosmodeck.bots.heuristic.shooting_star_fast import score_array  # the same scores, faster

        got = score_array(self.game, view, legal)
        if self.noise <= 0 and isinstance(got, np.ndarray):  # the list path below, on the array
            top = got.max()
            arr = np.flatnonzero(got >= top - 1e-12)
            return legal[int(arr[rng.randbelow(len(arr))]) if len(arr) > 1 else int(arr[0])]
        vals = got.tolist() if isinstance(got, np.ndarray) else got
        if self.noise > 0:
            vals = [v + self.noise * rng.random() for v in vals]
        top = max(vals)
        best = [i for i, v in enumerate(vals) if v >= top - 1e-12]
        return legal[best[rng.randbelow(len(best))] if len(best) > 1 else best[0]]


def prior(game: ShootingStarGame) -> Any:
    """The heuristic's scores as an ISMCTS widening order (from the searched state's view of ``seat``)."""

    from cosmodeck.bots.heuristic.shooting_star_fast import fast_scores  # the same scores, vectorised

    def f(state: State, seat: int, legal: Sequence[Any], rng: Rng) -> list[float]:
        return fast_scores(game, state.view(seat), legal)

    return f
