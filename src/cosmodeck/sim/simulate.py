"""Run a simulation on a backend and summarise it (the ``simulate --json`` object)."""

from __future__ import annotations

import time
from typing import Any

from cosmodeck.sim.backends import Progress, chunks, run_tasks
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.summary import summarise

__all__ = ["check_spec", "run_local", "run_spec", "simulate", "summarise"]


def run_spec(spec: SimSpec, workers: int = 1, backend: str = "local", address: str | None = None,
             progress: Progress | None = None, max_batch: int = 500) -> list[GameOutcome]:
    """All games of ``spec``, in index order (in batches of at most ``max_batch`` games)."""
    tasks = [(spec, a, b) for a, b in chunks(spec.games, workers, max_batch)]
    return [o for batch in run_tasks(tasks, workers, backend, address, progress) for o in batch]


def run_local(spec: SimSpec, workers: int = 1, progress: Progress | None = None) -> list[GameOutcome]:
    """All games of ``spec`` on ``workers`` local processes (1: in this process)."""
    return run_spec(spec, workers, "local", None, progress)


def check_spec(spec: SimSpec) -> Any:
    """Validate game, data, options, player count and bots before any worker starts; returns the game."""
    game = spec.load()
    if not game.info.min_players <= spec.players <= game.info.max_players:
        raise ValueError(f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players")
    from cosmodeck.bots.registry import make_bots

    make_bots(spec.game, spec.bots, spec.players, game)
    return game


def simulate(spec: SimSpec, workers: int = 1, backend: str = "local", progress: Progress | None = None,
             address: str | None = None, keep_outcomes: list[GameOutcome] | None = None,
             max_batch: int = 500) -> dict[str, Any]:
    """Run ``spec`` and summarise it; ``keep_outcomes`` (a list) receives the per-game outcomes.

    ``max_batch`` bounds the games of one task (smaller: more frequent ``progress`` calls)."""
    game = check_spec(spec)
    t0 = time.perf_counter()
    outcomes = run_spec(spec, workers, backend, address, progress, max_batch)
    elapsed = time.perf_counter() - t0
    if keep_outcomes is not None:
        keep_outcomes.extend(outcomes)
    return summarise(spec, outcomes, elapsed, game.info.cooperative, backend, workers, game)
