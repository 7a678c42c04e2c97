"""``cosmodeck simulate``: many seeded games with bots, summarised with intervals."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cosmodeck.api import read_input
from cosmodeck.engine.game import Game
from cosmodeck.engine.options import TextInput
from cosmodeck.sim.batch import MAX_DECISIONS, SimSpec
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.simulate import simulate

BOTS_HELP = ("one bot for every seat, or one per seat, comma-separated: random, heuristic, ismcts; "
             "parameters after a colon, separated by ';' (e.g. 'ismcts:iters=200;c=0.7', 'heuristic:level=hard'). "
             "ismcts:iters=N is deterministic; ismcts:ms=M is a wall-clock budget, so results then depend "
             "on the machine and its load")


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is JSON when it parses as JSON, else a string."""
    key, eq, raw = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"option {text!r} is not key=value")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help="simulate many games with bots and report balance statistics")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="random", help=BOTS_HELP)
    add_run_args(p)
    p.add_argument("--data", help="a card-data file to use instead of the default")
    add_lenient_arg(p)
    p.add_argument("--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable); the value is JSON or a string")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--report", metavar="DIR", help="write an HTML report with plots, JSON and CSV to DIR")
    p.set_defaults(func=run)


def add_run_args(p: argparse.ArgumentParser) -> None:
    """--workers, --backend, --address, --max-decisions (shared by simulate, compare and tournament)."""
    p.add_argument("--workers", type=int, default=1, help="parallel workers (processes, or Ray CPUs)")
    p.add_argument("--backend", default="local", choices=["local", "ray"],
                   help="where games run: local processes, or Ray (same numbers for the same seed)")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="an existing Ray cluster (with --backend ray); default: start a local one")
    p.add_argument("--max-decisions", type=positive_int, default=MAX_DECISIONS, metavar="N",
                   help=f"stop a game after N decisions and count it as unfinished, a draw nobody wins "
                        f"(default {MAX_DECISIONS:,}; some rules and bots make games that never end)")


def add_lenient_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lenient", action="store_true",
                   help="design mode: a data file that breaks a design invariant (card counts, mission values, "
                        "priorities...) loads with warnings; what the engine needs is still an error")


def data_input(path: str | None, lenient: bool) -> TextInput | None:
    """The user's data file (None: the game's default data), marked lenient when asked."""
    if path is None:
        return None
    text = read_input(path)
    return replace(text, lenient=True) if lenient else text


def print_data_warnings(command: str, game: Game[Any], label: str = "") -> None:
    """The data file's warnings (``game.data.warnings``) on stderr, one sentence a line."""
    for w in getattr(game.data, "warnings", ()):
        print(f"cosmodeck {command}: warning: {label}{game.data_input.source}: {w}", file=sys.stderr)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


@contextmanager
def progress_bar(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal (silent otherwise)."""
    err = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda k: progress.advance(task, k)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise SystemExit("cosmodeck simulate: --games must be at least 1")
    spec = SimSpec(
        game=args.game, players=args.players, games=args.games, seed=args.seed, bots=args.bots,
        data=data_input(args.data, args.lenient), options=dict(args.option),
        max_decisions=args.max_decisions,
    )
    outcomes: list[GameOutcome] = []
    try:
        print_data_warnings("simulate", spec.load())
        with progress_bar(f"{args.game} x{args.players}", args.games) as advance:
            summary = simulate(spec, workers=args.workers, backend=args.backend, progress=advance,
                               address=args.address, keep_outcomes=outcomes)
    except ValueError as e:
        print(f"cosmodeck simulate: error: {e}", file=sys.stderr)
        return 2
    if args.report:
        from cosmodeck.sim.report import simulate_report

        page = simulate_report(args.report, summary, outcomes)
        print(f"report: {page}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary)
    return 0


def print_summary(s: dict[str, Any]) -> None:
    from cosmodeck.sim.report.simulate import options_text, summary_rows
    from cosmodeck.sim.report.tables import unit_table

    console = Console()
    console.print(f"[bold]{s['game']}[/] · {s['players']} players · {s['games']} games · seed {s['seed']} · "
                  f"bots {s['bots']}")
    if s.get("bound"):
        console.print(f"[bold yellow]{s['bound']}[/]", markup=True)
    data = s["data"] or "the game's default data"
    console.print(f"timing: [bold]{s.get('timing', '-')}[/] · card data: {data} (hash {s.get('data_hash', '?')})")
    console.print(f"options used: {options_text(s.get('options_used'))}", markup=False)
    console.print(f"{s['games_per_s']} games/s, {s['decisions_per_s']} decisions/s")
    table = Table("measure", "value", "95% CI", title="summary")
    for row in summary_rows(s):
        table.add_row(*row)
    console.print(table)
    for key, title in (("per_card", "cards"), ("per_mission", "missions")):
        if not s.get(key):
            continue
        header, rows = unit_table(s, key)
        shown = [r for r in rows if r[1].split()[0] != "0"][:12]
        t = Table(*header, title=f"{title}: the {len(shown)} with the biggest effect on winning "
                                 "(all of them: --report or --json)")
        for r in shown:
            t.add_row(*r)
        console.print(t)
