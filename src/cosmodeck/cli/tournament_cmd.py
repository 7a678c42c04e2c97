"""``cosmodeck tournament``: a round robin between bots (seats rotated), rated with TrueSkill."""

from __future__ import annotations

import argparse
import json
import sys
from itertools import combinations
from typing import Any

from rich.console import Console
from rich.table import Table

from cosmodeck.api import read_input
from cosmodeck.bots.base import parse_bot_spec
from cosmodeck.cli.simulate_cmd import add_run_args, parse_option, progress_bar
from cosmodeck.sim.tournament import tournament


def add_parser(sub: Any) -> None:
    p = sub.add_parser("tournament", help="round robin between bots with TrueSkill ratings")
    p.add_argument("game")
    p.add_argument("--bots", required=True,
                   help="comma-separated bot specs, e.g. 'random,heuristic,ismcts:iters=200' "
                        "(ismcts:ms=M is a wall-clock budget: results then depend on the machine)")
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--games", type=int, default=50, help="games per seating of each group (default 50)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", help="a card-data file to use instead of the default")
    p.add_argument("--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE")
    add_run_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--report", metavar="DIR", help="write an HTML report with plots, JSON and CSV to DIR")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        for b in bots:
            parse_bot_spec(b)
        groups = len(list(combinations(bots, args.players)))
        with progress_bar(f"{args.game} tournament", groups * args.players * args.games) as advance:
            result = tournament(args.game, bots, args.players, args.games, args.seed,
                                read_input(args.data) if args.data else None, dict(args.option), args.workers,
                                args.backend, args.address, advance, args.max_decisions)
    except ValueError as e:
        print(f"cosmodeck tournament: error: {e}", file=sys.stderr)
        return 2
    if args.report:
        from cosmodeck.sim.report import tournament_report

        page = tournament_report(args.report, result)
        print(f"report: {page}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    console = Console()
    console.print(f"[bold]{result['game']}[/] · {result['players']} players · {result['games']} games · "
                  f"seed {result['seed']}")
    table = Table("bot", "TrueSkill mu", "95% interval", "mu - 3 sigma", "games", "win rate", "95% CI",
                  title="ratings")
    for r in result["ratings"]:
        table.add_row(r["bot"], f"{r['mu']:.2f}", f"{r['ci95'][0]:.2f}-{r['ci95'][1]:.2f}",
                      f"{r['conservative']:.2f}", str(r["games"]), f"{r['win_rate']:.3f}",
                      f"{r['win_ci95'][0]:.3f}-{r['win_ci95'][1]:.3f}")
    console.print(table)
    pairs = Table("A", "B", "games", "A's score", "95% CI", title="head to head (win 1, tie 1/2)")
    for p in result["pairs"]:
        pairs.add_row(p["a"], p["b"], str(p["games"]), f"{p['a_score']:.3f}", f"{p['ci95'][0]:.3f}-{p['ci95'][1]:.3f}")
    console.print(pairs)
    return 0
