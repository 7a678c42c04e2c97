"""Player views drawn as text with Rich: the terminal client's boards and the RL environments' ``render``.

``render_text(game_id, view)`` returns the board as a string (ANSI colours unless ``colour=False``).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Mapping
from typing import Any

from rich.console import Console


def render_text(game_id: str, view: Mapping[str, Any], *, colour: bool = True, width: int = 100) -> str:
    """The text board of ``view`` (a player or spectator view of ``game_id``)."""
    module = importlib.import_module(f"cosmodeck.textboard.{game_id.replace('-', '_')}")
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=colour, color_system="standard" if colour else None,
                      highlight=False)
    module.render(dict(view), console)
    return buf.getvalue()
