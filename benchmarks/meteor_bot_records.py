"""Digests of seeded Meteor bot games, to compare two trees (issue 15: the bots' speed-up changes no decision).

    PYTHONPATH=<tree A>/src python benchmarks/meteor_bot_records.py --games 500 --bots team > a.txt
    PYTHONPATH=<tree B>/src python benchmarks/meteor_bot_records.py --games 500 --bots team > b.txt
    diff a.txt b.txt        # nothing: the same records (every action, time, seat) and results

Game ``i`` is played as the simulator plays it (``sim.runner.play_game``, ``bot_rng(seed)``) with seed
``derive_seed(--seed, i)`` and ``1 + i % 5`` players when ``--players 0`` (else ``--players``). One line
per game (its record's SHA-256, decisions, won or not), then a digest of all the lines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--players", type=int, default=4, help="0: 1 to 5 players in turn")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON")
    p.add_argument("--views", action="store_true",
                   help="also fold every seat's and a spectator's view and every seat's legal list, after every "
                        "change of the state, into each game's digest (an engine speed-up changes none)")
    a = p.parse_args()
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.engine.rng import derive_seed
    from cosmodeck.sim.runner import bot_rng, play_game

    options: dict[str, Any] = {k: json.loads(v) for k, _, v in (o.partition("=") for o in a.option)}
    game = load_game("meteor", **options)
    total = hashlib.sha256()
    wins = 0
    t0 = time.process_time()
    for i in range(a.games):
        seed = derive_seed(a.seed, i)
        players = a.players or 1 + i % 5
        state = game.new_game(players=players, seed=seed)
        seen = hashlib.sha256()

        def sink(seat: int | None, events: list[Any], state: Any = state, seen: Any = seen) -> None:
            for s in [*range(state.players), None]:
                seen.update(json.dumps(state.view(s), sort_keys=True, default=str).encode())
                if s is not None:
                    seen.update(" ".join(map(str, state.legal_actions(s))).encode())

        decisions = play_game(state, make_bots("meteor", a.bots, players, game), bot_rng(seed), 100_000,
                              sink if a.views else None)
        record = json.dumps(state.record(), sort_keys=True, default=str) + (seen.hexdigest() if a.views else "")
        result = state.result
        assert result is not None
        wins += bool(result.team_win)
        digest = hashlib.sha256(record.encode()).hexdigest()[:16]
        line = f"{i} {players}p {digest} {decisions} {int(bool(result.team_win))}"
        total.update(line.encode())
        print(line)
    print(f"games {a.games} bots {a.bots} options {options} wins {wins} digest {total.hexdigest()}")
    print(f"# cpu {time.process_time() - t0:.1f}s")  # not part of the comparison (strip '#' lines)


if __name__ == "__main__":
    main()
