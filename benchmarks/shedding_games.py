"""Blast Off! random-playout speed next to RLCard's UNO and OpenSpiel's crazy_eights, in one run.

Every engine is driven the same way: uniform random legal actions drawn by one ``random.Random`` per run
(the same chooser for every engine), from the start to the end of a game, with chance outcomes sampled
where the engine exposes them (OpenSpiel). Only player decisions are counted.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/shedding_games.py --seconds 10

RLCard and OpenSpiel are optional: a missing one is reported, not faked.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

Runner = Callable[[float], tuple[int, int, float]]


def clock() -> float:
    """The benchmarks' clock: wall time, or with ``use_cpu_clock()`` this process's CPU time (on a shared
    machine other programs then slow every engine alike, and the ratios hold)."""
    return _CLOCK[0]()


_CLOCK: list[Callable[[], float]] = [time.perf_counter]


def use_cpu_clock() -> None:
    _CLOCK[0] = time.process_time


def bench_cosmodeck(players: int, options: dict[str, Any]) -> Runner:
    import cosmodeck

    game = cosmodeck.load_game("blast-off", **options)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = random.Random(0)  # the anchors' chooser (each engine pays the same for its random choices)
        games = decisions = 0
        t0 = clock()
        while clock() - t0 < seconds:
            state = game.new_game(players=players, seed=games)
            while not state.is_over:
                to_act = state.to_act
                if not to_act:
                    deadline = state.next_deadline()
                    assert deadline is not None
                    state.advance(deadline)
                    continue
                seat = min(to_act)
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
                decisions += 1
            games += 1
        return games, decisions, clock() - t0

    return run


def bench_rlcard_uno(players: int) -> Runner:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = random.Random(0)
        games = decisions = 0
        t0 = clock()
        while clock() - t0 < seconds:
            game.np_random = np.random.RandomState(games)
            game.init_game()
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[rng.randrange(len(legal))])
                decisions += 1
            games += 1
        return games, decisions, clock() - t0

    return run


def bench_openspiel_crazy_eights(players: int) -> Runner:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})

    def run(seconds: float) -> tuple[int, int, float]:
        rng = random.Random(0)
        games = decisions = 0
        t0 = clock()
        while clock() - t0 < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            games += 1
        return games, decisions, clock() - t0

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                        help="a Blast Off option (default: the turn-based abstraction of BLO-11)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cpu", action="store_true",
                        help="time in CPU seconds of this process, not wall seconds (a shared or busy machine)")
    args = parser.parse_args()
    if args.cpu:
        use_cpu_clock()
    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
    import cosmodeck

    timing_opts = {o.name for o in cosmodeck.load_game("blast-off").option_specs}
    if "timing" in timing_opts and "timing" not in options:
        options["timing"] = "steps"
    engines: dict[str, Callable[[], Runner]] = {
        "cosmodeck blast-off": lambda: bench_cosmodeck(args.players, options),
        "cosmodeck blast-off, reference rules (fast=False)": lambda: bench_cosmodeck(
            args.players, {**options, "fast": False}),
        "RLCard uno (raw game)": lambda: bench_rlcard_uno(args.players),
        "OpenSpiel crazy_eights": lambda: bench_openspiel_crazy_eights(args.players),
    }
    rows: list[dict[str, Any]] = []
    for name, make in engines.items():
        try:
            runner = make()
        except ImportError as e:
            rows.append({"engine": name, "error": f"not installed: {e}"})
            continue
        games, decisions, elapsed = runner(args.seconds)
        rows.append({"engine": name, "games": games, "decisions": decisions,
                     "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed,
                     "mean_length": decisions / max(1, games)})
    base = rows[0].get("decisions_per_s")
    for r in rows:
        if base and r.get("decisions_per_s"):
            r["cosmodeck_ratio"] = base / r["decisions_per_s"]
    if args.json:
        print(json.dumps({"players": args.players, "options": options, "rows": rows}))
        return
    print(f"{args.players} players, {args.seconds:g} s each, options {options}")
    for r in rows:
        if "error" in r:
            print(f"  {r['engine']:<50} {r['error']}")
        else:
            print(f"  {r['engine']:<50} {r['games_per_s']:>9.1f} games/s {r['decisions_per_s']:>11.1f} decisions/s "
                  f"(mean {r['mean_length']:.1f} decisions/game; cosmodeck is {r.get('cosmodeck_ratio', 1):.2f}x)")


if __name__ == "__main__":
    main()
