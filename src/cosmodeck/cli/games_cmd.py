"""``cosmodeck games`` and ``cosmodeck rules GAME --lang en|es``."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from cosmodeck.api import game_spec, list_games, load_game


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("games", help="list the games")
    p.set_defaults(func=run_games)
    r = sub.add_parser("rules", help="show a game's rules (English spec or the Spanish original)")
    r.add_argument("game")
    r.add_argument("--lang", choices=["en", "es"], default="en")
    r.add_argument("--plain", action="store_true", help="print the raw text (no formatting)")
    r.set_defaults(func=run_rules)


def run_games(args: argparse.Namespace) -> int:
    console = Console()
    table = Table(title="cosmodeck games")
    for col in ("id", "name", "players", "kind"):
        table.add_column(col)
    for gid in list_games():
        info = load_game(gid).info
        kind = ", ".join(
            k for k, on in (("real-time", info.real_time), ("cooperative", info.cooperative),
                            ("hidden information", info.hidden_info), ("simultaneous", info.simultaneous)) if on
        )
        table.add_row(gid, info.name, f"{info.min_players}-{info.max_players}", kind)
    if console.is_terminal:
        console.print(table)
    else:
        for gid in list_games():
            print(gid)
    return 0


def rules_text(game_id: str, lang: str) -> str:
    spec = game_spec(game_id)
    base = resources.files("cosmodeck.rules")
    path = base.joinpath(spec.rules_en) if lang == "en" else base.joinpath("es").joinpath(spec.rules_es)
    return path.read_text(encoding="utf-8")


def run_rules(args: argparse.Namespace) -> int:
    text = rules_text(args.game, args.lang)
    console = Console()
    if args.plain or not console.is_terminal:
        sys.stdout.write(text)
        return 0
    with console.pager(styles=True):
        console.print(Markdown(text) if args.lang == "en" else text)
    return 0
