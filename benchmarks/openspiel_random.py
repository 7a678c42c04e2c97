"""Random games through OpenSpiel's state API on cosmodeck's OpenSpiel games: returns checked, games/s.

    .venv/bin/python benchmarks/openspiel_random.py --games 1000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np
import pyspiel

import cosmodeck.rl.openspiel  # noqa: F401  (registers the games)


def outcome(name: str, returns: list[float], finished: bool) -> str:
    if not finished:
        assert set(returns) == {0.0}, returns
        return "cut at max_steps"
    if name == "cosmodeck_meteor":
        assert len(set(returns)) == 1, returns
        return "team won" if returns[0] > 0 else "team lost"
    ones, zeros = returns.count(1.0), returns.count(0.0)
    assert (ones == 1 and zeros == 0) or (ones == 0 and zeros >= 2), returns
    return "sole win" if ones else "shared win"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    for name in ("cosmodeck_shooting_star", "cosmodeck_blast_off", "cosmodeck_meteor"):
        game = pyspiel.load_game(name, {"players": a.players})
        rng = np.random.default_rng(a.seed)
        tally: Counter[str] = Counter()
        t0 = time.perf_counter()
        for _ in range(a.games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(int(rng.integers(0, game.max_chance_outcomes())))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            tally[outcome(name, state.returns(), state.table.over)] += 1
        dt = time.perf_counter() - t0
        print(f"{name} {a.players}p: {a.games} games in {dt:.0f} s ({a.games / dt:.1f} games/s): "
              + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
