"""Digests of seeded bot games of any game, to compare two trees (a speed-up must change no decision).

    PYTHONPATH=<tree A>/src python benchmarks/bot_records.py --game blast-off --games 500 > a.txt
    PYTHONPATH=<tree B>/src python benchmarks/bot_records.py --game blast-off --games 500 > b.txt
    diff <(grep -v '^#' a.txt) <(grep -v '^#' b.txt)      # nothing: the same records and results

Game ``i`` is played as the simulator plays it (``sim.runner.play_game``, ``bot_rng(seed)``) with seed
``derive_seed(--seed, i)`` and ``2 + i % 4`` players when ``--players 0`` (else ``--players``; the game's
own limits apply). One line per game (its record's SHA-256, decisions), then a digest of all the lines.
``benchmarks/meteor_bot_records.py`` is the Meteor variant that also counts team wins.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--players", type=int, default=4, help="0: 2 to 5 players in turn")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON")
    a = p.parse_args()
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.engine.rng import derive_seed
    from cosmodeck.sim.runner import bot_rng, play_game

    options: dict[str, Any] = {k: json.loads(v) for k, _, v in (o.partition("=") for o in a.option)}
    game = load_game(a.game, **options)
    total = hashlib.sha256()
    t0 = time.process_time()
    for i in range(a.games):
        seed = derive_seed(a.seed, i)
        players = a.players or 2 + i % 4
        state = game.new_game(players=players, seed=seed)
        decisions = play_game(state, make_bots(a.game, a.bots, players, game), bot_rng(seed), 100_000)
        record = json.dumps(state.record(), sort_keys=True, default=str)
        digest = hashlib.sha256(record.encode()).hexdigest()[:16]
        line = f"{i} {players}p {digest} {decisions}"
        total.update(line.encode())
        print(line)
    print(f"games {a.games} game {a.game} bots {a.bots} options {options} digest {total.hexdigest()}")
    print(f"# cpu {time.process_time() - t0:.1f}s")  # not part of the comparison (strip '#' lines)


if __name__ == "__main__":
    main()
