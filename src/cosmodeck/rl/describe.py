"""Markdown tables of the observation layouts and sizes (docs/rl.md is checked against them).

    python -m cosmodeck.rl.describe                  # every table of docs/rl.md's reference part
    python -m cosmodeck.rl.describe meteor 4         # one game and player count

>>> print(describe("shooting-star", 3).splitlines()[0])
### shooting-star, 3 players: observation 695, actions 648
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


def describe(game_id: str, players: int = 2, **options: Any) -> str:
    """The observation length, action-catalog size and every observation slice for one configuration."""
    enc = Table(game_id, players, options).encoder
    head = f"### {game_id}, {players} players: observation {enc.obs_size}, actions {enc.num_actions}"
    return head + "\n\n" + feature_table(game_id, players, **options) + "\n"


def reference() -> str:
    """docs/rl.md's generated reference: the sizes, then the layout of every game at every player count."""
    parts = ["### Sizes", "", sizes_table()]
    for game_id in rl_games():
        for n in player_counts(game_id):
            parts += ["", f"### Observation layout: {game_id}, {n} players", "", feature_table(game_id, n)]
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> str:
    if not argv:
        return reference()
    if len(argv) != 2 or not argv[1].isdecimal():
        raise SystemExit("usage: python -m cosmodeck.rl.describe [GAME PLAYERS]")
    return describe(argv[0], int(argv[1]))


if __name__ == "__main__":
    import sys

    print(main(sys.argv[1:]), end="")
