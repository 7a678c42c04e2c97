"""examples/self_play_shooting_star.py --smoke: the league self-play pipeline runs end to end (a tiny run)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "self_play_shooting_star.py"


def test_self_play_example_smoke_run(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("self_play_shooting_star", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--smoke", "--out", str(tmp_path)])
    saved = json.loads((tmp_path / "self_play_result.json").read_text(encoding="utf-8"))
    assert saved["against"] == result["against"]
    assert saved["league"] == ["generation 0", "generation 1"]
    assert set(saved["against"]) == {"random", "heuristic", "ismcts:iters=5"}
    for r in saved["against"].values():
        assert r["wins"] + r["shared"] + r["losses"] == r["games"]
        lo, hi = r["ci95"]
        assert 0.0 <= lo <= r["score"] <= hi <= 1.0
    assert (tmp_path / "generation_1.zip").exists()
