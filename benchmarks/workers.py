"""Simulator scaling: the same seeded run on 1 worker and on N, alternating, best of ``--repeat``.

Each round runs the whole simulation once per worker count (1 first, then N, so a slow patch of
a shared machine hits both), checks the outcomes are identical, and the speed-up is the ratio of
wall-clock times. Reported: every round's ratio and the best one (on a shared machine the best
round is the one least disturbed by other jobs; the worst shows how much they cost).

    .venv/bin/python benchmarks/workers.py                       # shooting-star, 4 players, 4000 games
    .venv/bin/python benchmarks/workers.py --game blast-off --players 4 --games 2000 --json

Not part of the test run (timings belong to benchmarks, not tests).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import run_spec


def timed(spec: SimSpec, workers: int, backend: str) -> tuple[float, list[Any]]:
    t0 = time.perf_counter()
    outcomes = run_spec(spec, workers, backend)
    return time.perf_counter() - t0, [o.result for o in outcomes]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="shooting-star")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2, help="compared against 1")
    ap.add_argument("--backend", default="local", choices=("local", "ray"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    spec = SimSpec(args.game, args.players, args.games, args.seed, args.bots)
    timed(SimSpec(args.game, args.players, 20, args.seed + 1, args.bots), 1, "local")  # warm up this process
    rounds = []
    for _ in range(args.repeat):
        t1, r1 = timed(spec, 1, "local")
        tn, rn = timed(spec, args.workers, args.backend)
        if r1 != rn:
            raise SystemExit("outcomes differ between 1 and N workers: the run is not reproducible")
        rounds.append({"t1_s": round(t1, 2), "tn_s": round(tn, 2), "speedup": round(t1 / tn, 3),
                       "games_per_s_1": round(args.games / t1, 1), "games_per_s_n": round(args.games / tn, 1)})
    out = {"game": args.game, "players": args.players, "games": args.games, "bots": args.bots,
           "workers": args.workers, "backend": args.backend, "cpus": os.cpu_count(),
           "load_avg_before_last_round": os.getloadavg()[0], "python": platform.python_version(),
           "rounds": rounds, "best_speedup": max(r["speedup"] for r in rounds),
           "worst_speedup": min(r["speedup"] for r in rounds)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.game} {args.players}p, {args.games} games of {args.bots}, 1 vs {args.workers} workers "
              f"({args.backend}), {os.cpu_count()} CPUs")
        for i, r in enumerate(rounds, 1):
            print(f"  round {i}: {r['t1_s']} s vs {r['tn_s']} s -> {r['speedup']}x "
                  f"({r['games_per_s_1']} vs {r['games_per_s_n']} games/s)")
        print(f"  best {out['best_speedup']}x, worst {out['worst_speedup']}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
