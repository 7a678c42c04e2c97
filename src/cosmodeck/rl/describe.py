"""Markdown tables of the observation layouts and sizes (docs/rl.md is checked against them).

    python -m cosmodeck.rl.describe      # prints every table of docs/rl.md's reference part
"""

from __future__ import annotations

from typing import Any

from cosmodeck.api import list_games, load_game
from cosmodeck.rl.encoders import ENCODERS
from cosmodeck.rl.table import GAME_DEFAULTS, Table


def rl_games() -> list[str]:
    """The registered games that have an RL encoder (tests may register toy games of their own)."""
    return [g for g in list_games() if g in ENCODERS]


def player_counts(game_id: str) -> range:
    info = load_game(game_id, **GAME_DEFAULTS.get(game_id, {})).info
    return range(info.min_players, info.max_players + 1)


def feature_table(game_id: str, players: int, **options: Any) -> str:
    """Every slice of the observation vector: name, position, length, meaning."""
    enc = Table(game_id, players, options).encoder
    rows = ["| feature | slice | size | meaning |", "|---|---|---|---|"]
    pos = 0
    for f in enc.features:
        rows.append(f"| `{f.name}` | {pos}:{pos + f.size} | {f.size} | {f.doc} |")
        pos += f.size
    rows.append(f"| total | 0:{pos} | {pos} | |")
    return "\n".join(rows)


def sizes_table() -> str:
    """Observation length and action-catalog size for every game and player count (default options)."""
    rows = ["| game | players | observation | actions |", "|---|---|---|---|"]
    for game_id in rl_games():
        for n in player_counts(game_id):
            enc = Table(game_id, n).encoder
            rows.append(f"| {game_id} | {n} | {enc.obs_size} | {enc.num_actions} |")
    return "\n".join(rows)


def reference() -> str:
    parts = ["### Sizes", "", sizes_table()]
    for game_id in rl_games():
        parts += ["", f"### Observation layout: {game_id}, 2 players", "", feature_table(game_id, 2)]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    print(reference(), end="")
