"""Which (game, players, options) the RL tests run: player count 2 and the maximum of every game."""

from __future__ import annotations

from typing import Any

import cosmodeck
from cosmodeck.rl.table import GAME_DEFAULTS

# Each entry: (game id, players, extra options). Real-time games use a coarse tick to keep tests quick.
RT = {"step_s": 2.0}
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("shooting-star", 2, {}),
    ("shooting-star", 5, {}),
    ("shooting-star", 3, {"orientations": 2}),
    ("blast-off", 2, {}),
    ("blast-off", 6, {}),
    ("blast-off", 3, {"timing": "realtime", **RT}),
    ("blast-off", 3, {"custom_missions": True, "play_for_places": True}),
    ("meteor", 1, RT),
    ("meteor", 2, RT),
    ("meteor", 5, RT),
    ("meteor", 3, {"difficulty": "expert", **RT}),
]


def max_players(game_id: str) -> int:
    game = cosmodeck.load_game(game_id, **GAME_DEFAULTS.get(game_id, {}))
    return int(game.info.max_players)


def config_id(cfg: tuple[str, int, dict[str, Any]]) -> str:
    game_id, players, opts = cfg
    extra = ",".join(f"{k}={v}" for k, v in sorted(opts.items()))
    return f"{game_id}-{players}p" + (f"-{extra}" if extra else "")
