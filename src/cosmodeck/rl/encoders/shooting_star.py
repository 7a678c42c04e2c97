"""Shooting Star encoder (SHS-D5): observations follow the SHS-D2 view, the mask is the SHS-D1 legal set.

Seats are relative to the observer (0 = me, 1 = next clockwise...). Cells are the grid of that
player count in row-major order (the view's order). The action catalog is every
``place CARD X,Y ARROW`` for the card set x the grid's cells x the allowed arrows, indexed
``(card * cells + cell) * arrows + arrow``. The custom-sector variant (SHS-16) has unbounded
coordinates, so no fixed catalog exists for it and it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.game import Game
from cosmodeck.games.shooting_star.game import ShootingStarGame
from cosmodeck.rl.encoders.base import ILLEGAL, Encoder, Feature, Legal, Mask, Vector, Writer, ratio, rel
from cosmodeck.rl.encoders.shooting_star_direct import ShootingStarDirect

ARROWS = ("N", "E", "S", "W")
KINDS = ("12", "34", "dark")
PILE_SCALE = 20.0


class ShootingStarEncoder(Encoder):
    game_id = "shooting-star"
    direct: ShootingStarDirect
    #: the compiled writer's ``write_rows`` (a batch's observation and mask rows in one call, ``vector_step``),
    #: ``None`` without the extension
    rows_writer: Any = None

    def __init__(self, game: Game[Any], players: int) -> None:
        super().__init__()
        assert isinstance(game, ShootingStarGame)
        if game.options["custom_sector"]:
            raise OptionError(
                "shooting-star with custom_sector=True has no fixed action space: players build the sector on "
                "unbounded coordinates (SHS-16.5), so cells cannot be enumerated. Use the fixed grids "
                "(custom_sector=False) for RL.", "rl_unsupported_option")
        data = game.data
        self.players = n = players
        self.data = data
        self.cells: tuple[tuple[int, int], ...] = tuple(data.grids[players])
        self.cell_index = {c: i for i, c in enumerate(self.cells)}
        self.cards: tuple[str, ...] = tuple(data.card_order)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.names: tuple[str, ...] = tuple(data.names)
        self.name_index = {nm: i for i, nm in enumerate(self.names)}
        self.missions: tuple[str, ...] = tuple(sorted(data.missions))
        self.mission_index = {m: i for i, m in enumerate(self.missions)}
        self.arrows: tuple[str, ...] = tuple(game.arrows)
        self.hand_size = len(self.cards)
        self.max_turns = int(data.max_cards_played)
        g, k, nm = len(self.cells), len(self.cards), len(self.names)
        self.features = (
            Feature("turn", self.max_turns, "one-hot turn number 1..max_turns"),
            Feature("invader", n, "one-hot relative seat holding the Dark Invader (first placer this turn)"),
            Feature("to_act", n, "relative seats that place now"),
            Feature("placed_count", 1, "cards placed this turn / players"),
            Feature("cell_planet", g, "per cell: 1 if it holds a planet"),
            Feature("cell_kind", g * 3, "per cell: one-hot planet kind 1/2, 3/4, dark"),
            Feature("cell_level", g * 4, "per cell: one-hot level 1..4 (dark: none)"),
            Feature("cell_moon", g, "per cell: 1 if the planet card has moons"),
            Feature("cell_name", g * nm, "per cell: one-hot 3/4 planet name (data order)"),
            Feature("cell_card_owner", g * n, "per cell: one-hot relative seat of the face-down card on it"),
            Feature("cell_card_type", g * k, "per cell: one-hot card type of MY face-down card (others are hidden)"),
            Feature("cell_card_arrow", g * 4, "per cell: one-hot arrow N/E/S/W of the card on it"),
            Feature("cell_card_order", g, "per cell: placement order of the card on it / players"),
            Feature("hand_mine", k, "my hand: 1 per card type held (card-set order)"),
            Feature("hand_count", n, "per relative seat: cards in hand / hand size"),
            Feature("used", n * k, "per relative seat: card types already revealed and gone (public)"),
            Feature("conquest", n * 6, "per relative seat: conquest pile cards, planets, moon planets, 1/2 planets, "
                                       "3/4 planets, Destruction cards (each / 20)"),
            Feature("debris", n * 3, "per relative seat: debris cards, planets (1/2, 3/4), dark planets (each / 20)"),
            Feature("names_captured", n * nm, "per relative seat: 3/4 names captured (conquest or debris)"),
            Feature("missions_mine", len(self.missions), "my secret missions (data ids, sorted)"),
            Feature("mission_progress", 3, "my missions by ascending points: fraction of the need met so far"),
            Feature("reserve", 1, "reserve size / 49"),
            Feature("planets_left", 1, "planets on the board / cells"),
            Feature("over", 1, "1 once the game is over"),
        )
        self.actions = tuple(f"place {card} {x},{y} {a}" for card in self.cards for (x, y) in self.cells
                             for a in self.arrows)
        self._finish()
        self.direct = ShootingStarDirect(self)
        compiled = self.direct.compiled
        if compiled is not None:  # the compiled writer's methods as the table's hooks (``Encoder.row_writer``)
            self.row_writer = compiled.write
            self.mask_writer = compiled.fill_mask
            self.action_at = compiled.action_of
            self.observer = compiled.observe
            self.actor = compiled.act
            self.rows_writer = compiled.write_rows

    def legal_state(self, state: Any, seat: int) -> Legal:
        return _PlaceLegal(self.direct, state, seat)

    def write_state(self, state: Any, seat: int, row: Vector, cache: dict[str, Any] | None = None) -> None:
        """``Encoder.write_state``: the compiled writer clears and writes a contiguous float32 row itself."""
        direct: ShootingStarDirect | None = self.direct  # (``None`` on a copy made without a direct path)
        compiled = direct.compiled if direct is not None else None
        if compiled is not None and row.dtype.char == "f" and row.flags.c_contiguous:
            compiled.write(state, seat, row)
            return
        super().write_state(state, seat, row, cache)

    def _captured(self, pile: list[str]) -> list[str]:
        planets = self.data.planets
        return [p for p in pile if p in planets]

    def encode(self, view: Mapping[str, Any]) -> Vector:
        n = self.players
        me = int(view["seat"])
        planets = self.data.planets
        w = Writer(self.features)
        w.one_hot("turn", int(view["turn"]) - 1)
        w.one_hot("invader", rel(int(view["invader"]), me, n))
        w.multi_hot("to_act", (rel(s, me, n) for s in view["to_act"]))
        w.values("placed_count", [ratio(len(view["placed"]), n)])
        g = len(self.cells)
        nm = len(self.names)
        k = len(self.cards)
        present = w.start("cell_planet")
        kind = w.start("cell_kind")
        level = w.start("cell_level")
        moon = w.start("cell_moon")
        name = w.start("cell_name")
        owner = w.start("cell_card_owner")
        ctype = w.start("cell_card_type")
        arrow = w.start("cell_card_arrow")
        order = w.start("cell_card_order")
        out = w.out
        cell_index = self.cell_index
        for cell in view["grid"]["cells"]:
            i = cell_index.get((cell["x"], cell["y"]))
            if i is None:
                continue
            if cell["planet"] is not None:
                out[present + i] = 1.0
                out[kind + i * 3 + KINDS.index(cell["kind"])] = 1.0
                if cell["level"] is not None:
                    out[level + i * 4 + int(cell["level"]) - 1] = 1.0
                if cell["moons"]:
                    out[moon + i] = 1.0
                j = self.name_index.get(cell["name"])
                if j is not None:
                    out[name + i * nm + j] = 1.0
            card = cell["card"]
            if card is not None:
                out[owner + i * n + rel(int(card["seat"]), me, n)] = 1.0
                if card["card"] is not None:
                    out[ctype + i * k + self.card_index[str(card["card"]).rpartition(":")[2]]] = 1.0
                out[arrow + i * 4 + ARROWS.index(card["orientation"])] = 1.0
                out[order + i] = ratio(int(card["order"]), n)
        hands = sorted(view["hands"], key=lambda h: rel(int(h["seat"]), me, n))
        mine = next(h for h in hands if h["seat"] == me)
        w.multi_hot("hand_mine", (self.card_index[c] for c in mine["cards"] or ()))
        w.values("hand_count", (ratio(h["count"], self.hand_size) for h in hands))
        used = w.start("used")
        for h in hands:
            r = rel(int(h["seat"]), me, n)
            for c in h["used"]:
                out[used + r * k + self.card_index[c]] = 1.0
        conquest = [0.0] * (n * 6)
        debris = [0.0] * (n * 3)
        names = [0.0] * (n * nm)
        for s in range(n):
            r = rel(s, me, n)
            cq = list(view["conquest"][s])
            db = list(view["debris"][s])
            cq_pl = self._captured(cq)
            db_pl = self._captured(db)
            conquest[r * 6: r * 6 + 6] = [
                ratio(len(cq), PILE_SCALE), ratio(len(cq_pl), PILE_SCALE),
                ratio(sum(1 for p in cq_pl if planets[p].moons), PILE_SCALE),
                ratio(sum(1 for p in cq_pl if planets[p].kind == "12"), PILE_SCALE),
                ratio(sum(1 for p in cq_pl if planets[p].kind == "34"), PILE_SCALE),
                ratio(len(cq) - len(cq_pl), PILE_SCALE)]
            debris[r * 3: r * 3 + 3] = [
                ratio(len(db), PILE_SCALE), ratio(sum(1 for p in db_pl if planets[p].kind != "dark"), PILE_SCALE),
                ratio(sum(1 for p in db_pl if planets[p].kind == "dark"), PILE_SCALE)]
            for p in (*cq_pl, *db_pl):
                pname = planets[p].name
                if pname in self.name_index:
                    names[r * nm + self.name_index[pname]] = 1.0
        w.values("conquest", conquest)
        w.values("debris", debris)
        w.values("names_captured", names)
        held = view["missions"][me] or []
        w.multi_hot("missions_mine", (self.mission_index[m["id"]] for m in held if m["id"] in self.mission_index))
        mine_captured = self._captured([*view["conquest"][me], *view["debris"][me]])
        progress = [self._progress(m, mine_captured) for m in sorted(held, key=lambda m: m["points"])]
        w.values("mission_progress", [*progress, 0.0, 0.0, 0.0][:3])
        w.values("reserve", [ratio(int(view["reserve"]), 49)])
        w.values("planets_left", [ratio(int(view["planets_left"]), g)])
        w.values("over", [1.0 if view["over"] else 0.0])
        return w.done()

    def _progress(self, mission: Mapping[str, Any], captured: list[str]) -> float:
        planets = self.data.planets
        real = [planets[p] for p in captured if planets[p].kind != "dark"]
        named = mission.get("named") or []
        if named:
            found = {p.name for p in real}
            return ratio(sum(1 for x in named if x in found), len(named))
        need = mission.get("need") or {}
        if not need:
            return 0.0
        have = {"planets": len(real), "12": sum(1 for p in real if p.kind == "12"),
                "34": sum(1 for p in real if p.kind == "34"), "moon": sum(1 for p in real if p.moons)}
        return min(ratio(have.get(key, 0), int(v)) for key, v in need.items())


class _PlaceLegal(Legal):
    """The legal placements of a seat, computed by index arithmetic (``shooting_star_direct``): the mask
    with one NumPy assignment (``fill``), the index list only if asked for."""

    __slots__ = ("direct", "seat", "state")

    def __init__(self, direct: ShootingStarDirect, state: Any, seat: int) -> None:
        super().__init__()
        self.direct, self.state, self.seat = direct, state, seat

    def _compute(self) -> list[int]:
        return self.direct.legal_indices(self.state, self.seat)

    def fill(self, row: Mask) -> None:
        self.direct.fill_mask(self.state, self.seat, row)

    def action(self, index: int) -> Any:
        got = self.direct.action_of(self.state, self.seat, index)
        return ILLEGAL if got is None else got

    def with_noop(self, noop: int) -> Legal:
        raise AssertionError("Shooting Star is turn-based: no wait action")
