"""Run a simulation on a backend and summarise it (the ``simulate --json`` object)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from cosmodeck.sim.batch import SimSpec, run_batch
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.stats import mean, wilson

Progress = Callable[[int], None]


def _chunks(total: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(500, total // max(1, workers * 8)))
    return [(i, min(total, i + size)) for i in range(0, total, size)]


def run_local(spec: SimSpec, workers: int = 1, progress: Progress | None = None) -> list[GameOutcome]:
    """All games of ``spec`` on ``workers`` local processes (1: in this process)."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    chunks = _chunks(spec.games, workers)
    outcomes: list[GameOutcome] = []
    if workers == 1:
        for start, stop in chunks:
            outcomes.extend(run_batch(spec, start, stop))
            if progress:
                progress(stop - start)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: set[Future[list[GameOutcome]]] = {pool.submit(run_batch, spec, a, b) for a, b in chunks}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    batch = fut.result()
                    outcomes.extend(batch)
                    if progress:
                        progress(len(batch))
    outcomes.sort(key=lambda o: o.index)
    return outcomes


def summarise(spec: SimSpec, outcomes: list[GameOutcome], elapsed: float, cooperative: bool,
              backend: str = "local", workers: int = 1) -> dict[str, Any]:
    """The DESIGN.md ``simulate --json`` fields (outcome numbers depend only on the seed)."""
    n = len(outcomes)
    decisions = sum(o.decisions for o in outcomes)
    out: dict[str, Any] = {
        "game": spec.game,
        "players": spec.players,
        "games": n,
        "seed": spec.seed,
        "bots": spec.bots,
        "options": spec.options,
        "data": None if spec.data is None else spec.data.source,
        "backend": backend,
        "workers": workers,
        "elapsed_s": round(elapsed, 4),
        "games_per_s": round(n / elapsed, 2) if elapsed > 0 else None,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed > 0 else None,
        "mean_length": mean([o.decisions for o in outcomes]),
        "mean_game_time_s": mean([o.game_time for o in outcomes]),
    }
    if cooperative:
        wins = sum(1 for o in outcomes if o.result.get("team_win"))
        out["team_win_rate"] = wins / n if n else 0.0
        out["team_win_ci95"] = list(wilson(wins, n))
        causes = Counter(str(o.result["details"].get("cause")) for o in outcomes if not o.result.get("team_win"))
        zones = Counter(str(o.result["details"].get("zone")) for o in outcomes if not o.result.get("team_win"))
        out["loss_causes"] = dict(sorted(causes.items()))
        out["loss_zones"] = dict(sorted(zones.items()))
    else:
        wins_by_seat = [0] * spec.players
        shared = 0
        for o in outcomes:
            winners = o.result["winners"]
            if len(winners) > 1:
                shared += 1
            for s in winners:
                wins_by_seat[s] += 1
        out["win_rate_by_seat"] = [w / n if n else 0.0 for w in wins_by_seat]
        out["ci95"] = [list(wilson(w, n)) for w in wins_by_seat]
        out["shared_wins"] = shared
        reasons = Counter(str(o.result["reason"]) for o in outcomes)
        out["end_reasons"] = dict(sorted(reasons.items()))
    return out


def simulate(
    spec: SimSpec, workers: int = 1, backend: str = "local", progress: Progress | None = None
) -> dict[str, Any]:
    game = spec.load()  # validates game, data and options before any worker starts
    if not game.info.min_players <= spec.players <= game.info.max_players:
        raise ValueError(f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players")
    from cosmodeck.bots.registry import make_bots

    make_bots(spec.game, spec.bots, spec.players)  # validates the bot spec up front
    t0 = time.perf_counter()
    if backend == "local":
        outcomes = run_local(spec, workers, progress)
    else:
        raise ValueError(f"unknown backend {backend!r} (available: local)")
    elapsed = time.perf_counter() - t0
    return summarise(spec, outcomes, elapsed, game.info.cooperative, backend, workers)
