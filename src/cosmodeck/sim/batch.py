"""Seeded batches of games: the unit of work every backend runs.

Game ``i`` of a run with master seed ``S`` always gets seed ``derive_seed(S, i)``, so
results are identical whatever the worker count or backend.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cosmodeck.api import load_game
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.options import TextInput
from cosmodeck.engine.rng import derive_seed
from cosmodeck.sim.metrics import first_mover, game_metrics
from cosmodeck.sim.observe import observer_for
from cosmodeck.sim.runner import DecisionLimitError, GameOutcome, bot_rng, play_game

MAX_DECISIONS = 100_000
UNFINISHED = "unfinished"  # the end reason of a game stopped at the decision limit


@dataclass(frozen=True)
class SimSpec:
    """Everything that defines a simulation run, picklable for worker processes."""

    game: str
    players: int
    games: int
    seed: int = 0
    bots: str = "random"
    data: TextInput | None = None
    options: dict[str, Any] = field(default_factory=dict)
    max_decisions: int = MAX_DECISIONS  # a game still going after this many is recorded as unfinished

    def load(self) -> Game[Any]:
        return load_game(self.game, data=self.data, **self.options)


_CACHE: dict[str, Game[Any]] = {}


def _game_for(spec: SimSpec) -> Game[Any]:
    """Load the game once per process (workers receive a fresh copy of the spec per batch)."""
    key = json.dumps([spec.game, None if spec.data is None else spec.data.sha, spec.options],
                     sort_keys=True, default=str)
    game = _CACHE.get(key)
    if game is None:
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        game = _CACHE[key] = spec.load()
    return game


def run_one(spec: SimSpec, game: Game[Any], index: int) -> GameOutcome:
    seed = derive_seed(spec.seed, index)
    state = game.new_game(players=spec.players, seed=seed)
    bots = make_bots(spec.game, spec.bots, spec.players, game)
    observer = observer_for(game, spec.players)

    def sink(seat: int | None, events: list[Event]) -> None:
        if observer is not None:
            observer(seat, events, state.now)

    try:
        decisions = play_game(state, bots, bot_rng(seed), spec.max_decisions, sink)
    except DecisionLimitError:
        # A draw nobody wins: one tier, no winners, no team win; counted apart by the summary.
        result = {"reason": UNFINISHED, "winners": [], "ranking": [list(range(spec.players))], "scores": None,
                  "team_win": False if game.info.cooperative else None,
                  "details": {"cause": UNFINISHED, "max_decisions": spec.max_decisions}}
        return GameOutcome(index, seed, spec.players, spec.max_decisions + 1, state.now, result,
                           {"first": first_mover(state), UNFINISHED: True})
    res = state.result
    assert res is not None
    result = res.to_dict()
    metrics = game_metrics(state, result)
    if observer is not None:
        metrics.update(observer.finish(state, result, decisions))
    return GameOutcome(index, seed, spec.players, decisions, state.now, result, metrics)


def run_batch(spec: SimSpec, start: int, stop: int) -> list[GameOutcome]:
    """Games ``start..stop-1`` of the run."""
    game = _game_for(spec)
    return [run_one(spec, game, i) for i in range(start, stop)]
