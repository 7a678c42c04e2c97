"""Blast Off! engine decisions per CPU second: seeded uniform random playouts (steps timing), no simulator.

``python benchmarks/blast_off_ab.py [PLAYERS] [ROUNDS] [SECONDS]`` times the fast path (``load_game(...)``,
the default) and the reference rules (``fast=False``) alternately in one process, ``ROUNDS`` times each,
and prints decisions per CPU second and the ratio of every round (the lead's rule on a shared machine: A/B
interleaved in one run; quote the ratios). To compare two checkouts instead, run it with
``PYTHONPATH=A/src`` and then ``B/src`` and compare the ``fast`` figures.
"""

from __future__ import annotations

import sys
import time

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng


def run(players: int, seconds: float = 4.0, fast: bool = True) -> float:
    game = load_game("blast-off", fast=fast, timing="steps")
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
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    for r in range(rounds):
        quick = run(players, seconds, fast=True)
        ref = run(players, seconds, fast=False)
        print(f"round {r + 1}: {players}p fast {quick:,.0f}  reference {ref:,.0f}  decisions/s  "
              f"({quick / ref:.2f}x)", flush=True)
