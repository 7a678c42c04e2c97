"""A game definition: static facts, options and card data, with a factory for states."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cosmodeck.engine.datahash import TextPath, rules_hash
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
    # Where the data file keeps what players read (translations, names): left out of the data hash
    # (engine/datahash.py), so a text changes no record's hash.
    text_paths: ClassVar[tuple[TextPath, ...]] = (("texts",),)
    # Text hashes of earlier packaged data files -> the data hash of their rules. Records and saved
    # games of those versions carry the text hash; they replay on today's packaged data while its
    # rules hash is the same (tests/engine/test_data_hash.py checks each entry against the old file).
    previous_data: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # Use the game's fast path where it has one (identical results, proved by differential tests;
    # docs/ENGINE.md). ``load_game(..., fast=False)`` runs the readable reference rules only.
    fast: bool = True

    def __init__(self, data: TextInput, options: Mapping[str, Any] | None = None) -> None:
        self.data_input = data
        # Actions objects already found well-formed (by identity; see State._action): a cache, not state.
        self.checked_actions: dict[int, Any] = {}
        parsed = self.parse_data(data)
        self.data: Any = parsed
        self._data_hash = rules_hash(data.text, self.text_paths)
        self._catalogue: dict[str, Any] | None = None
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
        """The hash of the card data's rules (its texts left out), as records and states carry it."""
        return self._data_hash

    def accepts_data_hash(self, value: object) -> bool:
        """Whether a record or state naming card data ``value`` was made with rules equal to this data's:
        its data hash, the text hash of this very file (what records written before the data hash left
        texts out carry), or the text hash of an earlier packaged file whose rules are today's."""
        if value in (self._data_hash, self.data_input.sha):
            return True
        return self.data_input.default and isinstance(value, str) and self.previous_data.get(value) == self._data_hash

    def catalogue(self) -> Mapping[str, Any]:
        """What players read of this game's card data, JSON-ready: the printed faces a board draws and
        the data file's texts per language (``{"texts": {KEY: {"en": ..., "es": ...}}, ...}``).

        The same for every seat and every state, so it is built once per game (cached; do not mutate
        it) and sent once: the server serves it per room (``GET /api/rooms/ROOM/catalogue``) and
        views name cards by id. Bots and RL encoders never need it.
        """
        if self._catalogue is None:
            self._catalogue = self.build_catalogue()
        return self._catalogue

    def build_catalogue(self) -> dict[str, Any]:
        """The catalogue (see :meth:`catalogue`); a game with texts in its data file overrides this."""
        return {"texts": {}}

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

        Both formats load: ``cosmodeck-state/2`` (names, what ``to_json`` writes) and ``cosmodeck-state/1``
        (integers and indices, states saved before; a state without a ``format`` key is read as /1).

        ``flow=False`` skips only the check that the game can go on (someone may act or a timer is
        pending), for tools that complete a state in several steps (determinizers); every other check stays.
        """
        try:
            obj = json.loads(text)
        except (TypeError, ValueError) as e:
            raise StateFormatError(f"state is not JSON: {e}") from e
        if not isinstance(obj, dict):
            raise StateFormatError("not a cosmodeck state (a JSON object with format 'cosmodeck-state/2')")
        fmt = obj.get("format", "cosmodeck-state/1")  # states of the first format may carry no version
        if fmt not in ("cosmodeck-state/1", "cosmodeck-state/2"):
            raise StateFormatError(f"not a cosmodeck state: format {str(fmt)[:40]!r} is not 'cosmodeck-state/2' "
                                   "(or the older 'cosmodeck-state/1')", field="format")
        if obj.get("game") != self.id:
            raise StateFormatError(f"state is for game {obj.get('game')!r}, not {self.id!r}")
        if not self.accepts_data_hash(obj.get("data_hash")):
            raise StateFormatError("state was made with different card data (data_hash differs)")
        if obj.get("options") != self.options_json():
            raise StateFormatError("state was made with different options")
        return self._state_class()._from_json(self, obj, flow=flow, named=fmt == "cosmodeck-state/2")

    def _load_trusted(self, obj: dict[str, Any]) -> S:
        """A state from a ``to_json`` object built by this package's own code, without validation.

        The determinizers build thousands of states per search move from a view; validating each one
        costs more than building it (Meteor: 3,900 -> 1,200 determinizations/s). Their tests check that
        every state they build validates. Anything from outside goes through ``load_state``.
        """
        return self._state_class()._from_json(self, obj, flow=False, checked=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} data={self.data_hash}>"
