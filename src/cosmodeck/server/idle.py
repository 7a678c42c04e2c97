"""Idle seats and the host: who is on the turn timer, which human seats a bot plays for now, votes.

A **turn-based step** is one where a human seat may act while the game itself runs no timer (no
pending deadline): every placement of Shooting Star, a turn of Blast Off! (play, draw, pass; not
its countdown race, which is the game's own deadline), never Meteor (real time: its sand timer is
the game's own clock). Such a seat has ``ServerConfig.turn_s`` seconds from the moment its step
began; when they run out, or when every other connected human votes for it, or when the host
kicks it, the room's idle bot plays the seat until its person acts again (any accepted action, or
the ``back`` message). The bot sees only that seat's view (it moves like any bot of the room).

The book (host, replaced seats, votes, the rematch room) is stored with the room (the
``room_extras`` table), so a restarted server resumes it; the moves a bot made for a seat are the
seat's stored steps since the takeover, so they need no writes of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cosmodeck.engine.state import State
from cosmodeck.storage.repository import Step

UNTIMED_GAMES = frozenset({"meteor"})  # real time, with the game's own sand timer
REASONS = ("timeout", "vote", "kick")


def timed_seats(state: State) -> frozenset[int]:
    """The seats whose turn timer runs in ``state`` (see the module docstring)."""
    if state.game.id in UNTIMED_GAMES or state.is_over or state.next_deadline() is not None:
        return frozenset()
    return frozenset(state.to_act)


@dataclass
class Replaced:
    """A human seat a bot plays while its person is idle."""

    reason: str  # timeout | vote | kick
    since: int  # the room's version when the bot took the seat
    moves: list[str] = field(default_factory=list)  # what the bot played for it (notation)


@dataclass
class Book:
    host: int | None = None
    replaced: dict[int, Replaced] = field(default_factory=dict)
    votes: dict[int, set[int]] = field(default_factory=dict)  # target seat -> seats that voted for a bot
    rematch: str | None = None  # the room the host's rematch created

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"host": self.host}
        if self.replaced:
            out["idle"] = {str(s): {"reason": r.reason, "since": r.since} for s, r in sorted(self.replaced.items())}
        if any(self.votes.values()):
            out["votes"] = {str(s): sorted(v) for s, v in sorted(self.votes.items()) if v}
        if self.rematch is not None:
            out["rematch"] = self.rematch
        return out

    def copy(self) -> Book:
        return Book(self.host, {s: Replaced(r.reason, r.since, list(r.moves)) for s, r in self.replaced.items()},
                    {s: set(v) for s, v in self.votes.items()}, self.rematch)

    @classmethod
    def load(cls, data: dict[str, Any], default_host: int | None, steps: list[Step]) -> Book:
        """The stored book; a replaced seat's moves are its stored steps since the takeover."""
        host = data.get("host", default_host)
        book = cls(host=host if isinstance(host, int) else default_host)
        for key, rec in (data.get("idle") or {}).items():
            seat, since = int(key), int(rec["since"])
            moves = [s.action for s in steps[since:] if s.seat == seat and s.action is not None]
            book.replaced[seat] = Replaced(str(rec["reason"]), since, moves)
        for key, voters in (data.get("votes") or {}).items():
            book.votes[int(key)] = {int(v) for v in voters}
        rematch = data.get("rematch")
        book.rematch = rematch if isinstance(rematch, str) else None
        return book
