"""Shooting Star random playouts on the compiled fast path, the Python fast path and the reference rules,
interleaved; prints the ratios.

    .venv/bin/python benchmarks/fast_vs_reference.py [--players 4] [--games 200] [--rounds 5] [--rlcard 2]

Each round plays the same ``--games`` seeded games (the same random choices) on the three engines, one after
the other in this process, and times them in CPU seconds of this process (``time.process_time``), so other
programs on a shared machine change the figures little; the medians of the per-round ratios are the figures
to quote (docs/ENGINE.md, "Fast path"). The compiled path is ``fast.pyx`` (``load_game``'s default when the
extension is built; without it the row says so and the compiled column is the Python fast path); the Python
fast path is ``fast_py.py`` (the game's ``use_compiled`` set to false); the reference is ``fast=False``.
``--rlcard SECONDS`` adds, to each round, RLCard's raw UNO game at the same player count for that many CPU
seconds (``shedding_games.bench_rlcard_uno``, as ``speed_table.py``'s anchor; needs ``.[bench]``), and the
ratios of the three engines' games/s to it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cosmodeck
from cosmodeck.engine import Rng


def play(game: Any, players: int, games: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``games`` seeded random playouts."""
    decisions = 0
    t0 = time.process_time()
    for seed in range(games):
        state = game.new_game(players=players, seed=seed)
        rng = Rng(seed + 1)
        while not state.is_over:
            seat = min(state.to_act)
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            decisions += 1
    return decisions, time.process_time() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--rlcard", type=float, default=0.0, metavar="SECONDS",
                   help="also time RLCard's raw UNO game at the same player count in each round")
    a = p.parse_args()
    uno = None
    if a.rlcard > 0:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from shedding_games import bench_rlcard_uno, use_cpu_clock

        use_cpu_clock()
        uno = bench_rlcard_uno(a.players)
        uno(0.2)  # warm up outside the measured rounds
    fast = cosmodeck.load_game("shooting-star")
    python = cosmodeck.load_game("shooting-star")
    python.use_compiled = False
    ref = cosmodeck.load_game("shooting-star", fast=False)
    compiled = type(fast.new_game(players=a.players, seed=0)).__name__ == "FastShootingStarState"
    if not compiled:
        print("the compiled extension is not built: the first column is the Python fast path")
    for game in (fast, python, ref):
        play(game, a.players, 10)  # warm the caches and imports outside the clock
    vs_ref, vs_py, vs_uno = [], [], []
    for r in range(a.rounds):
        dc, tc = play(fast, a.players, a.games)
        dp, tp = play(python, a.players, a.games)
        dr, tr = play(ref, a.players, a.games)
        assert dc == dp == dr  # the same games
        vs_ref.append(tr / tc)
        vs_py.append(tp / tc)
        print(f"round {r + 1}: compiled {a.games / tc:8,.0f}   Python fast path {a.games / tp:8,.0f}   "
              f"reference {a.games / tr:8,.0f} games/s (CPU time)   compiled/Python {vs_py[-1]:.2f}x   "
              f"compiled/reference {vs_ref[-1]:.2f}x   Python/reference {tr / tp:.2f}x")
        if uno is not None:
            ug, _ud, ut = uno(a.rlcard)
            rate = ug / ut
            vs_uno.append(a.games / tc / rate)
            print(f"         RLCard raw UNO {a.players}p {rate:8,.0f} games/s (CPU time)   "
                  f"compiled/UNO {vs_uno[-1]:.2f}x   Python/UNO {a.games / tp / rate:.2f}x   "
                  f"reference/UNO {a.games / tr / rate:.2f}x")
    print(f"Shooting Star {a.players}p random playouts (median of {a.rounds} rounds of {a.games} games): compiled "
          f"fast path {statistics.median(vs_py):.2f}x the Python fast path, {statistics.median(vs_ref):.2f}x the "
          f"reference" + (f", {statistics.median(vs_uno):.2f}x RLCard's raw UNO" if vs_uno else ""))


if __name__ == "__main__":
    main()
