"""cosmodeck: faithful, data-driven engines for Meteor, Blast Off! and Shooting Star.

>>> import cosmodeck
>>> "shooting-star" in cosmodeck.list_games()
True
>>> game = cosmodeck.load_game("shooting-star")
>>> state = game.new_game(players=2, seed=7)
>>> sorted(state.to_act) == [state.view(None)["invader"]]
True
"""

from cosmodeck._version import __version__
from cosmodeck.api import list_games, load_game, replay
from cosmodeck.engine import (
    CosmodeckError,
    DataError,
    Event,
    Game,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordFormatError,
    Result,
    State,
    StateFormatError,
)

__all__ = [
    "CosmodeckError",
    "DataError",
    "Event",
    "Game",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "RecordFormatError",
    "Result",
    "State",
    "StateFormatError",
    "__version__",
    "list_games",
    "load_game",
    "replay",
]
