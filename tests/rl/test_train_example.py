"""examples/train_shooting_star.py --smoke: the MaskablePPO pipeline runs end to end (a tiny run)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_shooting_star.py"


def test_training_example_smoke_run(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_shooting_star", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--smoke", "--out", str(tmp_path)])
    saved = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    assert saved["agent"] == result["agent"]
    n = saved["eval_games"]
    for who in ("agent", "random_baseline"):
        assert sum(saved[who].values()) == n
    lo, hi = saved["agent_win_ci95"]
    assert 0.0 <= lo <= saved["agent_win_rate"] <= hi <= 1.0
    assert saved["curve"]["evals"], "the learning curve has no evaluation point"
    png = (tmp_path / "learning_curve.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
