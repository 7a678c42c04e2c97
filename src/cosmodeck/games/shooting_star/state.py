"""The Shooting Star state: who acts, legality (one source of truth), transitions, hidden info."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.events import Event
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.shooting_star import codec, fast_py, rules_setup, rules_turn, view
from cosmodeck.games.shooting_star.actions import Place, PlacePlanet
from cosmodeck.games.shooting_star.cards import KIND_DARK, Cell, card_id
from cosmodeck.games.shooting_star.loader import neighbours
from cosmodeck.games.shooting_star.rules_setup import PHASE_PLACE, PHASE_SECTOR

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game
    from cosmodeck.games.shooting_star.game import ShootingStarGame

# (seat, card kind, cell, arrow) of a card on the board this turn, in placement order
Placed = tuple[int, str, Cell, str]
_ONE = tuple(frozenset({seat}) for seat in range(8))  # who acts in the placement phase, without a new set


class ShootingStarState(State):
    """See SHS-D1..D4. Containers are copied on clone; tuples inside them are shared."""

    game: ShootingStarGame
    # fixed after setup (shared by clones)
    factions: tuple[str, ...]
    shape: frozenset[Cell]
    shape_order: tuple[Cell, ...]
    nbrs: Mapping[Cell, tuple[Cell, ...]]
    lonely: bool  # a sector cell without neighbours: its planet is isolated from the start
    # changing
    phase: str
    turn: int
    invader: int
    sector_next: int
    board: dict[Cell, tuple[str, int]]
    placed: list[Placed]
    hands: list[tuple[str, ...]]
    conquest: list[tuple[str, ...]]
    debris: list[tuple[str, ...]]
    reserve: tuple[str, ...]
    missions: list[tuple[str, ...]]
    box: tuple[str, ...]
    planet_hands: list[tuple[str, ...]]
    forced: tuple[int, ...]
    end: str | None
    res: Result | None
    # the fast path's legal-action tables for the current board (immutable, shared by clones)
    fast_actions: fast_py.BoardActions | None = None

    def set_shape(self, cells: Iterable[Cell]) -> None:
        """The sector's cells (a miss outside them is ``off_grid``) and their neighbours."""
        if self.game.fast:
            self.shape, self.shape_order, self.nbrs, self.lonely = fast_py.shape_info(self.game, cells)
            return
        shape = frozenset(cells)
        self.shape = shape
        self.shape_order = tuple(sorted(shape, key=lambda c: (c[1], c[0])))
        self.nbrs = {c: tuple(n for n in neighbours(c) if n in shape) for c in self.shape_order}
        self.lonely = any(not n for n in self.nbrs.values())

    # ---- who acts, legality -----------------------------------------------------------
    def _to_act(self) -> frozenset[int]:
        if self.phase == PHASE_PLACE:
            seat = (self.invader + len(self.placed)) % self.players
            return _ONE[seat] if seat < len(_ONE) else frozenset({seat})
        if self.phase == PHASE_SECTOR:
            return frozenset({self.sector_next})
        return frozenset()

    def free_cells(self) -> list[Cell]:
        """SHS-5.2: planet cells without a Destruction card, row-major."""
        covered = {p[2] for p in self.placed}
        board = self.board
        return [c for c in self.shape_order if c in board and c not in covered]

    def _legal(self, seat: int) -> list[Any]:
        if self.phase == PHASE_PLACE:  # SHS-D1: hand x free cells x allowed arrows
            if self.game.fast:
                return fast_py.legal(self, seat)
            free = self.free_cells()
            rows = self.game.place_rows
            out: list[Any] = []
            for card in self.hands[seat]:
                out.extend(chain.from_iterable(map(rows[card].__getitem__, free)))
            return out
        planets = self.game.data.planets
        return [PlacePlanet(pid, c, f) for pid in self.planet_hands[seat]
                for c in rules_setup.sector_cells(self, pid) for f in planets[pid].faces]

    def _check(self, seat: int, action: Any) -> None:
        if isinstance(action, Place):
            if self.phase != PHASE_PLACE:
                raise IllegalActionError("Destruction cards are placed once the sector is built", "wrong_phase")
            if action.card not in self.hands[seat]:
                raise IllegalActionError(f"{action.card} is not in your hand", "card_not_in_hand")
            placed = self.placed
            if action.cell not in self.board or (placed and action.cell in [p[2] for p in placed]):
                raise IllegalActionError(f"cell {action.cell} has no planet or already has a card",
                                         "cell_not_available")
            if action.orientation not in self.game.arrows:
                raise IllegalActionError(f"arrow {action.orientation} is not allowed (orientations="
                                         f"{self.game.options['orientations']})", "orientation_not_allowed")
            return
        if isinstance(action, PlacePlanet):
            if self.phase != PHASE_SECTOR:
                raise IllegalActionError("planets are placed only while building a custom sector", "wrong_phase")
            if action.planet not in self.planet_hands[seat]:
                raise IllegalActionError(f"{action.planet} is not in your planet hand", "planet_not_in_hand")
            planet = self.game.data.planets[action.planet]
            if action.face not in planet.faces:
                raise IllegalActionError(f"{action.planet} has no face {action.face}", "face_not_allowed")
            if action.cell not in rules_setup.sector_cells(self, action.planet):
                dark = planet.kind == KIND_DARK and self.board and action.cell not in self.board and any(
                    n in self.board for n in neighbours(action.cell))
                raise IllegalActionError(
                    f"{action.planet} cannot go on {action.cell}",
                    "dark_planets_adjacent" if dark else "cell_not_available")
            return
        raise IllegalActionError(f"{action!r} is not a Shooting Star action", "bad_action")

    def _do(self, seat: int, action: Any) -> list[Event]:
        if isinstance(action, Place):
            if self.game.fast:
                return fast_py.place(self, seat, action.card, action.cell, action.orientation)
            return rules_turn.place(self, seat, action.card, action.cell, action.orientation)
        events: list[Event] = []
        rules_setup.place_planet(self, seat, action.planet, action.cell, action.face, events)
        return events

    def _result(self) -> Result | None:
        return self.res

    # ---- views, JSON, copies ----------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return view.build(self, seat)

    def _dump(self) -> dict[str, Any]:
        return codec.dump(self)

    def _load(self, core: dict[str, Any]) -> None:
        codec.load(self, core)

    @classmethod
    def _validate_core(cls, game: Game[Any], players: int, core: Any, now: float) -> None:
        from cosmodeck.games.shooting_star.game import ShootingStarGame
        from cosmodeck.games.shooting_star.validate import validate_core

        assert isinstance(game, ShootingStarGame)
        validate_core(game, players, core, now)

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, ShootingStarState)
        other.board = self.board.copy()
        other.placed = self.placed.copy()
        other.hands = self.hands.copy()
        other.conquest = self.conquest.copy()
        other.debris = self.debris.copy()
        other.missions = self.missions.copy()
        other.planet_hands = self.planet_hands.copy()

    def census(self) -> Counter[str]:
        """Every planet, Destruction card (``blastroid:P6``) and mission, in every zone."""
        c: Counter[str] = Counter()
        c.update(p for p, _ in self.board.values())
        c.update(self.reserve)
        for pile in (*self.conquest, *self.debris, *self.planet_hands, *self.missions):
            c.update(pile)
        c.update(self.box)
        fac = self.factions
        for s, hand in enumerate(self.hands):
            c.update(card_id(fac[s], k) for k in hand)
        c.update(card_id(fac[s], k) for s, k, _, _ in self.placed)
        data = self.game.data
        for f in data.factions:  # unused sets stay in the box (SHS-3.8)
            if f.id not in fac:
                c.update(card_id(f.id, k) for k in data.card_order)
        return c

    def resample_hidden(self, owner: int | None, rng: Rng) -> ShootingStarState:
        return view.resample(self, owner, rng)
