"""Typed errors with stable codes.

Every error a caller can provoke with bad input is a ``ValueError`` subclass carrying a
stable machine-readable ``code`` and a human message. The server forwards ``code`` to
clients; tests assert on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cosmodeck.engine.events import Event


class CosmodeckError(ValueError):
    """Base class: a ``ValueError`` with a stable ``code``."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class IllegalActionError(CosmodeckError):
    """An action was refused. The state is unchanged by the action itself.

    If the action carried a time ``at`` later than pending deadlines, those deadlines were
    processed first (time passed regardless); their events are in ``events``.
    """

    code = "illegal_action"

    def __init__(self, message: str, code: str | None = None, events: Sequence[Event] = ()) -> None:
        super().__init__(message, code)
        self.events: list[Event] = list(events)


class NotationError(CosmodeckError):
    """Text that does not parse as an action of the game."""

    code = "bad_notation"


class OptionError(CosmodeckError):
    """An unknown game option or an option value out of range."""

    code = "bad_option"


class DataError(CosmodeckError):
    """A card-data file that fails validation: names the file, the field and the problem."""

    code = "bad_data"

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: {field}: {problem}")


class StateFormatError(CosmodeckError):
    """A serialized state or record that cannot be loaded; ``field`` names the offending field."""

    code = "bad_state"

    def __init__(self, message: str, code: str | None = None, field: str | None = None) -> None:
        super().__init__(message, code)
        self.field = field


class RecordFormatError(StateFormatError):
    """A game record that ``replay`` refuses: malformed header or log, or a log that does not replay."""

    code = "bad_record"


class UnknownGameError(CosmodeckError):
    code = "unknown_game"
