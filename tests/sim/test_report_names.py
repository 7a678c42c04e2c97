"""Reports name what they count: the game by its name, every card and mission id with its name from the
packaged data (``M05 (Roger)``, ``O7 (orange 7)``, ``M02 (size 1, burn up)``), in tables, sentences and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cosmodeck.cli.main import main
from cosmodeck.sim.report.datadiff import MAX_SENTENCES, data_changes
from cosmodeck.sim.report.names import game_title, name_ids, named, names_of, names_of_text, unit_names

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


def _meteor_with_r01_cost(tmp_path: Path, cost: str) -> Path:
    doc = json.loads((ROOT / "src" / "cosmodeck" / "games" / "meteor" / "data" / "default.json").read_text())
    assert doc["rockets"][0]["id"] == "R01" and doc["rockets"][0]["cost"] == "F"
    doc["rockets"][0]["cost"] = cost
    path = tmp_path / f"meteor_r01_{cost}.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_compare_names_a_changed_card_from_each_side_and_lists_the_data_changes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """B changes R01's cost: the report names R01 with A's face and B's, and says what differs in the data."""
    d = tmp_path / "rep"
    code = main(["compare", "meteor", "--players", "2", "--games", "4", "--seed", "3", "--bots", "heuristic",
                 "--b-data", str(_meteor_with_r01_cost(tmp_path, "FF")), "--report", str(d), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["data_changes"] == ["R01 (damage 1, cost F): cost is F in A and FF in B."]
    assert result["b"]["summary"]["names"]["R01"] == "damage 1, cost FF" and "names" not in result["a"]["summary"]
    page = (d / "index.html").read_text()
    assert "What differs in the card data" in page
    assert "R01 (damage 1, cost F): cost is F in A and FF in B." in page
    assert "R01 (damage 1, cost F in A; damage 1, cost FF in B): played per game" in page
    assert "R01 (damage 1, cost F):" not in page.replace("R01 (damage 1, cost F): cost is", "")


def test_a_simulation_on_its_own_data_names_the_cards_of_that_data(tmp_path: Path) -> None:
    d = tmp_path / "rep"
    code = main(["simulate", "meteor", "--players", "2", "--games", "3", "--bots", "heuristic",
                 "--data", str(_meteor_with_r01_cost(tmp_path, "FF")), "--report", str(d)])
    assert code == 0
    page = (d / "index.html").read_text()
    assert "R01 (damage 1, cost FF)" in page and "cost F)" not in page


def test_data_changes_match_rows_by_id_and_read_as_sentences() -> None:
    a = {"rules": {"hand_size": 9, "fast": True}, "cards": [{"id": "C1", "name": "Comet", "hits": [[0, 1]]},
                                                            {"id": "C2", "cost": "F"}], "tags": ["x"]}
    b = {"rules": {"hand_size": 10, "fast": False}, "cards": [{"id": "C2", "cost": "F"},
                                                              {"id": "C1", "name": "Comet", "hits": [[0, 2]]},
                                                              {"id": "C3", "name": "Nova"}], "tags": []}
    assert data_changes(json.dumps(a), json.dumps(b)) == [
        "C1 (Comet): hits is (0, 1) in A and (0, 2) in B.", "C3 (Nova) is only in B.",
        "Rules, fast is yes in A and no in B.", "Rules, hand size is 9 in A and 10 in B.",
        "Tags is x in A and none in B."]
    assert data_changes(json.dumps(a), json.dumps(a, indent=2)) == []  # the same data, spelt otherwise
    assert data_changes(json.dumps(a), "{not json") == [
        "The card data of B is not JSON, so it cannot be compared field by field."]


def test_data_changes_are_bounded_whatever_the_files_hold() -> None:
    many_a = {"cards": [{"id": f"C{i}", "cost": "F"} for i in range(500)]}
    many_b = {"cards": [{"id": f"C{i}", "cost": "FF" * 100} for i in range(500)]}
    out = data_changes(json.dumps(many_a), json.dumps(many_b))
    assert len(out) == MAX_SENTENCES + 1 and out[-1] == "... and 440 more differences (not listed)."
    assert out[0] == "C0 (cost F): cost is F in A and " + "F" * 57 + "... in B."
    deep: object = 1
    for _ in range(500):
        deep = {"k": deep}
    assert len(data_changes(json.dumps({"x": 1}), json.dumps(deep))) == 2  # deep nesting: no recursion error
    listed: object = [{"id": "C9", "name": "Deep"}]
    for _ in range(5000):
        listed = [listed]
    assert names_of({"cards": listed}) == {}  # past the depth read: no names, no recursion error
    assert names_of({"cards": [{"id": "C9", "name": "Deep"}]}) == {"C9": "Deep"}
    assert names_of_text("[" * 100_000 + "]" * 100_000) == {}  # deeper than the JSON parser goes


def test_a_p_value_that_underflowed_reads_as_below_the_smallest_one_not_zero() -> None:
    from cosmodeck.sim.report.tables import moved_sentence

    row = {"unit": "card", "id": "P8", "measure": "misses_per_game", "a": 0.08, "b": 1.244, "diff": 1.164,
           "ci95": [1.122, 1.207], "p_value": 0.0}
    text = moved_sentence("shooting-star", row)
    assert text.endswith("p < 1e-300).") and "p 0)" not in text
    assert moved_sentence("shooting-star", {**row, "p_value": 2.6e-264}).endswith("p 2.6e-264).")
