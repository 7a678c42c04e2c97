"""Blast Off! engine decisions per CPU second: seeded uniform random playouts (steps timing), no simulator.

Used to compare two checkouts side by side, alternating runs (the lead's rule on a shared machine):
``PYTHONPATH=A/src python benchmarks/blast_off_ab.py 2`` then the same with ``B/src``; quote the ratio.
"""

from __future__ import annotations

import sys
import time

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng


def run(players: int, seconds: float = 4.0) -> float:
    game = load_game("blast-off", timing="steps")
    rng = Rng(5)
    decisions = seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        st = game.new_game(players, seed)
        seed += 1
        while not st.is_over:
            acting = sorted(st.to_act)
            seat = acting[rng.randbelow(len(acting))]
            acts = st.legal_actions(seat)
            if not acts:
                break
            st.apply(seat, acts[rng.randbelow(len(acts))])
            decisions += 1
    return decisions / (time.process_time() - t0)


if __name__ == "__main__":
    print(f"{run(int(sys.argv[1]) if len(sys.argv) > 1 else 2):.0f}")
