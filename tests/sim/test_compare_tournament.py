"""A/B comparison and tournaments."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from cosmodeck.api import read_input
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.compare import compare, with_variant
from cosmodeck.sim.tournament import tournament


@pytest.fixture
def easy_mission_data(tmp_path: Path) -> Path:
    """Default Shooting Star data with one mission made far too easy (M1-A: capture 1 planet, not 4)."""
    text = resources.files("cosmodeck.games.shooting_star.data").joinpath("default.json").read_text()
    data = json.loads(text)
    for m in data["missions"]:
        if m["id"] == "M1-A":
            m["need"] = {"planets": 1}
    path = tmp_path / "easy.json"
    path.write_text(json.dumps(data))
    return path


def test_ab_finds_an_unbalanced_data_file(easy_mission_data: Path) -> None:
    base = SimSpec("shooting-star", 2, 150, seed=3)
    r = compare(base, with_variant(base, data=read_input(easy_mission_data)), workers=2)
    rows = {d["metric"]: d for d in r["differences"]}
    m = rows["mission M1-A completed"]
    assert m["significant"] and m["significant_holm"] and m["diff"] > 0.2 and m["ci95"][0] > 0
    assert m["b"] == 1.0
    # the other missions are unchanged: same seeds, same deals, same random moves
    assert rows["mission M1-B completed"]["diff"] == 0.0


def test_ab_of_two_option_sets() -> None:
    base = SimSpec("shooting-star", 2, 40, seed=5, bots="heuristic")
    r = compare(base, with_variant(base, options={"conquest_points": "planets_only"}))
    rows = {d["metric"]: d for d in r["differences"]}
    assert rows["score: cards"]["diff"] < 0 and rows["score: cards"]["significant"]


def test_ab_of_identical_variants_finds_nothing() -> None:
    base = SimSpec("shooting-star", 2, 40, seed=8)
    r = compare(base, base)
    assert r["significant"] == []
    assert all(d["diff"] == 0 for d in r["differences"])


def test_ab_refuses_different_seeds() -> None:
    base = SimSpec("shooting-star", 2, 10, seed=8)
    with pytest.raises(ValueError, match="must share"):
        compare(base, SimSpec("shooting-star", 2, 10, seed=9))


def test_tournament_rates_the_heuristic_above_random_and_is_worker_independent() -> None:
    bots = ["random", "heuristic", "heuristic:noise=3"]
    one = tournament("shooting-star", bots, games=6, seed=1)
    two = tournament("shooting-star", bots, games=6, seed=1, workers=2)
    for r in (one, two):
        r.pop("elapsed_s")
    assert one == two
    assert one["games"] == 3 * 2 * 6  # pairs x seatings x games
    order = [r["bot"] for r in one["ratings"]]
    assert order[-1] == "random"
    for r in one["ratings"]:
        assert r["games"] == 24 and r["ci95"][0] < r["mu"] < r["ci95"][1]
    h2h = {(p["a"], p["b"]): p for p in one["pairs"]}
    assert h2h[("random", "heuristic")]["a_score"] < 0.3


def test_tournament_refuses_a_cooperative_game_and_too_few_bots() -> None:
    with pytest.raises(ValueError, match="cooperative"):
        tournament("meteor", ["random", "heuristic"], games=1)
    with pytest.raises(ValueError, match="at least 3 bots"):
        tournament("shooting-star", ["random", "heuristic"], players=3, games=1)
