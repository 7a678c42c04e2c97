"""Reproducible experiments behind the balance findings and the speed figures.

    python -m cosmodeck.sim.experiments meteor-matrix [--games 200] [--workers 2] [--bots heuristic]
    python -m cosmodeck.sim.experiments speedup [--games 4000] [--game shooting-star] [--bots random]
    python -m cosmodeck.sim.experiments ismcts-speed [--iters 300]

They print JSON. Outcome numbers depend only on the seed; times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import simulate


def meteor_matrix(games: int, seed: int, workers: int, bots: str,
                  players: tuple[int, ...] = (1, 2, 3, 4, 5),
                  difficulties: tuple[str, ...] = ("standard", "advanced", "expert")) -> list[dict[str, Any]]:
    """Team win rate (Wilson 95%) per player count and difficulty, with the zone and cause of each loss."""
    rows = []
    for diff in difficulties:
        for n in players:
            s = simulate(SimSpec("meteor", n, games, seed=seed, bots=bots, options={"difficulty": diff}), workers)
            rows.append({"difficulty": diff, "players": n, "games": games, "team_win_rate": s["team_win_rate"],
                         "ci95": s["team_win_ci95"], "loss_causes": s["loss_causes"], "loss_zones": s["loss_zones"],
                         "mean_game_time_s": s["mean_game_time_s"], "elapsed_s": s["elapsed_s"]})
    return rows


def speedup(game: str, players: int, games: int, bots: str, seed: int = 0, repeats: int = 3) -> dict[str, Any]:
    """Wall time of the same run on 1 and on 2 local workers, alternated ``repeats`` times.

    The best (smallest) time of each is the figure least disturbed by other load on the machine;
    the outcomes of every run must be identical.
    """
    import os

    from cosmodeck.sim.simulate import run_spec

    spec = SimSpec(game, players, games, seed=seed, bots=bots)
    times: dict[int, list[float]] = {1: [], 2: []}
    results = []
    load = []
    for _ in range(repeats):
        for w in (1, 2):
            load.append(os.getloadavg()[0])
            t0 = time.perf_counter()
            results.append(run_spec(spec, workers=w))
            times[w].append(round(time.perf_counter() - t0, 2))
    best1, best2 = min(times[1]), min(times[2])
    return {"game": game, "players": players, "games": games, "bots": bots, "one_worker_s": times[1],
            "two_workers_s": times[2], "speedup_best": round(best1 / best2, 3),
            "identical": all(r == results[0] for r in results), "load_average_before_runs": load}


def ismcts_speed(iters: int, players: int = 2, decisions: int = 14, seed: int = 3) -> dict[str, Any]:
    """Iterations per second of the ISMCTS bot over the decisions of one Shooting Star game."""
    import cosmodeck
    from cosmodeck.bots.ismcts import ISMCTSBot
    from cosmodeck.bots.registry import make_bot
    from cosmodeck.engine.rng import Rng

    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=players, seed=seed)
    bot = make_bot("shooting-star", f"ismcts:iters={iters}", game)
    assert isinstance(bot, ISMCTSBot)
    rng = Rng(seed)
    per_decision: list[float] = []
    while not st.is_over and len(per_decision) < decisions:
        seat = min(st.to_act)
        t = time.perf_counter()
        a = bot.act(st.view(seat), st.legal_actions(seat), rng)
        per_decision.append(round(bot.last_iterations / (time.perf_counter() - t), 1))
        st.apply(seat, a)
    return {"iters": iters, "players": players, "iterations_per_s": round(bot.total_iterations / bot.total_seconds, 1),
            "per_decision": per_decision}


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m cosmodeck.sim.experiments")
    sub = p.add_subparsers(dest="what", required=True)
    m = sub.add_parser("meteor-matrix")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--workers", type=int, default=1)
    m.add_argument("--bots", default="heuristic")
    s = sub.add_parser("speedup")
    s.add_argument("--game", default="shooting-star")
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--games", type=int, default=4000)
    s.add_argument("--bots", default="random")
    s.add_argument("--repeats", type=int, default=3)
    i = sub.add_parser("ismcts-speed")
    i.add_argument("--iters", type=int, default=300)
    i.add_argument("--players", type=int, default=2)
    args = p.parse_args()
    if args.what == "meteor-matrix":
        out: Any = meteor_matrix(args.games, args.seed, args.workers, args.bots)
    elif args.what == "speedup":
        out = speedup(args.game, args.players, args.games, args.bots, repeats=args.repeats)
    else:
        out = ismcts_speed(args.iters, args.players)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
