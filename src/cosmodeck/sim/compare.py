"""A/B: run two variants (card data or options) on the same seeds and test every difference.

Each metric gets A's value, B's value, the difference B - A with a 95% interval (Newcombe
for proportions, Welch for means) and whether the interval excludes zero. With many metrics
a few intervals miss zero by chance (5% each), so ``significant_holm`` also applies Holm's
correction across all of them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cosmodeck.sim.backends import Progress, chunks, run_tasks
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.simulate import check_spec
from cosmodeck.sim.stats import Z95, mean, newcombe_diff, variance, welch_diff
from cosmodeck.sim.summary import summarise

Metric = tuple[str, str, Any, Any]  # name, kind ("prop" | "mean"), A data, B data


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0))


def _prop(name: str, a: tuple[int, int], b: tuple[int, int]) -> dict[str, Any]:
    (xa, na), (xb, nb) = a, b
    pa = xa / na if na else 0.0
    pb = xb / nb if nb else 0.0
    lo, hi = newcombe_diff(xb, nb, xa, na)
    pool = (xa + xb) / (na + nb) if na + nb else 0.0
    se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb)) if na and nb else 0.0
    p = _p_two_sided((pb - pa) / se) if se > 0 else (1.0 if pa == pb else 0.0)
    return {"metric": name, "kind": "proportion", "a": pa, "b": pb, "diff": pb - pa, "ci95": [lo, hi],
            "n_a": na, "n_b": nb, "p_value": p, "significant": lo > 0 or hi < 0}


def _mean(name: str, a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    lo, hi = welch_diff(b, a)
    se = math.sqrt(variance(a) / len(a) + variance(b) / len(b)) if a and b else 0.0
    d = mean(b) - mean(a)
    p = _p_two_sided(d / se) if se > 0 else (1.0 if d == 0 else 0.0)
    if se == 0:
        lo = hi = d
    return {"metric": name, "kind": "mean", "a": mean(a), "b": mean(b), "diff": d, "ci95": [lo, hi],
            "n_a": len(a), "n_b": len(b), "p_value": p, "significant": lo > 0 or hi < 0}


def _holm(rows: list[dict[str, Any]], alpha: float = 0.05) -> None:
    order = sorted(range(len(rows)), key=lambda i: rows[i]["p_value"])
    m = len(rows)
    still = True
    for rank, i in enumerate(order):
        still = still and rows[i]["p_value"] <= alpha / (m - rank)
        rows[i]["significant_holm"] = still


def _counts(outcomes: Sequence[GameOutcome], players: int, cooperative: bool) -> dict[str, Any]:
    """Successes/trials for proportions and value lists for means, per metric name."""
    n = len(outcomes)
    props: dict[str, tuple[int, int]] = {}
    means: dict[str, list[float]] = {"length (decisions)": [float(o.decisions) for o in outcomes]}
    if any(o.game_time for o in outcomes):
        means["game time (s)"] = [o.game_time for o in outcomes]
    if cooperative:
        props["team win rate"] = (sum(1 for o in outcomes if o.result.get("team_win")), n)
        causes: dict[str, int] = {}
        for o in outcomes:
            if not o.result.get("team_win"):
                key = f"loss: {o.result['details'].get('cause')} in zone {o.result['details'].get('zone')}"
                causes[key] = causes.get(key, 0) + 1
        for k, v in causes.items():
            props[k] = (v, n)
    else:
        for s in range(players):
            props[f"win rate seat {s}"] = (sum(1 for o in outcomes if s in o.result["winners"]), n)
        firsts = [o for o in outcomes if o.metrics.get("first") is not None]
        props["first-mover win rate"] = (sum(1 for o in firsts if o.metrics["first"] in o.result["winners"]),
                                         len(firsts))
        props["shared win rate"] = (sum(1 for o in outcomes if len(o.result["winners"]) > 1), n)
    dealt: dict[str, list[int]] = {}
    for o in outcomes:
        for sp in o.metrics.get("score_parts", ()):
            for part in ("cards", "moons", "missions", "debris_bonus", "total"):
                means.setdefault(f"score: {part}", []).append(float(sp[part]))
        for mid, _seat, pts, most in o.metrics.get("missions", ()):
            dealt.setdefault(mid, [0, 0])
            dealt[mid][0] += pts >= most
            dealt[mid][1] += 1
        if "missions_revealed" in o.metrics:
            means.setdefault("missions revealed", []).append(float(o.metrics["missions_revealed"]))
    for mid, (done, d) in sorted(dealt.items()):
        props[f"mission {mid} completed"] = (done, d)
    return {"props": props, "means": means}


def differences(a: Sequence[GameOutcome], b: Sequence[GameOutcome], players: int,
                cooperative: bool) -> list[dict[str, Any]]:
    ca, cb = _counts(a, players, cooperative), _counts(b, players, cooperative)
    rows = []
    for name in sorted(set(ca["props"]) | set(cb["props"])):
        rows.append(_prop(name, ca["props"].get(name, (0, len(a))), cb["props"].get(name, (0, len(b)))))
    for name in sorted(set(ca["means"]) & set(cb["means"])):
        rows.append(_mean(name, ca["means"][name], cb["means"][name]))
    _holm(rows)
    return rows


def compare(spec_a: SimSpec, spec_b: SimSpec, workers: int = 1, backend: str = "local",
            address: str | None = None, progress: Progress | None = None, labels: tuple[str, str] = ("A", "B"),
            keep: dict[str, list[GameOutcome]] | None = None) -> dict[str, Any]:
    """Run both variants on the same seeds; summaries of each and the list of differences."""
    if (spec_a.game, spec_a.players, spec_a.games, spec_a.seed) != (spec_b.game, spec_b.players, spec_b.games,
                                                                   spec_b.seed):
        raise ValueError("compare: A and B must share game, players, games and seed")
    game = check_spec(spec_a)
    check_spec(spec_b)
    t0 = time.perf_counter()
    parts = chunks(spec_a.games, workers)
    tasks = [(s, lo, hi) for lo, hi in parts for s in (spec_a, spec_b)]
    batches = run_tasks(tasks, workers, backend, address, progress)
    elapsed = time.perf_counter() - t0
    out_a = [o for i, bt in enumerate(batches) if i % 2 == 0 for o in bt]
    out_b = [o for i, bt in enumerate(batches) if i % 2 == 1 for o in bt]
    if keep is not None:
        keep["a"], keep["b"] = out_a, out_b
    coop = game.info.cooperative
    rows = differences(out_a, out_b, spec_a.players, coop)
    return {
        "game": spec_a.game, "players": spec_a.players, "games": spec_a.games, "seed": spec_a.seed,
        "bots": spec_a.bots if spec_a.bots == spec_b.bots else f"{spec_a.bots} | {spec_b.bots}",
        "elapsed_s": round(elapsed, 4), "z": Z95,
        "a": {"label": labels[0], "summary": summarise(spec_a, out_a, elapsed, coop, backend, workers)},
        "b": {"label": labels[1], "summary": summarise(spec_b, out_b, elapsed, coop, backend, workers)},
        "differences": rows,
        "significant": [r["metric"] for r in rows if r["significant"]],
    }


def with_variant(base: SimSpec, data: Any = None, options: dict[str, Any] | None = None) -> SimSpec:
    """``base`` with other card data and/or extra options."""
    return replace(base, data=data if data is not None else base.data,
                   options={**base.options, **(options or {})})
