"""Imports only go downwards: bots never import the simulator, the CLI, the server or RL; sim never
imports the CLI, the server or RL (DESIGN.md "Layers"); bots see no state handed to them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cosmodeck

SRC = Path(cosmodeck.__file__).parent
FORBIDDEN = {
    "bots": ("cosmodeck.sim", "cosmodeck.cli", "cosmodeck.server", "cosmodeck.rl", "cosmodeck.storage"),
    "sim": ("cosmodeck.cli", "cosmodeck.server", "cosmodeck.rl", "cosmodeck.storage"),
    "textboard": ("cosmodeck.sim", "cosmodeck.cli", "cosmodeck.server", "cosmodeck.rl", "cosmodeck.storage",
                  "cosmodeck.bots"),
}


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer: str) -> None:
    bad = [(p.name, m) for p in sorted((SRC / layer).rglob("*.py")) for m in _imports(p)
           if m.startswith(FORBIDDEN[layer])]
    assert bad == []


def test_bots_read_no_engine_state_type() -> None:
    """A bot's ``act`` takes (view, legal, rng): no bot module imports the engine's State to read one,
    except the search (which builds its own determinized states) and its determinizers."""
    allowed = {"ismcts.py", "rollout.py", "__init__.py", "shooting_star.py"}
    for p in sorted((SRC / "bots").rglob("*.py")):
        if "cosmodeck.engine.state" in _imports(p):
            assert p.name in allowed, p
