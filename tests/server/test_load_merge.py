"""``benchmarks/load.py --clients K``: the generator processes' results merged into one level.

The percentiles must come from the merged raw samples, never from an average of the processes' percentiles."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cosmodeck_load_benchmark", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while the class is built
    spec.loader.exec_module(module)
    return module


load = _load()


def _part(latencies: list[float], actions: int, errors: dict[str, int], cpu: float, wall: float) -> dict[str, Any]:
    return {"latencies": latencies, "actions": actions, "errors": errors, "games_finished": 2, "redirects": 1,
            "frames": 10 * actions, "warm_actions": actions // 4, "warm_frames": actions, "wall_from": wall,
            "wall_to": wall + 10, "cpu_s": cpu, "stalls": [[wall + 1, "lag", 12.0, 11.0]]}


def test_percentiles_come_from_the_merged_samples() -> None:
    # one process: every sample 1 ms; the other: 99 samples of 2 ms and one of 500 ms. Each alone has p99 1 ms
    # and 500 ms (an average of 250.5 ms); over the 200 samples together the 99th percentile is 2 ms.
    quick = _part([0.001] * 100, 40, {"stale": 1}, 1.5, 1000.0)
    slow = _part([0.002] * 99 + [0.5], 60, {"stale": 2, "client:OSError": 1}, 2.5, 1001.0)
    assert load.pct(quick["latencies"], 0.99) == 1.0
    assert load.pct(slow["latencies"], 0.99) == 500.0
    level = load.merge_parts(256, 5.0, [quick, slow])
    assert sorted(level.latencies) == sorted(quick["latencies"] + slow["latencies"])
    assert load.pct(level.latencies, 0.99) == 2.0
    assert load.pct(level.latencies, 0.5) == 2.0
    assert (level.rooms, level.measure_from) == (256, 5.0)
    assert (level.actions, level.frames, level.games_finished, level.redirects) == (100, 1000, 4, 2)
    assert level.errors == {"stale": 3, "client:OSError": 1}
    assert level.warm is not None and level.warm[4:] == (25, 100)
    assert level.generator_cpu == [1.5, 2.5]
    assert level.generator_windows == [(1000.0, 1010.0), (1001.0, 1011.0)]
    assert [len(s) for s in level.generator_stalls] == [1, 1]


def test_part_result_keeps_only_the_measured_window_stalls() -> None:
    level = load.Level(4, measure_from=0.0, latencies=[0.003, 0.004], actions=7, frames=50)
    level.wall_from, level.wall_to = 100.0, 110.0
    level.warm = (0.0, 0.0, 0.0, 0.2, 3, 20)
    records = [[99.0, "lag", 15.0, 1.0], [105.0, "gc0", 1.0, 1.0], [110.0, "lag", 20.0, 19.0]]
    part = load.part_result(level, 0.8, records)
    assert part["stalls"] == [[105.0, "gc0", 1.0, 1.0]]
    assert (part["warm_actions"], part["warm_frames"], part["cpu_s"]) == (3, 20, 0.8)
    back = load.merge_parts(4, 0.0, [part])
    assert back.latencies == [0.003, 0.004] and back.actions == 7 and back.frames == 50
