"""The Meteor game definition: static facts, options (MET-D5) and card data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game, GameInfo
from cosmodeck.engine.options import Option, TextInput, boolean, number
from cosmodeck.games.meteor import actions, loader, setup
from cosmodeck.games.meteor.cards import MeteorData
from cosmodeck.games.meteor.state import MeteorState
from cosmodeck.games.meteor.view import catalogue


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else "must be a string"


class MeteorGame(Game[MeteorState]):
    """Meteor: real-time, cooperative, 1-5 players (rules/meteor.md)."""

    info = GameInfo(
        id="meteor",
        name="Meteor",
        min_players=1,
        max_players=5,
        real_time=True,
        hidden_info=True,
        simultaneous=True,
        cooperative=True,
    )
    text_paths = (("texts",), ("standard_meteors", "*", "name"), ("boss_meteors", "*", "name"))
    # the packaged file before its texts section, and with the texts before the launch sites' names
    previous_data = MappingProxyType({"ff1be6131dc5c6e8": "74a8cef720d1d2ac", "eb72f2cfef29ef62": "74a8cef720d1d2ac",
                                      "1bfbcf0d497cb938": "74a8cef720d1d2ac"})
    option_specs = (
        Option("difficulty", "standard", check=_text, doc="standard, advanced or expert (R16)"),
        Option("first_game", False, check=boolean, doc="meteors face up, free talk (R14)"),
        Option("zone_timer_s", 60, check=number(1, 3600), doc="length of each sand timer (MET-2.5)"),
        Option("volley_window_s", 3, check=number(0, 60), doc="volley window; 0 resolves each launch alone (R8)"),
        Option("allow_any_timeout", False, check=boolean, doc="any player may call a Time Out (R13)"),
        Option("allow_meteor_mulligan", True, check=boolean, doc="the host may redeal the field once (R15)"),
        Option("one_handed_interval_s", 2, check=number(0, 60), doc="One-Handed (C03) minimum gap"),
        Option("countdown_s", 3, check=number(0, 60), doc="Countdown (C11) launch delay"),
    )

    def build_catalogue(self) -> dict[str, Any]:
        return catalogue(self.data)

    def parse_data(self, data_input: TextInput) -> MeteorData:
        return loader.parse_data(data_input)

    def data_default_options(self, parsed: Any) -> Mapping[str, Any] | None:
        assert isinstance(parsed, MeteorData)
        return parsed.default_options

    def check_options(self, options: Mapping[str, Any]) -> None:
        levels = self.data.difficulty
        if options["difficulty"] not in levels:
            raise OptionError(f"option 'difficulty': {options['difficulty']!r} is not one of "
                              f"{', '.join(map(repr, sorted(levels)))}")

    def _new_state(self, players: int, seed: int) -> MeteorState:
        return setup.new_state(self, players, seed)

    def parse_action(self, text: str) -> actions.MeteorAction:
        return actions.parse_action(text)

    def _state_class(self) -> type[MeteorState]:
        return MeteorState

    def position(self, hands: Sequence[Sequence[str]], **zones: Any) -> MeteorState:
        """A validated state from named zones: see ``meteor.position.position`` and docs/state-formats.md."""
        from cosmodeck.games.meteor.position import position

        return position(self, hands, **zones)
