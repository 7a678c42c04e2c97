"""Differential test: today's engine replays the golden games made by main's code before the speed work.

Each golden game's digest folds every step's views (all seats and the spectator), legal lists and events;
the record (log and result) is compared whole. How the fixture was made: tests/fixtures/blast_off_golden.py.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_spec = importlib.util.spec_from_file_location("blast_off_golden", FIXTURES / "blast_off_golden.py")
assert _spec is not None and _spec.loader is not None
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
CASES: list[dict[str, Any]] = json.loads((FIXTURES / "blast_off_golden.json").read_text())


def test_golden_fixture_covers_every_case() -> None:
    assert [[c["players"], c["seed"], c["options"]] for c in CASES] == [list(x) for x in golden.CASES]


def _id(c: dict[str, Any]) -> str:
    return f"{c['players']}p-s{c['seed']}-" + "-".join(map(str, c["options"].values()))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_same_records_views_events_and_legal_lists_as_before(case: dict[str, Any]) -> None:
    got = golden.play(case["players"], case["seed"], case["options"])
    assert got["record"] == case["record"]
    assert got["digest"] == case["digest"]
