"""The lab's worker module (``python -m cosmodeck.sim.lab``): field spellings, repeated checks, small batches."""

from __future__ import annotations

import json

from cosmodeck.api import default_data
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.lab import canonical, validate
from cosmodeck.sim.simulate import simulate


def test_pydantic_and_loader_fields_get_one_spelling() -> None:
    doc = json.loads(default_data("meteor").text)
    assert canonical("rockets.0.damage", doc) == "rockets[0].damage"
    assert canonical("setup_chart.2.start_hand", doc) == "setup_chart.2.start_hand"  # a dict keyed "2"
    assert canonical("destruction_set[7].hits", {"destruction_set": [{}] * 9}) == "destruction_set[7].hits"


def test_every_error_of_a_file_is_found_not_only_the_first() -> None:
    doc = json.loads(default_data("blast-off").text)
    doc["deck"]["wild"] = 99
    doc["missions"][4]["obligation"]["who"] = "nobody"
    out = validate("blast-off", json.dumps(doc))
    assert out["ok"] is False
    assert {e["field"] for e in out["errors"]} == {"deck.wild", "missions[4].obligation.who"}
    assert validate("blast-off", default_data("blast-off").text) == {"ok": True, "errors": [], "warnings": []}


def test_small_batches_report_progress_often_and_change_no_number() -> None:
    spec = SimSpec("shooting-star", 2, 24, seed=5, bots="random")
    steps: list[int] = []
    small = simulate(spec, progress=steps.append, max_batch=2)
    whole = simulate(spec)
    assert steps == [2] * 12  # without max_batch: 8 batches of 3
    for key in ("win_rate_by_seat", "mean_length", "per_card"):
        assert small[key] == whole[key]
