"""A game definition: static facts, options and card data, with a factory for states."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cosmodeck.engine.errors import OptionError, StateFormatError
from cosmodeck.engine.options import Option, TextInput, resolve_options

if TYPE_CHECKING:
    from cosmodeck.engine.state import Action, State

S = TypeVar("S", bound="State")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static facts about a game, used by the registry, the conformance suite and RL."""

    id: str
    name: str
    min_players: int
    max_players: int
    real_time: bool
    hidden_info: bool
    simultaneous: bool
    cooperative: bool
    num_distinct_actions: int | None = None


class Game(ABC, Generic[S]):
    """Immutable definition: options + card data. ``new_game`` makes seeded states."""

    # The class's facts; a definition may refine them from its options (e.g. a timing option
    # that makes a real-time game turn-based) by assigning ``self.info`` in ``__init__``.
    info: GameInfo
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # Use the game's fast path where it has one (identical results, proved by differential tests;
    # docs/ENGINE.md). ``load_game(..., fast=False)`` runs the readable reference rules only.
    fast: bool = True

    def __init__(self, data: TextInput, options: Mapping[str, Any] | None = None) -> None:
        self.data_input = data
        # Actions objects already found well-formed (by identity; see State._action): a cache, not state.
        self.checked_actions: dict[int, Any] = {}
        parsed = self.parse_data(data)
        self.data: Any = parsed
        resolved = resolve_options(self.option_specs, dict(options or {}), self.data_default_options(parsed))
        self.options: Mapping[str, Any] = MappingProxyType(resolved)
        self.check_options(self.options)

    # ---- hooks -------------------------------------------------------------------------
    @abstractmethod
    def parse_data(self, data: TextInput) -> Any:
        """Parse and validate card data; raise ``DataError`` naming file, field and problem."""

    def data_default_options(self, parsed: Any) -> Mapping[str, Any] | None:
        """Option defaults that the data file sets (``default_options``), if any."""
        return None

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Cross-option checks; raise ``OptionError``."""

    @abstractmethod
    def _new_state(self, players: int, seed: int) -> S: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse the stable text notation of an action (``NotationError`` if malformed)."""

    @abstractmethod
    def _state_class(self) -> type[S]: ...

    # ---- public API --------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.info.id

    @property
    def data_hash(self) -> str:
        return self.data_input.sha

    def new_game(self, players: int, seed: int = 0) -> S:
        """A fresh game for ``players`` seats, seeded by ``seed``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be an integer, got {players!r}")
        lo, hi = self.info.min_players, self.info.max_players
        if not lo <= players <= hi:
            raise OptionError(f"{self.info.name} takes {lo}-{hi} players, not {players}", "bad_players")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be an integer, got {seed!r}")
        return self._new_state(players, seed)

    def options_json(self) -> dict[str, Any]:
        """Options as JSON (file-valued options carry their text)."""
        return {k: (v.to_json() if isinstance(v, TextInput) else v) for k, v in self.options.items()}

    def header(self) -> dict[str, Any]:
        h: dict[str, Any] = {"game": self.id, "options": self.options_json(), "data_hash": self.data_hash}
        if not self.data_input.default:
            h["data"] = self.data_input.to_json()
        return h

    def load_state(self, text: str, *, flow: bool = True) -> S:
        """Rebuild a state from ``State.to_json()`` (exact round trip), validated (``StateFormatError``).

        ``flow=False`` skips only the check that the game can go on (someone may act or a timer is
        pending), for tools that complete a state in several steps (determinizers); every other check stays.
        """
        try:
            obj = json.loads(text)
        except (TypeError, ValueError) as e:
            raise StateFormatError(f"state is not JSON: {e}") from e
        if not isinstance(obj, dict) or obj.get("format") != "cosmodeck-state/1":
            raise StateFormatError("not a cosmodeck state (format must be 'cosmodeck-state/1')")
        if obj.get("game") != self.id:
            raise StateFormatError(f"state is for game {obj.get('game')!r}, not {self.id!r}")
        if obj.get("data_hash") != self.data_hash:
            raise StateFormatError("state was made with different card data (data_hash differs)")
        if obj.get("options") != self.options_json():
            raise StateFormatError("state was made with different options")
        return self._state_class()._from_json(self, obj, flow=flow)

    def _load_trusted(self, obj: dict[str, Any]) -> S:
        """A state from a ``to_json`` object built by this package's own code, without validation.

        The determinizers build thousands of states per search move from a view; validating each one
        costs more than building it (Meteor: 3,900 -> 1,200 determinizations/s). Their tests check that
        every state they build validates. Anything from outside goes through ``load_state``.
        """
        return self._state_class()._from_json(self, obj, flow=False, checked=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} data={self.data_hash}>"
