"""What a room does when storage fails: the client's error, and the back-off of the scheduler's retries."""

from __future__ import annotations

from cosmodeck.server.protocol import ProtocolError


def storage_unavailable() -> ProtocolError:
    return ProtocolError("storage_unavailable",
                         "the game could not be saved just now, so nothing changed: try again in a moment")

FIRST_DELAY_S = 0.25
MAX_DELAY_S = 5.0


def room_moved() -> ProtocolError:
    return ProtocolError("room_moved", "this room has to be reloaded from storage: reconnecting")


class Backoff:
    """After a failed write the scheduler waits 0.25 s, then twice as long after each further
    failure (at most 5 s), so a database outage never becomes a hot loop. A success resets it."""

    def __init__(self) -> None:
        self.delay = 0.0
        self.until: float | None = None

    def fail(self, now: float) -> bool:
        """Record a failure at wall time ``now``; True if it is the first of a run (worth a log line)."""
        first = self.until is None
        self.delay = FIRST_DELAY_S if first else min(MAX_DELAY_S, self.delay * 2)
        self.until = now + self.delay
        return first

    def succeed(self) -> bool:
        """Record a success; True if it ends a run of failures."""
        was_failing = self.until is not None
        self.delay, self.until = 0.0, None
        return was_failing

    def not_before(self, wall: float) -> float:
        """``wall``, or later if a retry is not due yet."""
        return wall if self.until is None else max(wall, self.until)
