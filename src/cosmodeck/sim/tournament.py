"""Round-robin tournaments between bots, rated with TrueSkill.

Every group of ``players`` distinct bots plays ``games`` games in each seating (the seats
rotated), all seatings of a group on the same seeds (a duplicate format: each bot plays every
deal from every seat). Ratings are updated game by game in a fixed order, so they depend only
on the seed. Intervals are ``mu +- 1.96 sigma``.
"""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any

from cosmodeck.engine.options import TextInput
from cosmodeck.engine.rng import derive_seed
from cosmodeck.sim.backends import Progress, chunks, run_tasks
from cosmodeck.sim.batch import MAX_DECISIONS, SimSpec
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.simulate import check_spec
from cosmodeck.sim.stats import wilson


def _tiers(result: dict[str, Any], players: int) -> list[int]:
    tier = [len(result["ranking"])] * players
    for i, t in enumerate(result["ranking"]):
        for s in t:
            tier[s] = i
    return tier


def tournament(game: str, bots: list[str], players: int = 2, games: int = 50, seed: int = 0,
               data: TextInput | None = None, options: dict[str, Any] | None = None, workers: int = 1,
               backend: str = "local", address: str | None = None,
               progress: Progress | None = None, max_decisions: int = MAX_DECISIONS) -> dict[str, Any]:
    import trueskill  # type: ignore[import-untyped]

    if len(set(bots)) != len(bots):
        raise ValueError("tournament: bot specs must be distinct")
    if len(bots) < players:
        raise ValueError(f"tournament: {players}-player games need at least {players} bots")
    groups = list(combinations(range(len(bots)), players))
    specs: list[tuple[SimSpec, tuple[int, ...]]] = []
    for g, group in enumerate(groups):
        for r in range(players):
            seating = group[r:] + group[:r]
            specs.append((SimSpec(game, players, games, derive_seed(seed, g), ",".join(bots[i] for i in seating),
                                  data, dict(options or {}), max_decisions), seating))
    info = specs[0][0].load().info
    if info.cooperative:
        raise ValueError(f"tournament: {info.name} is cooperative; compare bots with simulate instead")
    for spec, _ in specs:
        check_spec(spec)
    t0 = time.perf_counter()
    parts = chunks(games, workers, max_size=50)
    tasks = [(spec, lo, hi) for lo, hi in parts for spec, _ in specs]
    batches = run_tasks(tasks, workers, backend, address, progress)
    elapsed = time.perf_counter() - t0
    per_spec: list[list[GameOutcome]] = [[] for _ in specs]
    for i, bt in enumerate(batches):
        per_spec[i % len(specs)].extend(bt)

    env = trueskill.TrueSkill(draw_probability=0.02)
    ratings = [env.create_rating() for _ in bots]
    played = [0] * len(bots)
    wins = [0.0] * len(bots)
    # head to head: (i, j) -> [score of i, games]
    h2h: dict[tuple[int, int], list[float]] = {(i, j): [0.0, 0.0] for i in range(len(bots))
                                               for j in range(i + 1, len(bots))}
    decisions = 0
    for k in range(games):  # interleave seatings so that no bot is rated on one seat first
        for (_spec, seating), outs in zip(specs, per_spec, strict=True):
            o = outs[k]
            decisions += o.decisions
            tier = _tiers(o.result, players)
            winners = o.result["winners"]
            groups_r = [(ratings[b],) for b in seating]
            new = env.rate(groups_r, ranks=tier)
            for seat, b in enumerate(seating):
                ratings[b] = new[seat][0]
                played[b] += 1
                if seat in winners:
                    wins[b] += 1.0 / len(winners)
            for sa in range(players):
                for sb in range(players):
                    a, b = seating[sa], seating[sb]
                    if a < b:
                        h = h2h[(a, b)]
                        h[0] += 1.0 if tier[sa] < tier[sb] else 0.5 if tier[sa] == tier[sb] else 0.0
                        h[1] += 1
    table = []
    for i, name in enumerate(bots):
        r = ratings[i]
        lo, hi = wilson(round(wins[i]), played[i])
        table.append({"bot": name, "mu": r.mu, "sigma": r.sigma, "ci95": [r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma],
                      "conservative": r.mu - 3 * r.sigma, "games": played[i], "wins": wins[i],
                      "win_rate": wins[i] / played[i] if played[i] else 0.0, "win_ci95": [lo, hi]})
    table.sort(key=lambda row: -row["mu"])
    pairs = []
    for (i, j), (score, n) in sorted(h2h.items()):
        if n:
            lo, hi = wilson(round(score), int(n))
            pairs.append({"a": bots[i], "b": bots[j], "games": int(n), "a_score": score / n, "ci95": [lo, hi]})
    total = sum(len(x) for x in per_spec)
    return {"game": game, "players": players, "bots": bots, "games": total, "games_per_seating": games,
            "seed": seed, "elapsed_s": round(elapsed, 3), "decisions": decisions,
            "ratings": table, "pairs": pairs}
