"""A game that goes on past ``max_decisions`` is stopped and counted as unfinished (a draw nobody
won), so a run with rules or bots that make endless games still finishes and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cosmodeck.cli.main import main
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import run_spec, simulate
from cosmodeck.sim.tournament import tournament


def test_a_game_past_the_limit_is_an_unfinished_draw() -> None:
    spec = SimSpec("shooting-star", 3, 6, seed=5, bots="random", max_decisions=4)
    outs = run_spec(spec)
    assert [o.result["reason"] for o in outs] == ["unfinished"] * 6
    for o in outs:
        assert o.result["winners"] == [] and o.result["ranking"] == [[0, 1, 2]]
        assert o.decisions == 5 and o.metrics["unfinished"] is True and o.metrics["first"] in (0, 1, 2)
    s = simulate(spec)
    un = s["unfinished"]
    assert (un["games"], un["rate"], un["max_decisions"]) == (6, 1.0, 4)
    assert 0.5 < un["ci95"][0] < un["ci95"][1] == pytest.approx(1.0)
    assert s["wins_by_seat"] == [0, 0, 0] and s["end_reasons"] == {"unfinished": 6}


def test_games_under_the_limit_are_untouched() -> None:
    base = SimSpec("shooting-star", 2, 10, seed=3, bots="random")
    capped = SimSpec("shooting-star", 2, 10, seed=3, bots="random", max_decisions=10_000)
    assert run_spec(base) == run_spec(capped)
    assert simulate(base)["unfinished"]["games"] == 0


def test_a_cooperative_game_past_the_limit_is_not_a_team_win() -> None:
    s = simulate(SimSpec("meteor", 2, 2, seed=1, bots="random", max_decisions=3))
    assert s["unfinished"]["games"] == 2 and s["team_wins"] == 0
    assert s["loss_causes"] == {"unfinished": 2}


def test_a_tournament_scores_an_unfinished_game_as_a_draw() -> None:
    t = tournament("shooting-star", ["random", "heuristic"], games=2, seed=1, max_decisions=2)
    assert all(r["wins"] == 0 for r in t["ratings"])
    assert all(p["a_score"] == 0.5 for p in t["pairs"])


def test_the_cli_takes_and_checks_max_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "shooting-star", "--players", "2", "--games", "3", "--max-decisions", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unfinished"]["games"] == 3 and out["unfinished"]["max_decisions"] == 2
    with pytest.raises(SystemExit):
        main(["simulate", "shooting-star", "--players", "2", "--games", "3", "--max-decisions", "0"])
    assert "must be at least 1" in capsys.readouterr().err


def test_the_report_says_how_many_games_were_unfinished(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = f"{tmp_path}/rep"
    assert main(["simulate", "shooting-star", "--players", "2", "--games", "2", "--max-decisions", "3",
                 "--report", out]) == 0
    with open(f"{out}/index.html") as f:
        page = f.read()
    assert "unfinished games" in page and "stopped after 3 decisions" in page
