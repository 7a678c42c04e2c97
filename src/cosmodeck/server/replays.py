"""The replay viewer's data: every step of a finished game as one seat (or a spectator) saw it."""

from __future__ import annotations

from typing import Any

from cosmodeck.api import game_from_header
from cosmodeck.engine.events import Event
from cosmodeck.engine.state import State
from cosmodeck.storage.repository import RoomRow, Step


def replay_steps(row: RoomRow, steps: list[Step], seat: int | None) -> dict[str, Any]:
    """Views and redacted events after each stored step, from the start of the game."""
    game = game_from_header(row.header)
    state = game.new_game(players=row.players, seed=row.seed)
    frames: list[dict[str, Any]] = [{"index": 0, "step": None, "events": [], "view": state.view(seat)}]
    for i, step in enumerate(steps, start=1):
        events = state.advance(step.at) if step.seat is None else state.apply(step.seat, step.action, at=step.at)
        frames.append({
            "index": i,
            "step": step.to_json(),
            "events": [d for d in (e.for_seat(seat) for e in events) if d is not None],
            "view": state.view(seat),
        })
    return {"room": row.id, "game": row.game, "players": row.players, "seat": seat, "frames": frames,
            "result": row.result}


def replay_tail(state: State, steps: list[Step], first_version: int) -> list[tuple[int, list[Event]]]:
    """Apply ``steps`` to ``state`` (the rest of a stored game) and return each step's events with the
    room version after it: a reloaded room resends them to clients that join (their log)."""
    out: list[tuple[int, list[Event]]] = []
    for i, step in enumerate(steps):
        events = state.advance(step.at) if step.seat is None else state.apply(step.seat, step.action, at=step.at)
        if events:
            out.append((first_version + i, events))
    return out
