"""Simulator: seeded tasks give the same numbers on any worker count; summaries; stats."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from cosmodeck.sim.backends import chunks, run_tasks
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.simulate import run_spec, simulate
from cosmodeck.sim.stats import histogram, newcombe_diff, welch_diff, wilson

SPEC = SimSpec("shooting-star", 3, 30, seed=17, bots="random,heuristic,random")


def test_chunks_cover_every_game_once() -> None:
    for total, workers in ((1, 1), (7, 2), (1000, 2), (12345, 4)):
        parts = chunks(total, workers)
        assert parts[0][0] == 0 and parts[-1][1] == total
        assert all(a < b for a, b in parts) and all(p[1] == q[0] for p, q in pairwise(parts))


def test_outcomes_do_not_depend_on_workers_or_batching() -> None:
    one = run_spec(SPEC, workers=1)
    two = run_spec(SPEC, workers=2)
    assert [o.index for o in one] == list(range(30))
    assert one == two
    odd = [o for batch in run_tasks([(SPEC, 0, 13), (SPEC, 13, 30)]) for o in batch]
    assert odd == one


def test_summary_sections_agree_with_the_games() -> None:
    kept: list[GameOutcome] = []
    s = simulate(SPEC, keep_outcomes=kept)
    assert sum(s["wins_by_seat"]) >= s["games"]
    assert s["wins_by_seat"][1] > s["wins_by_seat"][0]  # the heuristic seat beats a random one
    shs = s["shooting_star"]
    assert sum(m["dealt"] for m in shs["missions"].values()) == 30 * 3 * 3
    for mid, m in shs["missions"].items():
        done = sum(1 for o in kept for x in o.metrics["missions"] if x[0] == mid and x[2] >= x[3])
        assert m["completed"] == done
        assert m["ci95"][0] <= m["completion_rate"] <= m["ci95"][1]
    totals = [sp["total"] for o in kept for sp in o.metrics["score_parts"]]
    assert shs["score_parts_all"]["total"] == pytest.approx(sum(totals) / len(totals))
    for o in kept:  # the parts add up to the total
        for sp in o.metrics["score_parts"]:
            assert sp["cards"] + sp["moons"] + sp["missions"] + sp["debris_bonus"] == sp["total"]
    fm = s["first_mover"]
    assert fm["games"] == 30 and fm["advantage"] == pytest.approx(fm["win_rate"] - 1 / 3)
    assert s["length"]["histogram"]["counts"] and sum(s["length"]["histogram"]["counts"]) == 30


def test_meteor_summary_reports_losses_by_zone_and_cause() -> None:
    s = simulate(SimSpec("meteor", 2, 4, seed=3))
    assert "team_win_rate" in s and len(s["team_win_ci95"]) == 2
    rows = s["meteor"]["losses_by_zone_and_cause"]
    assert sum(r["games"] for r in rows) == 4 - s["team_wins"]


def test_wilson_newcombe_welch() -> None:
    lo, hi = wilson(9, 10)
    assert 0.55 < lo < 0.6 and 0.98 < hi < 0.99
    lo, hi = newcombe_diff(50, 100, 50, 100)
    assert lo < 0 < hi and lo == pytest.approx(-hi, abs=1e-9)
    lo, hi = newcombe_diff(56, 70, 48, 80)  # Newcombe (1998), table II, method 10: 0.0524 to 0.3339
    assert lo == pytest.approx(0.0524, abs=5e-4) and hi == pytest.approx(0.3339, abs=5e-4)
    lo, hi = welch_diff([1.0, 2.0, 3.0] * 20, [0.0, 1.0, 2.0] * 20)
    assert lo < 1.0 < hi and lo > 0
    assert welch_diff([], [1.0]) == (-math.inf, math.inf)
    h = histogram([1.0, 2.0, 2.0, 10.0], bins=3)
    assert h["counts"] == [3.0, 0.0, 1.0] and len(h["edges"]) == 4
