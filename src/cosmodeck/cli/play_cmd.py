"""``cosmodeck play GAME``: play in the terminal, any mix of human and bot seats.

Turn-based games run the loop below; real-time games provide their own ``play`` in
``cli/boards/<game>.py`` (the host clock lives there, never in the engine).
"""

from __future__ import annotations

import argparse
import importlib
import time
from types import ModuleType
from typing import Any

from rich.console import Console

from cosmodeck.api import load_game
from cosmodeck.bots.registry import make_bot, sees_state
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State

HUMAN = "human"


def add_parser(sub: Any) -> None:
    from cosmodeck.cli.simulate_cmd import add_lenient_arg

    p = sub.add_parser("play", help="play in the terminal against bots or friends (hot seat)")
    p.add_argument("game")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum, at least 2)")
    p.add_argument("--bots", help="per seat: 'human' or a bot name, comma-separated "
                                  "(default: seat 0 human, the others random)")
    p.add_argument("--seed", type=int, help="game seed (default: random)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable); the value is JSON or a string")
    p.add_argument("--delay", type=float, default=None, help="seconds between resolution steps")
    p.add_argument("--data", help="a card-data file to use instead of the default")
    add_lenient_arg(p)
    p.set_defaults(func=run)


def board_module(game_id: str) -> ModuleType:
    return importlib.import_module(f"cosmodeck.cli.boards.{game_id.replace('-', '_')}")


def seat_plan(spec: str | None, players: int) -> list[str]:
    if spec is None:
        return [HUMAN] + ["random"] * (players - 1)
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise SystemExit(f"cosmodeck play: --bots names {len(parts)} seats for {players} players")
    return parts


def run(args: argparse.Namespace) -> int:
    from cosmodeck.cli.simulate_cmd import data_input, parse_option, print_data_warnings

    options = dict(parse_option(o) for o in args.option)
    game = load_game(args.game, data=data_input(args.data, args.lenient), lenient=args.lenient, **options)
    print_data_warnings("play", game)
    players = args.players if args.players is not None else max(2, game.info.min_players)
    lo, hi = game.info.min_players, game.info.max_players
    if not lo <= players <= hi:
        raise SystemExit(f"cosmodeck play: {game.info.name} takes {lo}-{hi} players, not {players}")
    plan = seat_plan(args.bots, players)
    seed = args.seed if args.seed is not None else int(time.time_ns() % 1_000_000_007)
    humans = {i for i, p in enumerate(plan) if p == HUMAN}
    bots = {i: p for i, p in enumerate(plan) if p != HUMAN}
    for spec in bots.values():
        try:
            bot = make_bot(game.id, spec, game)  # validate names and parameters before the game starts
        except ValueError as e:
            raise SystemExit(f"cosmodeck play: error: {e}") from None
        if sees_state(bot):
            raise SystemExit(f"cosmodeck play: bot {spec!r} reads every hidden card: it is for simulate only")
    console = Console()
    board = board_module(game.id)
    console.print(f"[bold]{game.info.name}[/] · {players} players · seed {seed} · "
                  + ", ".join(f"seat {i}: {p}" for i, p in enumerate(plan)))
    if hasattr(board, "play"):
        board.play(game, humans, bots, seed, console)
        return 0
    delay = args.delay if args.delay is not None else (0.35 if console.is_terminal else 0.0)
    play_turn_based(game.new_game(players=players, seed=seed), humans, bots, board, console, delay)
    return 0


def show_events(events: list[Event], seat: int | None, board: ModuleType, console: Console, delay: float) -> None:
    visible = [d for d in (e.for_seat(seat) for e in events) if d is not None]
    for line in board.event_lines(visible):
        console.print(f"  {line}")
        if delay:
            time.sleep(delay)


def play_turn_based(state: State, humans: set[int], bots: dict[int, str], board: ModuleType,
                    console: Console, delay: float) -> None:
    rng = Rng(derive_seed(state.seed, 0xB07))
    bot_objs = {i: make_bot(state.game.id, spec, state.game) for i, spec in bots.items()}
    watcher: int | None = min(humans) if len(humans) == 1 else None
    while not state.is_over:
        to_act = state.to_act
        if not to_act:
            deadline = state.next_deadline()
            if deadline is None:
                raise RuntimeError("nobody may act")
            show_events(state.advance(deadline), watcher, board, console, delay)
            continue
        seat = min(to_act)
        if seat in humans:
            action = ask_human(state, seat, board, console)
            if action is None:
                console.print("Game abandoned.")
                return
        else:
            action = bot_objs[seat].act(state.view(seat), state.legal_actions(seat), rng)
        events = state.apply(seat, action)
        show_events(events, watcher if watcher is not None else seat if seat in humans else None,
                    board, console, delay)
    console.rule("Game over")
    board.render(state.view(watcher), console)


def ask_human(state: State, seat: int, board: ModuleType, console: Console) -> Any | None:
    console.rule(f"Seat {seat} to act")
    board.render(state.view(seat), console)
    legal = state.legal_actions(seat)
    console.print(board.action_help())
    if len(legal) <= 40:
        for i, a in enumerate(legal, 1):
            console.print(f"  [cyan]{i:>2}[/] {a}")
    else:
        console.print(f"  {len(legal)} legal actions; type [cyan]?[/] to list them all")
    while True:
        try:
            text = console.input(f"[bold]seat {seat}>[/] ").strip()
        except EOFError:
            return None
        if text in ("q", "quit", "exit"):
            return None
        if text in ("?", "list"):
            console.print("  " + "   ".join(str(a) for a in legal))
            continue
        if text in ("v", "view", ""):
            board.render(state.view(seat), console)
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        try:
            action = state.game.parse_action(text)
        except CosmodeckError as e:
            console.print(f"[red]{e.message}[/]")
            continue
        if state.is_legal(seat, action):
            return action
        try:
            state._precheck(seat, action)
        except CosmodeckError as e:
            console.print(f"[red]not allowed: {e.message}[/]")


