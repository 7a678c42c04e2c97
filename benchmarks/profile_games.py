"""Where the time goes: cProfile of seeded simulation games (the simulator's own loop, observers included).

    .venv/bin/python benchmarks/profile_games.py --game shooting-star --players 4 --bots heuristic --seconds 10 [--cpu]

Prints games/s and decisions/s of the profiled run (cProfile slows Python code ~1.5-2x) and the
functions with the most own time and cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from typing import Any


def run(game_id: str, players: int, bots: str, seconds: float, options: dict[str, Any],
        clock: Any = time.perf_counter) -> tuple[int, int, float]:
    from cosmodeck.sim.batch import SimSpec, _game_for, run_one

    spec = SimSpec(game=game_id, players=players, games=1_000_000, seed=7, bots=bots, options=options)
    game = _game_for(spec)
    games = decisions = 0
    t0 = clock()
    while clock() - t0 < seconds:
        decisions += run_one(spec, game, games).decisions
        games += 1
    return games, decisions, clock() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default="random")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--no-profile", action="store_true", help="measure only")
    p.add_argument("--cpu", action="store_true", help="seconds of CPU time of this process (a shared machine)")
    a = p.parse_args()
    clock = time.process_time if a.cpu else time.perf_counter
    import json

    options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in a.option)}
    if a.no_profile:
        g, d, el = run(a.game, a.players, a.bots, a.seconds, options, clock)
        print(f"{a.game} {a.players}p {a.bots}: {g / el:.1f} games/s {d / el:.0f} decisions/s")
        return
    prof = cProfile.Profile()
    prof.enable()
    g, d, el = run(a.game, a.players, a.bots, a.seconds, options, clock)
    prof.disable()
    print(f"{a.game} {a.players}p {a.bots} {options}: {g} games, {d} decisions in {el:.1f}s under cProfile: "
          f"{g / el:.1f} games/s {d / el:.0f} decisions/s")
    print_profile(prof, a.top)


def print_profile(prof: cProfile.Profile, top: int) -> None:
    """The ``top`` functions of a profile by own time, then by cumulative time."""
    for key in ("tottime", "cumulative"):
        s = io.StringIO()
        pstats.Stats(prof, stream=s).strip_dirs().sort_stats(key).print_stats(top)
        print(f"---- by {key}")
        print("\n".join(line for line in s.getvalue().splitlines()[6:] if line.strip()))


if __name__ == "__main__":
    main()
