"""The Shooting Star game definition: options, data and the factory for states."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game, GameInfo
from cosmodeck.engine.options import TextInput
from cosmodeck.games.shooting_star import fast_py, loader, rules_setup
from cosmodeck.games.shooting_star.actions import Action, Place, parse_action
from cosmodeck.games.shooting_star.cards import ORIENTATIONS, ORIENTATIONS_2, Cell
from cosmodeck.games.shooting_star.loader import ShsData
from cosmodeck.games.shooting_star.options import OPTIONS
from cosmodeck.games.shooting_star.state import ShootingStarState

try:  # the compiled fast path (setup.py builds it); without it the Python fast path (fast_py.py) runs
    from cosmodeck.games.shooting_star.fast import FastShootingStarState as _FAST_CLASS
    from cosmodeck.games.shooting_star.fast import new_state as _FAST_NEW

    _FAST: type[ShootingStarState] | None = _FAST_CLASS
    _NEW: Callable[[ShootingStarGame, int, int], ShootingStarState | None] | None = _FAST_NEW
except ImportError:  # pragma: no cover - a build without the compiled extension
    _FAST = None
    _NEW = None


class _PlaceRow(dict[Cell, tuple[Place, ...]]):
    """The ``Place`` actions of one card, per cell, one per allowed arrow; built on first use."""

    def __init__(self, card: str, arrows: tuple[str, ...]) -> None:
        super().__init__()
        self.card = card
        self.arrows = arrows

    def __missing__(self, cell: Cell) -> tuple[Place, ...]:
        acts = self[cell] = tuple(Place(self.card, cell, a) for a in self.arrows)
        return acts


class ShootingStarGame(Game[ShootingStarState]):
    """Shooting Star (dV Giochi, 2013): hidden placement on a grid, resolved by priority."""

    info = GameInfo(id="shooting-star", name="Shooting Star", min_players=2, max_players=5, real_time=False,
                    hidden_info=True, simultaneous=False, cooperative=False, num_distinct_actions=None)
    text_paths = (("texts",), ("missions", "*", "name"), ("missions", "*", "text"))
    # the packaged file before its mission names and texts, and with them in English and Spanish
    previous_data = MappingProxyType({"dfa8ea0a90fa317e": "6ee21bcfd4ead20a", "e47f8d0f7986910b": "6ee21bcfd4ead20a"})
    option_specs = OPTIONS
    data: ShsData
    fast_tables: fast_py.Tables | None = None  # the Python fast path's per-game tables, built on first use
    compiled_tables: object | None = None  # the compiled fast path's per-game tables (fast.pyx), built on first use
    setup_tables: object | None = None  # the compiled setup's per-game tables (fast.pyx ``SetupTables``), on first use
    # False: states of this game run the Python fast path even when the extension is built (tests, benchmarks)
    use_compiled: bool = True

    def __init__(self, data: TextInput, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(data, options)
        self.arrows: tuple[str, ...] = ORIENTATIONS if self.options["orientations"] == 4 else ORIENTATIONS_2
        self.place_rows: dict[str, _PlaceRow] = {c: _PlaceRow(c, self.arrows) for c in self.data.card_order}

    def build_catalogue(self) -> dict[str, Any]:
        """The missions' names and texts per language, as the data file gives them (the views carry
        them as well, with each mission)."""
        texts: dict[str, dict[str, str]] = {}
        for m in self.data.missions.values():
            for part, words in (("name", m.name), ("text", m.text)):
                if words:
                    texts[f"mission.{m.id}.{part}"] = dict(words)
        return {"texts": texts}

    def parse_data(self, data: TextInput) -> ShsData:
        return loader.parse(data)

    def data_default_options(self, parsed: Any) -> Mapping[str, Any] | None:
        assert isinstance(parsed, ShsData)
        return parsed.default_options

    def check_options(self, options: Mapping[str, Any]) -> None:
        known = {f.id for f in self.data.factions}
        for f in options["factions"] or ():
            if f not in known:
                raise OptionError(f"option 'factions': unknown faction {f!r}; known: {', '.join(sorted(known))}")

    def _new_state(self, players: int, seed: int) -> ShootingStarState:
        cls = self._state_class()
        if cls is _FAST and _NEW is not None:  # the compiled setup: this method's steps, the same draws (fast.pyx)
            quick = _NEW(self, players, seed)
            if quick is not None:
                return quick
        st = cls(self, players, seed)
        data = self.data
        chosen = self.options["factions"]
        if chosen is not None and len(chosen) != players:
            raise OptionError(f"option 'factions' names {len(chosen)} factions for {players} players (R29)")
        st.factions = tuple(chosen) if chosen is not None else tuple(f.id for f in data.factions[:players])
        st.invader = rules_setup.first_player(self.options, players, st.rng)
        st.turn = 1
        st.hands = [data.card_order] * players  # SHS-3.6
        st.conquest = [()] * players
        st.debris = [()] * players
        st.placed = []
        st.planet_hands = [()] * players
        st.forced = ()
        st.missions = [()] * players
        st.box = tuple(sorted(data.missions))
        st.end = None
        st.res = None
        if self.options["custom_sector"]:
            rules_setup.deal_custom(st, st.rng)
            st.phase = rules_setup.PHASE_SECTOR
            st.sector_next = st.invader
        else:
            rules_setup.deal_grid(st, st.rng)
            rules_setup.deal_missions(st, st.rng)
            st.phase = rules_setup.PHASE_PLACE
            st.sector_next = -1
        return st

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.data.cards, self.data.planets)

    def _state_class(self) -> type[ShootingStarState]:
        """``FastShootingStarState`` (the compiled fast path, ``fast.pyx``) when ``self.fast`` and it was built
        (and ``use_compiled``); the reference ``ShootingStarState`` otherwise, which runs the Python fast path
        (``fast_py.py``) when ``self.fast`` (``load_game(..., fast=False)`` never uses either)."""
        if self.fast and self.use_compiled and _FAST is not None:
            return _FAST
        return ShootingStarState

    def position(self, hands: Sequence[Sequence[str]], **zones: Any) -> ShootingStarState:
        """A validated state from named zones: see ``shooting_star.position.position`` and docs/state-formats.md."""
        from cosmodeck.games.shooting_star.position import position

        return position(self, hands, **zones)

