"""``cosmodeck compare``: A/B of two card-data files, option sets or bot line-ups on the same seeds."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from cosmodeck.cli.simulate_cmd import (
    BOTS_HELP,
    add_lenient_arg,
    add_run_args,
    data_input,
    parse_option,
    print_data_warnings,
    progress_bar,
)
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.compare import compare
from cosmodeck.sim.runner import GameOutcome


def add_parser(sub: Any) -> None:
    p = sub.add_parser("compare", help="A/B: compare two card-data files or option sets on the same seeds")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, default=1000, help="games for each of A and B (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic",
                   help=BOTS_HELP + " (default heuristic, as in the lab: random bots play any legal move, so a "
                   "card or mission change often shows no effect with them)")
    p.add_argument("--a-bots", help="bots of A only (default: --bots)")
    p.add_argument("--b-bots", help="bots of B only (default: --bots)")
    p.add_argument("--a-data", help="card-data file of A (default: the game's default data)")
    p.add_argument("--b-data", help="card-data file of B (default: the game's default data)")
    p.add_argument("--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                   help="an option for both A and B (repeatable)")
    p.add_argument("--a-option", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                   help="an option for A only (repeatable)")
    p.add_argument("--b-option", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                   help="an option for B only (repeatable)")
    add_run_args(p)
    add_lenient_arg(p)
    p.add_argument("--all", action="store_true", help="list every metric, not only the significant ones")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--report", metavar="DIR", help="write an HTML report with plots, JSON and CSV to DIR")
    p.set_defaults(func=run)


def _label(data: str | None, options: dict[str, Any], bots: str) -> str:
    """``heuristic bots, card data from b.json, timing steps``."""
    parts = [f"{bots} bots", f"card data from {data}" if data else "the default card data"]
    parts += [f"{k.replace('_', ' ')} {v if isinstance(v, str) else json.dumps(v)}" for k, v in options.items()]
    return ", ".join(parts)


def run(args: argparse.Namespace) -> int:
    if args.games < 2:
        raise SystemExit("cosmodeck compare: --games must be at least 2")
    common = dict(args.option)
    a_opts, b_opts = {**common, **dict(args.a_option)}, {**common, **dict(args.b_option)}
    a_bots, b_bots = args.a_bots or args.bots, args.b_bots or args.bots
    if args.a_data == args.b_data and a_opts == b_opts and a_bots == b_bots:
        print("cosmodeck compare: A and B are the same (give --a-data/--b-data, --a-option/--b-option "
              "or --a-bots/--b-bots)", file=sys.stderr)
        return 2
    spec_a = SimSpec(args.game, args.players, args.games, args.seed, a_bots,
                     data_input(args.a_data, args.lenient), a_opts, args.max_decisions)
    spec_b = SimSpec(args.game, args.players, args.games, args.seed, b_bots,
                     data_input(args.b_data, args.lenient), b_opts, args.max_decisions)
    keep: dict[str, list[GameOutcome]] = {}
    try:
        print_data_warnings("compare", spec_a.load(), "A: ")
        print_data_warnings("compare", spec_b.load(), "B: ")
        with progress_bar(f"{args.game} A/B", 2 * args.games) as advance:
            result = compare(spec_a, spec_b, args.workers, args.backend, args.address, advance,
                             (_label(args.a_data, a_opts, a_bots), _label(args.b_data, b_opts, b_bots)), keep)
    except ValueError as e:
        print(f"cosmodeck compare: error: {e}", file=sys.stderr)
        return 2
    if args.report:
        from cosmodeck.sim.report import compare_report

        page = compare_report(args.report, result)
        print(f"report: {page}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    console = Console()
    console.print(f"[bold]{result['game']}[/] · {result['players']} players · {result['games']} games each · "
                  f"seed {result['seed']} · bots {result['bots']}")
    console.print(f"A: {result['a']['label']}\nB: {result['b']['label']}")
    rows = [r for r in result["differences"] if args.all or r["significant"]]
    from cosmodeck.sim.report.names import result_names
    from cosmodeck.sim.report.tables import difference_rows

    table = _table("differences", *difference_rows(rows, result_names(result))[:2])
    console.print(table)
    n_sig = len(result["significant"])
    console.print(f"{n_sig} of {len(result['differences'])} differences are significant at 95%"
                  + ("" if args.all else " (--all lists every metric)"))
    _print_units(console, result, args.all)
    return 0


def _table(title: str, header: list[str], body: list[list[str]]) -> Table:
    """The report page's difference rows as a terminal table: the measure wraps, the numbers never do, and the
    page's two significance columns are one ("after Holm", "at 95%" without Holm's correction, or "no")."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column(header[0], ratio=1, min_width=14)
    for name in [*header[1:6], "significant"]:
        table.add_column(name, justify="right", no_wrap=True)
    for row in body:
        table.add_row(*row[:6], "after Holm" if row[7] == "yes" else "at 95%" if row[6] == "yes" else "no")
    return table


def _print_units(console: Console, result: dict[str, Any], every: bool) -> None:
    """The card and mission measures that moved (Holm), then what changed in sentences."""
    from cosmodeck.sim.report.names import result_names
    from cosmodeck.sim.report.tables import difference_rows, what_changed

    units = sorted(result["units"], key=lambda u: u["p_value"])
    shown = units if every else [u for u in units if u["significant"]]
    if shown:
        console.print(_table("cards and missions", *difference_rows(shown, result_names(result))[:2]))
    if result.get("data_changes"):
        console.print("[bold]What differs in the card data[/]")
        for line in result["data_changes"]:
            console.print(f"- {line}", markup=False)
    console.print("[bold]What changed[/]")
    for line in what_changed(result):
        console.print(f"- {line}", markup=False)
