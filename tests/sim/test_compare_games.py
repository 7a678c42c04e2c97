"""``compare`` on every game: whole-game metrics and per-card / per-mission units."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.compare import compare, with_variant

ROOT = Path(__file__).resolve().parents[2]


def _rows(r: dict[str, object]) -> dict[str, dict[str, object]]:
    return {d["metric"]: d for d in r["differences"]}  # type: ignore[attr-defined, index]


def test_compare_blast_off_runs_and_sees_the_turn_based_timing() -> None:
    base = SimSpec("blast-off", 4, 30, seed=2, bots="heuristic")
    r = compare(base, with_variant(base, options={"timing": "steps"}))
    rows = _rows(r)
    length = rows["length (decisions)"]
    assert length["significant"] and length["diff"] > 0  # type: ignore[operator]
    assert any(m.startswith("mission M") and m.endswith("revealed") for m in rows)
    assert "mission violations (all missions)" in rows and "mission catches (all missions)" in rows
    units = r["units"]
    assert {u["unit"] for u in units} == {"card", "mission"}
    for u in units:
        assert {"id", "a", "b", "diff", "ci95", "p", "significant"} <= set(u)
        assert u["ci95"][0] <= u["diff"] <= u["ci95"][1]


def test_compare_meteor_sees_a_weaker_team() -> None:
    base = SimSpec("meteor", 2, 20, seed=4, bots="heuristic")
    r = compare(base, SimSpec("meteor", 2, 20, seed=4, bots="random"))
    rows = _rows(r)
    left = rows["meteors left at the end"]
    assert left["significant"] and left["diff"] > 0  # type: ignore[operator]
    ids = {u["id"] for u in r["units"]}
    assert {"F", "A"} <= ids and any(i.startswith("R") for i in ids) and any(i.startswith("M") for i in ids)


def test_compare_shooting_star_units_pair_game_by_game() -> None:
    base = SimSpec("shooting-star", 2, 30, seed=6, bots="heuristic")
    r = compare(base, with_variant(base, options={"conquest_points": "planets_only"}))
    for u in r["units"]:
        if u["measure"].endswith("per game"):
            assert u["paired"] and u["n_a"] == u["n_b"] == 30
    # the scoring option changes no card's play: same seeds, same bots, same moves
    played = [u for u in r["units"] if u["measure"] == "played per game"]
    assert len(played) == 9 and all(u["diff"] == 0 for u in played)


def test_compare_cli_json_for_blast_off() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cosmodeck", "compare", "blast-off", "--players", "3", "--games", "6",
         "--bots", "heuristic", "--b-option", "timing=steps", "--json"],
        capture_output=True, text=True, timeout=300, check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    r = json.loads(out.stdout)
    assert r["game"] == "blast-off" and r["units"] and r["differences"]
