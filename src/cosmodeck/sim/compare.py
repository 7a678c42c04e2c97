"""A/B: run two variants (card data or options) on the same seeds and test every difference.

Each metric gets A's value, B's value, the difference B - A with a 95% interval and whether
the interval excludes zero. Both variants play the same seeds, so when their units line up
(the same games, seats and missions dealt) the interval is the paired one, which removes the
luck of the deal; otherwise it is Newcombe's (proportions) or Welch's (means). With many metrics
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


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0))


def _row(name: str, kind: str, a: dict[Any, float], b: dict[Any, float]) -> dict[str, Any]:
    """One metric: paired when A and B have the same units (the same games, seats, missions dealt)."""
    va, vb = list(a.values()), list(b.values())
    ma, mb = mean(va), mean(vb)
    d = mb - ma
    paired = set(a) == set(b) and len(a) > 1
    if paired:
        diffs = [b[k] - a[k] for k in a]
        se = math.sqrt(variance(diffs) / len(diffs))
        lo, hi = d - Z95 * se, d + Z95 * se
    elif kind == "proportion":
        xa, xb = round(sum(va)), round(sum(vb))
        lo, hi = newcombe_diff(xb, len(vb), xa, len(va))
        pool = (xa + xb) / (len(va) + len(vb)) if va or vb else 0.0
        se = math.sqrt(pool * (1 - pool) * (1 / len(va) + 1 / len(vb))) if va and vb else 0.0
    else:
        lo, hi = welch_diff(vb, va)
        se = math.sqrt(variance(va) / len(va) + variance(vb) / len(vb)) if va and vb else 0.0
    if se > 0:
        p = _p_two_sided(d / se)
    else:
        p = 1.0 if d == 0 else 0.0
        if paired:
            lo = hi = d
    return {"metric": name, "kind": kind, "a": ma, "b": mb, "diff": d, "ci95": [lo, hi], "n_a": len(va),
            "n_b": len(vb), "paired": paired, "p_value": p, "significant": lo > 0 or hi < 0}


def _holm(rows: list[dict[str, Any]], alpha: float = 0.05) -> None:
    order = sorted(range(len(rows)), key=lambda i: rows[i]["p_value"])
    m = len(rows)
    still = True
    for rank, i in enumerate(order):
        still = still and rows[i]["p_value"] <= alpha / (m - rank)
        rows[i]["significant_holm"] = still


Units = dict[str, tuple[str, dict[Any, float]]]


def _units(outcomes: Sequence[GameOutcome], players: int, cooperative: bool) -> Units:
    """Per metric: its kind and one value per unit (a game, a seat in a game, a mission dealt)."""
    out: Units = {}

    def put(name: str, kind: str, key: Any, value: float) -> None:
        out.setdefault(name, (kind, {}))[1][key] = value

    for o in outcomes:
        i = o.index
        put("length (decisions)", "mean", i, float(o.decisions))
        if o.game_time:
            put("game time (s)", "mean", i, o.game_time)
        res = o.result
        if cooperative:
            put("team win rate", "proportion", i, 1.0 if res.get("team_win") else 0.0)
        else:
            for s in range(players):
                put(f"win rate seat {s}", "proportion", i, 1.0 if s in res["winners"] else 0.0)
            first = o.metrics.get("first")
            if first is not None:
                put("first-mover win rate", "proportion", i, 1.0 if first in res["winners"] else 0.0)
            put("shared win rate", "proportion", i, 1.0 if len(res["winners"]) > 1 else 0.0)
        for seat, sp in enumerate(o.metrics.get("score_parts", ())):
            for part in ("cards", "moons", "missions", "debris_bonus", "total"):
                put(f"score: {part}", "mean", (i, seat), float(sp[part]))
        for mid, seat, pts, most in o.metrics.get("missions", ()):
            put(f"mission {mid} completed", "proportion", (i, seat), 1.0 if pts >= most else 0.0)
        if "missions_revealed" in o.metrics:
            put("missions revealed", "mean", i, float(o.metrics["missions_revealed"]))
    if cooperative:  # loss causes: a share of all games, so every game is a unit
        causes = {f"loss: {o.result['details'].get('cause')} in zone {o.result['details'].get('zone')}"
                  for o in outcomes if not o.result.get("team_win")}
        for c in causes:
            for o in outcomes:
                lost = not o.result.get("team_win") and (
                    f"loss: {o.result['details'].get('cause')} in zone {o.result['details'].get('zone')}" == c)
                put(c, "proportion", o.index, 1.0 if lost else 0.0)
    return out


def differences(a: Sequence[GameOutcome], b: Sequence[GameOutcome], players: int,
                cooperative: bool) -> list[dict[str, Any]]:
    ua, ub = _units(a, players, cooperative), _units(b, players, cooperative)
    rows = []
    for name in sorted(set(ua) | set(ub)):
        kind = (ua.get(name) or ub[name])[0]
        if name not in ua or name not in ub:  # e.g. a loss cause seen only in B: zero in every game of A
            if name.startswith("loss:"):
                zero = {o.index: 0.0 for o in (a if name not in ua else b)}
                rows.append(_row(name, kind, ua[name][1] if name in ua else zero, ub[name][1] if name in ub else zero))
            continue
        rows.append(_row(name, kind, ua[name][1], ub[name][1]))
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
