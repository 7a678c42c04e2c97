"""Shooting Star random playouts on the fast path and on the reference rules, interleaved; prints the ratio.

    .venv/bin/python benchmarks/fast_vs_reference.py [--players 4] [--games 200] [--rounds 5]

Each round plays the same ``--games`` seeded games (the same random choices) on both engines, one after the
other in this process, and times them in CPU seconds of this process (``time.process_time``), so other
programs on a shared machine change the figures little; the median of the per-round ratios is the figure
to quote (docs/ENGINE.md, "Fast path").
"""

from __future__ import annotations

import argparse
import statistics
import time
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
    a = p.parse_args()
    fast = cosmodeck.load_game("shooting-star")
    ref = cosmodeck.load_game("shooting-star", fast=False)
    play(fast, a.players, 10)
    play(ref, a.players, 10)  # warm the caches and imports outside the clock
    ratios = []
    for r in range(a.rounds):
        df, tf = play(fast, a.players, a.games)
        dr, tr = play(ref, a.players, a.games)
        assert df == dr  # the same games
        ratios.append(tr / tf)
        print(f"round {r + 1}: fast {a.games / tf:8,.0f} games/s   reference {a.games / tr:8,.0f} games/s "
              f"(CPU time)   ratio {ratios[-1]:.2f}x")
    print(f"Shooting Star {a.players}p random playouts: fast path {statistics.median(ratios):.2f}x the reference "
          f"(median of {a.rounds} rounds of {a.games} games)")


if __name__ == "__main__":
    main()
