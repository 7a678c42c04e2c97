"""Game-agnostic core: pure data and transitions. No clock, no I/O, no global random."""

from cosmodeck.engine.errors import (
    CosmodeckError,
    DataError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordFormatError,
    StateFormatError,
    UnknownGameError,
)
from cosmodeck.engine.events import Event, redact
from cosmodeck.engine.game import Game, GameInfo
from cosmodeck.engine.options import Option, TextInput
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import Action, State

__all__ = [
    "Action",
    "CosmodeckError",
    "DataError",
    "Event",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "Option",
    "OptionError",
    "RecordFormatError",
    "Result",
    "Rng",
    "State",
    "StateFormatError",
    "TextInput",
    "UnknownGameError",
    "derive_seed",
    "redact",
]
