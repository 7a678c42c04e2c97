"""Every speed figure of issue 15's "Done when", side by side with the anchors, in one run; prints the table.

    .venv/bin/pip install -e '.[bench]'      # RLCard and OpenSpiel (the anchors)
    .venv/bin/python benchmarks/speed_table.py --seconds 5 [--json] [--cpu] [--sim-only]

Rows (each measured for ``--seconds``, one after the other in this process, so ratios compare engines
under the same machine load; a busy machine lowers every figure, the ratios much less; ``--cpu`` times
CPU seconds of this process instead of wall seconds, so that other programs on a shared machine change
the figures little; every engine, anchors included, runs in this process):

- Blast Off! random playouts at 2 and 4 players (``timing=steps``, BLO-11), decisions/s, next to RLCard's
  raw UNO game and OpenSpiel's crazy_eights, every engine driven the same way: a Python loop through its
  public state API with uniform random legal actions (``shedding_games.py``).
- Shooting Star 4p random playouts, games/s (and next to RLCard UNO 4p games/s), on the fast path and on the
  reference rules (``load_game(..., fast=False)``), with the ratio.
- Each game at 4 players in the simulator (``sim.batch.run_one``: bots, views, observers), random bots and
  heuristic bots, decisions/s and games/s; the heuristic/random ratio. ``--sim-only`` prints only these
  (no anchors needed; e.g. to compare two trees by ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shedding_games import (
    bench_cosmodeck,
    bench_openspiel_crazy_eights,
    bench_rlcard_uno,
    clock,
    use_cpu_clock,
)

STEPS = {"timing": "steps"}


def _rate(run: Any, seconds: float) -> dict[str, float]:
    games, decisions, elapsed = run(seconds)
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}


def _sim(game_id: str, players: int, bots: str, seconds: float, options: dict[str, Any]) -> dict[str, float]:
    from cosmodeck.sim.batch import SimSpec, _game_for, run_one

    spec = SimSpec(game=game_id, players=players, games=1_000_000, seed=11, bots=bots, options=options)
    game = _game_for(spec)
    run_one(spec, game, 0)  # warm caches and imports outside the clock
    games = decisions = 0
    t0 = clock()
    while clock() - t0 < seconds:
        decisions += run_one(spec, game, games).decisions
        games += 1
    el = clock() - t0
    return {"games_per_s": games / el, "decisions_per_s": decisions / el}


def _anchor(make: Any, seconds: float) -> dict[str, float] | str:
    try:
        return _rate(make(), seconds)
    except ImportError as e:
        return f"not installed ({e.name})"


def measure(seconds: float, sim_only: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def row(figure: str, value: float | None, unit: str, target: str, ok: bool | None) -> None:
        rows.append({"figure": figure, "value": value, "unit": unit, "target": target, "met": ok})

    if not sim_only:
        _engines(seconds, row)
    _simulations(seconds, row)
    return rows


def _engines(seconds: float, row: Any) -> None:
    for n in (2, 4):
        mine = _rate(bench_cosmodeck(n, dict(STEPS)), seconds)["decisions_per_s"]
        uno = _anchor(lambda n=n: bench_rlcard_uno(n), seconds)
        c8 = _anchor(lambda n=n: bench_openspiel_crazy_eights(n), seconds)
        row(f"Blast Off! {n}p random playouts (steps)", mine, "decisions/s", "", None)
        for name, other, want in (("RLCard uno raw", uno, 3.0), ("OpenSpiel crazy_eights", c8, 1.0)):
            if isinstance(other, str):
                row(f"  {name} {n}p", None, other, f">= {want}x", None)
                continue
            ratio = mine / other["decisions_per_s"]
            row(f"  {name} {n}p", other["decisions_per_s"], "decisions/s", f"ratio {ratio:.2f}x (>= {want}x)",
                ratio >= want)
    shs = _rate(_playouts("shooting-star", 4), seconds)["games_per_s"]
    uno4 = _anchor(lambda: bench_rlcard_uno(4), seconds)
    note = ""
    ok = shs >= 1000
    if not isinstance(uno4, str):
        note = f"; {shs / uno4['games_per_s']:.2f}x RLCard uno 4p games/s {uno4['games_per_s']:,.0f} (>= 0.7x)"
        ok = ok and shs / uno4["games_per_s"] >= 0.7
    row("Shooting Star 4p random playouts", shs, "games/s", ">= 1,000" + note, ok)
    ref = _rate(_playouts("shooting-star", 4, fast=False), seconds)["games_per_s"]
    row("  same, reference rules (fast=False)", ref, "games/s", f"fast path {shs / ref:.2f}x the reference", None)


def _simulations(seconds: float, row: Any) -> None:
    for game_id, opts in (("blast-off", STEPS), ("shooting-star", {}), ("meteor", {})):
        rnd = _sim(game_id, 4, "random", seconds, opts)
        heu = _sim(game_id, 4, "heuristic", seconds, opts)
        ratio = heu["decisions_per_s"] / rnd["decisions_per_s"]
        row(f"{game_id} 4p simulation, random bots", rnd["decisions_per_s"], "decisions/s",
            f"{rnd['games_per_s']:,.1f} games/s", None)
        row(f"{game_id} 4p simulation, heuristic bots", heu["decisions_per_s"], "decisions/s",
            f"{heu['games_per_s']:,.1f} games/s; {ratio:.3f}x random (>= 0.5x)", ratio >= 0.5)
        if game_id == "meteor":
            row("meteor 4p heuristic games/s", heu["games_per_s"], "games/s", ">= 100", heu["games_per_s"] >= 100)


def _playouts(game_id: str, players: int, fast: bool = True) -> Any:
    """Random playouts through the public State API (the loop of ``shedding_games.bench_cosmodeck``);
    ``fast=False``: the reference rules only (docs/ENGINE.md, "Fast path")."""
    import random

    import cosmodeck

    game = cosmodeck.load_game(game_id, fast=fast)

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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--cpu", action="store_true",
                   help="time in CPU seconds of this process, not wall seconds (a shared or busy machine)")
    p.add_argument("--sim-only", action="store_true",
                   help="only the simulator rows (random and heuristic bots of each game at 4 players)")
    a = p.parse_args()
    if a.cpu:
        use_cpu_clock()
    t0 = clock()
    rows = measure(a.seconds, a.sim_only)
    if a.json:
        print(json.dumps({"seconds": a.seconds, "rows": rows}))
        return
    print(f"issue 15 speed figures, {a.seconds:g} {'CPU ' if a.cpu else ''}s per measurement, one process, one run "
          f"({clock() - t0:.0f} s in all)")
    for r in rows:
        value = "" if r["value"] is None else f"{r['value']:>12,.1f}"
        met = {True: "met", False: "NOT met", None: ""}[r["met"]]
        print(f"  {r['figure']:<44} {value:>12} {r['unit']:<12} {r['target']:<60} {met}")


if __name__ == "__main__":
    main()
