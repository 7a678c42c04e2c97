"""``cosmodeck replay FILE [--check]``: rebuild a recorded game, and check it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from cosmodeck.api import replay
from cosmodeck.engine.errors import StateFormatError


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a game record (JSON)")
    p.add_argument("file")
    p.add_argument("--check", action="store_true", help="verify that the record replays to its recorded result")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    console = Console()
    try:
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as e:
        raise StateFormatError(f"{args.file}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise StateFormatError(f"{args.file}: not JSON: {e}") from None
    state = replay(record)
    result = state.result
    replayed = None if result is None else result.to_dict()
    actions = sum(1 for e in record.get("log", []) if not (len(e) == 2 and e[1] == "advance"))
    console.print(f"{record['game']}: {record['players']} players, seed {record['seed']}, {actions} actions replayed")
    console.print(f"final game time {state.now:g} s; over: {state.is_over}")
    if replayed is not None:
        console.print(f"result: {replayed['reason']}, winners {replayed['winners']}, scores {replayed['scores']}")
    if args.check:
        recorded = record.get("result")
        if recorded != replayed:
            console.print("[red]check failed[/]: the replayed result differs from the recorded one")
            console.print(f"recorded: {recorded}\nreplayed: {replayed}")
            return 1
        if state.record()["log"] != record["log"]:
            console.print("[red]check failed[/]: the replayed log differs from the record")
            return 1
        console.print("[green]check passed[/]: the record replays exactly")
    return 0
