"""engine/ and games/ never read a clock, do I/O or use the global random (STYLE 1, 6, 9)."""

from __future__ import annotations

import ast
import builtins
import random
import time
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import Rng
from tests.conformance.driver import drive

ROOT = Path(cosmodeck.__file__).parent
PURE = [ROOT / "engine", ROOT / "games"]
FORBIDDEN_MODULES = {"time", "datetime", "random", "os", "io", "pathlib", "socket", "logging", "threading",
                     "asyncio", "subprocess", "shutil", "tempfile", "urllib", "http", "sys", "secrets", "uuid"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "breakpoint"}


def _py_files() -> list[Path]:
    return sorted(p for d in PURE for p in d.rglob("*.py"))


def test_the_scan_sees_the_game_packages() -> None:
    names = {p.parent.name for p in _py_files()}
    assert "engine" in names and "shooting_star" in names


@pytest.mark.parametrize("path", _py_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_clock_io_or_global_random_in_source(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in FORBIDDEN_MODULES, f"{path}: imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[0] not in FORBIDDEN_MODULES, f"{path}: imports from {node.module}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path}:{node.lineno}: calls {node.func.id}()"


def _boom(*_a: Any, **_k: Any) -> Any:
    raise AssertionError("the engine touched the clock, the global random or a file")


@pytest.mark.parametrize("game_id", cosmodeck.list_games())
def test_a_game_runs_with_clock_random_and_files_booby_trapped(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = cosmodeck.load_game(game_id)  # loading data is the host's I/O, done before the trap
    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns", "sleep"):
        monkeypatch.setattr(time, name, _boom)
    for name in ("random", "randint", "randrange", "choice", "shuffle", "sample", "uniform", "seed", "getrandbits"):
        monkeypatch.setattr(random, name, _boom)
    monkeypatch.setattr(builtins, "open", _boom)
    state = game.new_game(players=game.info.max_players, seed=3)
    drive(state, Rng(4))
    clone = state.clone()
    assert clone.is_over
    monkeypatch.undo()
