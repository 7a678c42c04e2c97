"""``cosmodeck``: one command with subcommands (see DESIGN.md "CLI")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cosmodeck._version import __version__
from cosmodeck.cli import (
    bench_cmd,
    compare_cmd,
    games_cmd,
    play_cmd,
    replay_cmd,
    serve_cmd,
    simulate_cmd,
    tournament_cmd,
)
from cosmodeck.engine.errors import CosmodeckError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cosmodeck",
        description="Play, simulate and study the space card games Meteor, Blast Off! and Shooting Star.",
    )
    parser.add_argument("--version", action="version", version=f"cosmodeck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    games_cmd.add_parsers(sub)
    play_cmd.add_parser(sub)
    simulate_cmd.add_parser(sub)
    compare_cmd.add_parser(sub)
    tournament_cmd.add_parser(sub)
    replay_cmd.add_parser(sub)
    bench_cmd.add_parser(sub)
    serve_cmd.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except CosmodeckError as e:
        print(f"cosmodeck: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
