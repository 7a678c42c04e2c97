"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

Each iteration samples a determinization: a full state built from the bot's view alone, with
everything the seat cannot see re-drawn consistently with what it can
(:mod:`cosmodeck.bots.determinize`). The search descends one tree shared by all
determinizations, choosing among the children that are legal in this determinization by UCB1
with availability counts, adds one node, plays the rest at random and backs up each seat's
reward. The bot never reads the real state.

Branching in these games is wide (Shooting Star: up to 9 cards x 12 cells x 4 arrows), so a
node considers its children by *progressive widening*: the ``ceil(widen * visits**alpha)``
best actions under an optional prior (the game's heuristic), or a random order without one.

Turn-based games get the full tree. Real-time games get a flat search at the root (act now
with one of the legal actions, or wait), because who acts next is decided by reaction times
rather than by the rules; their rollouts run on a virtual clock.

A game's prior may be a :class:`Guide` (opt-in; a plain prior function changes nothing
here): then a real-time root searches only the guide's candidates (its ``width`` best
actions scoring above ``act_floor``, plus waiting) with paired playouts (see ``_guided``),
and waits without searching when there are none; playouts follow the guide's ``policy`` and
are scored by its ``reward``.
Meteor uses one (``bots/heuristic/meteor_prior.py``): random playouts there are long and
never win. An action legal for the real seat but not in a determinization (a legality that
depends on something the view does not show) is skipped in that iteration.

Budget: ``iters`` iterations (deterministic for a given seed) or ``ms`` milliseconds of
wall-clock time per decision (machine-dependent: results then vary with load and hardware).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.bots.rollout import rollout
from cosmodeck.engine.game import Game
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State

Determinizer = Callable[[Game[Any], Mapping[str, Any], int, Rng], State]
# scores of ``legal`` for ``seat`` in ``state`` (higher is better): the widening order
Prior = Callable[[State, int, Sequence[Any], Rng], Sequence[float]]

WAIT = "__wait__"  # the real-time "do nothing yet" child


S = TypeVar("S", bound=State)


