"""``cosmodeck benchmark``: random-playout speed per game (games/s, decisions/s, clone()/s)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from cosmodeck.api import list_games, load_game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.sim.runner import random_playout


def add_parser(sub: Any) -> None:
    p = sub.add_parser("benchmark", help="measure random-playout speed of each game")
    p.add_argument("games", nargs="*", help="game ids (default: all)")
    p.add_argument("--players", type=int, help="player count (default: each game's minimum)")
    p.add_argument("--seconds", type=float, default=3.0, help="time budget per measurement")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def measure(game_id: str, players: int | None, seconds: float) -> dict[str, Any]:
    game = load_game(game_id)
    n = players or game.info.min_players
    games = decisions = 0
    t0 = time.perf_counter()
    states: list[State] = []
    while time.perf_counter() - t0 < seconds:
        seed = derive_seed(1234, games)
        state = game.new_game(players=n, seed=seed)
        decisions += random_playout(state, Rng(seed))
        games += 1
        if len(states) < 64:
            states.append(state)
    play_s = time.perf_counter() - t0
    # clone() on mid-game states: replay the first half of each recorded game.
    mids = []
    for st in states:
        rec = st.record()
        half = game.new_game(players=n, seed=st.seed)
        log = rec["log"][: len(rec["log"]) // 2]
        for entry in log:
            if len(entry) == 2:
                half.advance(entry[0])
            else:
                half.apply(entry[1], entry[2], at=entry[0])
        mids.append(half)
    clones = 0
    t1 = time.perf_counter()
    while time.perf_counter() - t1 < seconds / 2:
        for st in mids:
            st.clone()
        clones += len(mids)
    clone_s = time.perf_counter() - t1
    return {
        "game": game_id, "players": n, "games": games, "decisions": decisions,
        "games_per_s": round(games / play_s, 1), "decisions_per_s": round(decisions / play_s, 1),
        "clones_per_s": round(clones / clone_s, 1),
    }


def run(args: argparse.Namespace) -> int:
    rows = [measure(g, args.players, args.seconds) for g in (args.games or list_games())]
    if args.json:
        print(json.dumps(rows))
        return 0
    table = Table("game", "players", "games/s", "decisions/s", "clone()/s", title="random playouts, one core")
    for r in rows:
        table.add_row(r["game"], str(r["players"]), f"{r['games_per_s']:,}", f"{r['decisions_per_s']:,}",
                      f"{r['clones_per_s']:,}")
    Console().print(table)
    return 0
