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
from cosmodeck.sim.report.datadiff import data_changes
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.simulate import check_spec
from cosmodeck.sim.stats import Z95, mean, newcombe_diff, variance, welch_diff
from cosmodeck.sim.summary import summarise
from cosmodeck.sim.units import card_units, game_units


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


def differences(a: Sequence[GameOutcome], b: Sequence[GameOutcome], players: int,
                cooperative: bool, game: str = "") -> list[dict[str, Any]]:
    """The whole-game metrics (Holm-corrected among themselves; see :func:`all_differences`)."""
    rows = _game_rows(a, b, players, cooperative, game)
    _holm(rows)
    return rows


def _game_rows(a: Sequence[GameOutcome], b: Sequence[GameOutcome], players: int,
               cooperative: bool, game: str) -> list[dict[str, Any]]:
    ua, ub = game_units(a, players, cooperative, game), game_units(b, players, cooperative, game)
    rows = []
    for name in sorted(set(ua) | set(ub)):
        kind = (ua.get(name) or ub[name])[0]
        if name not in ua or name not in ub:  # e.g. a loss cause seen only in B: zero in every game of A
            if name.startswith("loss:"):
                zero = {o.index: 0.0 for o in (a if name not in ua else b)}
                rows.append(_row(name, kind, ua[name][1] if name in ua else zero, ub[name][1] if name in ub else zero))
            continue
        rows.append(_row(name, kind, ua[name][1], ub[name][1]))
    return rows


def unit_rows(a: Sequence[GameOutcome], b: Sequence[GameOutcome], cooperative: bool) -> list[dict[str, Any]]:
    """One row per card or mission measure: ``unit``, ``id``, ``measure``, ``a``, ``b``, ``diff``, ``ci95``, ``p``."""
    ua, ub = card_units(a, cooperative), card_units(b, cooperative)
    zero_a, zero_b = {o.index: 0.0 for o in a}, {o.index: 0.0 for o in b}
    rows = []
    for name in sorted(set(ua) | set(ub)):
        unit, uid, measure, kind, _v = ua.get(name) or ub[name]
        if kind == "mean":  # a counter missing on one side was zero in each of its games
            va, vb = (ua[name][4] if name in ua else zero_a), (ub[name][4] if name in ub else zero_b)
        elif name in ua and name in ub:
            va, vb = ua[name][4], ub[name][4]
        else:
            continue
        r = _row(name, kind, va, vb)
        rows.append({"unit": unit, "id": uid, "measure": measure, **r, "p": r["p_value"]})
    return rows


def all_differences(a: Sequence[GameOutcome], b: Sequence[GameOutcome], players: int, cooperative: bool,
                    game: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Whole-game rows and card/mission rows, Holm-corrected together as one family of tests.

    In the unit rows ``significant`` is the Holm-corrected verdict (``significant_uncorrected``:
    the interval alone); in the game rows ``significant`` keeps its meaning (the interval) and
    ``significant_holm`` is the corrected one.
    """
    rows = _game_rows(a, b, players, cooperative, game)
    units = unit_rows(a, b, cooperative)
    _holm([*rows, *units])
    for u in units:
        u["significant_uncorrected"] = u["significant"]
        u["significant"] = u["significant_holm"]
    return rows, units


def compare(spec_a: SimSpec, spec_b: SimSpec, workers: int = 1, backend: str = "local",
            address: str | None = None, progress: Progress | None = None, labels: tuple[str, str] = ("A", "B"),
            keep: dict[str, list[GameOutcome]] | None = None, max_batch: int = 500) -> dict[str, Any]:
    """Run both variants on the same seeds; summaries of each and the list of differences.

    ``max_batch`` bounds the games of one task (smaller: more frequent ``progress`` calls)."""
    if (spec_a.game, spec_a.players, spec_a.games, spec_a.seed) != (spec_b.game, spec_b.players, spec_b.games,
                                                                   spec_b.seed):
        raise ValueError("compare: A and B must share game, players, games and seed")
    game = check_spec(spec_a)
    game_b = check_spec(spec_b)
    t0 = time.perf_counter()
    parts = chunks(spec_a.games, workers, max_batch)
    tasks = [(s, lo, hi) for lo, hi in parts for s in (spec_a, spec_b)]
    batches = run_tasks(tasks, workers, backend, address, progress)
    elapsed = time.perf_counter() - t0
    out_a = [o for i, bt in enumerate(batches) if i % 2 == 0 for o in bt]
    out_b = [o for i, bt in enumerate(batches) if i % 2 == 1 for o in bt]
    if keep is not None:
        keep["a"], keep["b"] = out_a, out_b
    coop = game.info.cooperative
    rows, units = all_differences(out_a, out_b, spec_a.players, coop, spec_a.game)
    return {
        "game": spec_a.game, "players": spec_a.players, "games": spec_a.games, "seed": spec_a.seed,
        "bots": spec_a.bots if spec_a.bots == spec_b.bots else f"{spec_a.bots} | {spec_b.bots}",
        "elapsed_s": round(elapsed, 4), "z": Z95,
        "a": {"label": labels[0], "summary": summarise(spec_a, out_a, elapsed, coop, backend, workers, game)},
        "b": {"label": labels[1], "summary": summarise(spec_b, out_b, elapsed, coop, backend, workers, game_b)},
        "differences": rows,
        "significant": [r["metric"] for r in rows if r["significant"]],
        "units": units,
        "units_significant": [u["metric"] for u in units if u["significant"]],
        "data_changes": data_changes(_data_text(spec_a), _data_text(spec_b)),
    }


def _data_text(spec: SimSpec) -> str:
    """The card-data text a side ran: its own file's, else the game's packaged data."""
    if spec.data is not None:
        return spec.data.text
    from cosmodeck.api import default_data

    return default_data(spec.game).text


def with_variant(base: SimSpec, data: Any = None, options: dict[str, Any] | None = None) -> SimSpec:
    """``base`` with other card data and/or extra options."""
    return replace(base, data=data if data is not None else base.data,
                   options={**base.options, **(options or {})})
