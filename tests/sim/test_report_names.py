"""Reports name what they count: the game by its name, every card and mission id with its name from the
packaged data (``M05 (Roger)``, ``O7 (orange 7)``, ``M02 (size 1, burn up)``), in tables, sentences and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cosmodeck.cli.main import main
from cosmodeck.sim.report.names import game_title, name_ids, named, unit_names

ROOT = Path(__file__).resolve().parents[2]


def test_ids_get_the_names_of_the_packaged_data() -> None:
    assert game_title("shooting-star") == "Shooting Star" and game_title("blast-off") == "Blast Off!"
    assert named("blast-off", "M05") == "M05 (Roger)"
    assert named("blast-off", "O7") == "O7 (orange 7)" and named("blast-off", "BO-G") == "BO-G (Blast Off! green)"
    assert named("blast-off", "W") == "W (Wild)" and named("blast-off", "CD") == "CD (Countdown)"
    assert named("meteor", "M02") == "M02 (size 1, burn up)" and named("meteor", "B01") == "B01 (Behemoth)"
    assert named("meteor", "R03") == "R03 (damage 2, cost FF)"
    assert named("meteor", "T01") == "T01 (communications satellite)"
    assert named("meteor", "F") == "F (fuel)"
    assert named("shooting-star", "M1-A") == "M1-A (Explorer)"  # the English of a translated name
    assert named("shooting-star", "P8") == "P8"  # a Destruction card has no name: the id alone
    assert name_ids("shooting-star", "mission M1-A completed") == "mission M1-A (Explorer) completed"
    assert name_ids("blast-off", "mission obligations (all missions)") == "mission obligations (all missions)"
    assert "M05" not in unit_names("shooting-star")


def test_a_blast_off_compare_report_names_its_missions_and_cards(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    d = tmp_path / "rep"
    code = main(["compare", "blast-off", "--players", "4", "--games", "40", "--seed", "1", "--bots", "heuristic",
                 "--b-data", str(ROOT / "tests" / "sim" / "data" / "blast_off_m05_actor_only.json"),
                 "--report", str(d), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    page = (d / "index.html").read_text()
    assert "<h1>cosmodeck compare: Blast Off!</h1>" in page and "Blast Off! (blast-off)" in page
    assert "mission M05 (Roger): revealed per game" in page
    assert "mission M01 (Houston) revealed" in page
    assert any(u["id"] == "O7" for u in result["units"]) and "card O7 (orange 7):" in page
    assert "True" not in page and "False" not in page and "None" not in page