class Guide(Generic[S]):
    """A game's knowledge for searching it in real time (see the module docstring).

    It is also a :data:`Prior` (``__call__`` scores the actions from the state's view), so the
    registry passes it as the bot's ``prior``; ``prior=none`` drops all of it. ``S`` is the
    game's state class, which its playout policy reads.
    """

    act_floor: float = 0.0  # root candidates must score above this
    width: int = 4  # how many of the best candidates are searched (with waiting)
    idle_s: float = 5.0  # in playouts, a waiting seat looks again after this long if nothing changed

    def scores(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Sequence[float]:
        """Scores of ``legal`` for ``seat`` (higher is better), from its view."""
        raise NotImplementedError

    def policy(self, state: S, seat: int, rng: Rng) -> Any | None:
        """The playout action of ``seat`` in ``state`` (legal), or ``None`` to wait."""
        return None

    def reward(self, result: Result, players: int) -> list[float]:
        """Each seat's reward in [0, 1] for a finished playout."""
        return rewards(result, players)

    def __call__(self, state: S, seat: int, legal: Sequence[Any], rng: Rng) -> Sequence[float]:
        return self.scores(state.view(seat), seat, legal)


def rewards(result: Result, players: int, shaping: float = 0.25, scale: float = 4.0) -> list[float]:
    """Each seat's reward in [0, 1]: a share of the win (or the team's win), plus a little score margin.

    The margin term (``shaping``) breaks ties between lines that all win or all lose.
    """
    if result.team_win is not None:
        return [1.0 if result.team_win else 0.0] * players
    k = len(result.winners)
    out = [(1.0 / k if s in result.winners else 0.0) for s in range(players)]
    if shaping > 0 and result.scores:
        sc = [float(result.scores.get(s, 0.0)) for s in range(players)]
        for s in range(players):
            best_other = max((sc[o] for o in range(players) if o != s), default=0.0)
            margin = 0.5 + 0.5 * math.tanh((sc[s] - best_other) / scale)
            out[s] = (1.0 - shaping) * out[s] + shaping * margin
    return out


class _Node:
    __slots__ = ("avail", "children", "n", "order", "scored", "w")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.n = 0
        self.w = 0.0  # reward sum of the seat whose move led here
        self.avail = 0
        self.scored: dict[Any, float] | None = None
        self.order: list[Any] = []


class ISMCTSBot:
    """See the module docstring. ``act`` returns one of ``legal`` (or ``None``: wait, real time)."""

    def __init__(self, game: Game[Any], determinizer: Determinizer, *, iters: int | None = 200,
                 ms: float | None = None, c: float = 0.7, widen: float = 2.0, alpha: float = 0.5,
                 prior: Prior | Guide[Any] | None = None, reaction: ReactionTime | None = None, shaping: float = 0.25,
                 max_rollout: int = 100_000, prior_depth: int = 2, name: str = "ismcts") -> None:
        if iters is None and ms is None:
            raise ValueError("ismcts bot: give a budget, iters=N or ms=M")
        self.name = name
        self.game = game
        self.determinizer = determinizer
        self.iters = iters
        self.ms = ms
        self.c = c
        self.widen = widen
        self.alpha = alpha
        self.prior = prior
        self.reaction = reaction or ReactionTime()
        self.shaping = shaping
        self.max_rollout = max_rollout
        self.prior_depth = prior_depth
        self.guide = prior if isinstance(prior, Guide) else None
        self.last_iterations = 0  # for benchmarks
        self.total_iterations = 0
        self.total_seconds = 0.0

    def reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample(rng)

    def call_reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample_call(rng)

    # ---- the budget --------------------------------------------------------------------
    def _budget(self) -> Callable[[int], bool]:
        iters, ms = self.iters, self.ms
        if ms is None:
            assert iters is not None
            return lambda i: i < iters
        stop = time.perf_counter() + ms / 1000.0
        if iters is None:
            return lambda i: i < 1 or time.perf_counter() < stop
        return lambda i: i < 1 or (i < iters and time.perf_counter() < stop)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        if not legal:
            return None
        if len(legal) == 1 and not self.game.info.real_time:
            return legal[0]
        seat = int(view["seat"])
        t0 = time.perf_counter()
        if self.game.info.real_time and self.guide is not None:
            choice, n = self._guided(self.guide, view, seat, legal, rng)
        elif self.game.info.real_time:
            choice, n = self._flat(view, seat, legal, rng)
        else:
            choice, n = self._tree(view, seat, legal, rng)
        self.last_iterations = n
        self.total_iterations += n
        self.total_seconds += time.perf_counter() - t0
        return choice

    # ---- turn-based: one tree over every seat's moves ------------------------------------
    def _candidates(self, node: _Node, st: State, seat: int, legal: Sequence[Any], rng: Rng,
                    depth: int) -> list[Any]:
        """The best ``k`` legal actions under the prior, ``k`` growing with the node's visits.

        New actions (legal here but never seen at this node) are looked for on the first visits
        and then every eighth one; in between, legality is checked for the ranked head only.
        """
        if node.scored is None:
            node.scored = {}
        k = max(1, math.ceil(self.widen * (node.n + 1) ** self.alpha))
        scanned = False
        if node.n < 4 or node.n % 8 == 0:
            self._score_new(node, st, seat, legal, rng, depth)
            scanned = True
        if len(legal) <= k:
            return list(legal)
        while True:
            out = []
            for a in node.order:
                if st.is_legal(seat, a):
                    out.append(a)
                    if len(out) >= k:
                        return out
            if scanned:
                return out
            self._score_new(node, st, seat, legal, rng, depth)
            scanned = True

    def _score_new(self, node: _Node, st: State, seat: int, legal: Sequence[Any], rng: Rng, depth: int) -> None:
        scored = node.scored
        assert scored is not None
        new = [a for a in legal if a not in scored]
        if not new:
            return
        if self.prior is not None and depth < self.prior_depth:
            vals = self.prior(st, seat, new, rng)
            for a, v in zip(new, vals, strict=True):
                scored[a] = v + 1e-9 * rng.random()
        else:
            for a in new:
                scored[a] = rng.random() - 1e6
        node.order = sorted(scored, key=scored.__getitem__, reverse=True)

    def _select(self, node: _Node, cands: list[Any], rng: Rng) -> tuple[Any, bool]:
        """An untried candidate (best prior first) or the UCB1 choice among tried ones."""
        for a in cands:
            if a not in node.children:
                return a, True
        best, best_v = None, -math.inf
        c = self.c
        for a in cands:
            ch = node.children[a]
            ch.avail += 1
            v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n) if ch.n else math.inf
            if v > best_v:
                best, best_v = a, v
        return best, False

    def _tree(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any], rng: Rng) -> tuple[Any, int]:
        root = _Node()
        more = self._budget()
        i = 0
        players = int(view["players"])
        while more(i):
            i += 1
            st = self.determinizer(self.game, view, seat, rng)
            node = root
            path: list[tuple[_Node, int]] = []
            while not st.is_over:
                to_act = st.to_act
                if not to_act:
                    d = st.next_deadline()
                    if d is None:
                        break
                    st.advance(d)
                    continue
                if node is root:  # the bot's own move, even when other seats act in the same step
                    s, acts = seat, legal
                else:
                    s = min(to_act)
                    acts = st.legal_actions(s)
                cands = self._candidates(node, st, s, acts, rng, len(path))
                a, new = self._select(node, cands, rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node()
                    child.avail = 1
                st.apply(s, a)
                path.append((child, s))
                node = child
                if new:
                    break
            rollout(st, rng, self.max_rollout)
            res = st.result
            r = rewards(res, players, self.shaping) if res is not None else [0.5] * players
            root.n += 1
            for nd, s in path:
                nd.n += 1
                nd.w += r[s]
        ok = set(legal)
        best = max((a for a in root.children if a in ok), key=lambda a: (root.children[a].n, root.children[a].w))
        return best, i

    # ---- real time: flat search at the root (act now, or wait) -------------------------
    def _flat(self, view: Mapping[str, Any], seat: int, legal: Sequence[Any], rng: Rng) -> tuple[Any, int]:
        root = _Node()
        more = self._budget()
        i = 0
        players = int(view["players"])
        options: list[Any] = [*legal, WAIT]
        while more(i):
            i += 1
            st = self.determinizer(self.game, view, seat, rng)
            cands = options
            a, _ = self._select(root, cands, rng)
            child = root.children.get(a)
            if child is None:
                child = root.children[a] = _Node()
                child.avail = 1
            if a != WAIT:
                st.apply(seat, a, at=st.now)
            rollout(st, rng, self.max_rollout)
            res = st.result
            r = rewards(res, players, self.shaping) if res is not None else [0.5] * players
            root.n += 1
            child.n += 1
            child.w += r[seat]
        best = max(root.children, key=lambda a: (root.children[a].n, root.children[a].w))
        return (None if best == WAIT else best), i

    # ---- real time with a Guide: paired playouts of the guide's best candidates -----------
    def _guided(self, guide: Guide[Any], view: Mapping[str, Any], seat: int, legal: Sequence[Any],
                rng: Rng) -> tuple[Any, int]:
        """Rounds of paired playouts: each round samples one determinization and one playout
        seed, and plays every candidate (the guide's ``width`` best, and waiting) from it, so
        that candidates are compared on the same hidden cards and the same luck (common random
        numbers). The best mean reward wins; ties go to the guide's order, waiting last.
        A candidate illegal in a round's determinization sits that round out.
        """
        scores = guide.scores(view, seat, legal)
        ranked = [a for v, _, a in sorted(((v, -i, a) for i, (a, v) in enumerate(zip(legal, scores, strict=True))
                                           if v > guide.act_floor), key=lambda x: (x[0], x[1]), reverse=True)]
        if not ranked:
            return None, 0
        cands: list[Any] = [*ranked[:guide.width], WAIT]
        total = [0.0] * len(cands)
        count = [0] * len(cands)
        more = self._budget()
        i = 0
        players = int(view["players"])
        while more(i):
            base = self.determinizer(self.game, view, seat, rng)
            seed = rng.next64()
            for j, a in enumerate(cands):
                st = base.clone() if j < len(cands) - 1 else base
                if a != WAIT:
                    if not st.is_legal(seat, a):
                        continue
                    st.apply(seat, a, at=st.now)
                rollout(st, Rng(raw_state=seed), self.max_rollout, policy=guide.policy, idle_s=guide.idle_s)
                res = st.result
                total[j] += guide.reward(res, players)[seat] if res is not None else 0.5
                count[j] += 1
                i += 1
        best = max(range(len(cands)), key=lambda j: (total[j] / count[j] if count[j] else -1.0, -j))
        return (None if cands[best] == WAIT else cands[best]), i
