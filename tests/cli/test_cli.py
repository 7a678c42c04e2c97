"""The `cosmodeck` command, end to end (in-process via main(), and once as a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cosmodeck
from cosmodeck.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ex:
        main(["--version"])
    assert ex.value.code == 0
    assert cosmodeck.__version__ in capsys.readouterr().out
    code, out, _ = run(capsys, "games")
    assert code == 0 and out.split() == cosmodeck.list_games()


@pytest.mark.parametrize("game_id", cosmodeck.list_games())
def test_rules_in_english_and_spanish(capsys: pytest.CaptureFixture[str], game_id: str) -> None:
    code, en, _ = run(capsys, "rules", game_id, "--lang", "en")
    assert code == 0 and "specification" in en.lower()
    code, es, _ = run(capsys, "rules", game_id, "--lang", "es")
    assert code == 0 and es != en and len(es) > 1000


def test_rules_of_an_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "chess")
    assert code == 2 and "unknown game 'chess'" in err


@pytest.mark.parametrize("game_id", cosmodeck.list_games())
def test_simulate_json_has_the_design_fields_and_is_worker_independent(
    capsys: pytest.CaptureFixture[str], game_id: str
) -> None:
    info = cosmodeck.load_game(game_id).info
    players = info.min_players
    args = ["simulate", game_id, "--players", str(players), "--games", "24", "--seed", "5", "--json"]
    code, out1, _ = run(capsys, *args, "--workers", "1")
    assert code == 0
    one = json.loads(out1)
    code, out2, _ = run(capsys, *args, "--workers", "2")
    two = json.loads(out2)
    for key in ("game", "players", "games", "seed", "bots", "elapsed_s", "games_per_s", "decisions_per_s",
                "mean_length"):
        assert key in one
    outcome_keys = ["team_win_rate", "team_win_ci95"] if info.cooperative else ["win_rate_by_seat", "ci95"]
    for key in [*outcome_keys, "mean_length"]:
        assert one[key] == two[key]
    assert one["games"] == 24 and one["players"] == players


def test_simulate_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "simulate", "shooting-star", "--players", "9", "--games", "2")
    assert code == 2 and "players" in err
    code, _, err = run(capsys, "simulate", "shooting-star", "--players", "2", "--games", "2", "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'" in err
    bad = tmp_path / "broken.json"
    bad.write_text('{"schema": "nope"}')
    code, _, err = run(capsys, "simulate", "shooting-star", "--players", "2", "--games", "2", "--data", str(bad))
    assert code == 2 and "broken.json" in err
    code, _, err = run(capsys, "simulate", "shooting-star", "--players", "2", "--games", "2", "--data",
                       str(tmp_path / "missing.json"))
    assert code == 2 and "file not found" in err


def test_replay_check_passes_and_detects_tampering(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cosmodeck.engine import Rng
    from cosmodeck.sim.runner import random_playout

    state = cosmodeck.load_game("shooting-star").new_game(players=3, seed=4)
    random_playout(state, Rng(2))
    rec = state.record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    code, out, _ = run(capsys, "replay", str(path), "--check")
    assert code == 0 and "check passed" in out
    rec["result"]["winners"] = [9]
    path.write_text(json.dumps(rec))
    code, out, _ = run(capsys, "replay", str(path), "--check")
    assert code == 1 and "check failed" in out
    path.write_text("{")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "not JSON" in err


def test_play_bots_only_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "shooting-star", "--players", "2", "--bots", "random", "--seed", "3",
                       "--delay", "0")
    assert code == 0 and "Game over" in out


def test_play_as_a_human_through_a_pipe_to_the_end() -> None:
    """A human seat typing menu numbers on stdin plays a whole game in a real subprocess."""
    script = "\n".join(["1"] * 40) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "cosmodeck.cli.main", "play", "shooting-star", "--players", "2", "--seed", "11",
         "--bots", "human,random", "--delay", "0"],
        input=script, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout


@pytest.mark.parametrize(("argv", "said"), [
    (["meteor", "--bots", "human,genius"], "unknown bot 'genius'"),
    (["meteor", "--bots", "human,heuristic:level=zzz"], "level='zzz' is not one of easy, normal, hard"),
    (["meteor", "--players", "99"], "Meteor takes 1-5 players, not 99"),
    (["meteor", "--players", "0"], "Meteor takes 1-5 players, not 0"),
    (["blast-off", "--players", "1"], "takes 2-"),
])
def test_play_refuses_bad_bots_and_player_counts_in_a_sentence_before_the_board(
        capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    with pytest.raises(SystemExit) as e:
        main(["play", *argv])
    out, _ = capsys.readouterr()
    assert said in str(e.value.code) and str(e.value.code).startswith("cosmodeck play:")
    assert out == ""  # nothing of the game was printed


def test_play_meteor_with_its_input_closed_before_the_start_ends_at_once() -> None:
    """Only the host (the human seat) can start Meteor's clock: with stdin closed nothing could ever move."""
    proc = subprocess.run(
        [sys.executable, "-m", "cosmodeck.cli.main", "play", "meteor", "--players", "2", "--seed", "3"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game abandoned (input closed and the clock is not running)." in proc.stdout


def test_benchmark_reports_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "benchmark", "shooting-star", "--seconds", "0.3", "--json")
    assert code == 0
    (row,) = json.loads(out)
    assert row["games"] > 0 and row["decisions_per_s"] > 0 and row["clones_per_s"] > 0
