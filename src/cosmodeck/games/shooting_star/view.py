"""What a seat may see (SHS-D2) and re-drawing a seat's secrets (for no-leak tests and search).

Hidden: the face of a placed card before the reveal (others see position, arrow, owner),
hands (others see the count and the used cards), missions (until the game ends; unused
ones never), the reserve (a count) and, in the variant, planet hands (a count).

:func:`build` is the view every state gives. Views are read-only: the entries that do not depend on the
state (the card set, the factions, the orientations, each mission's entry), the grid's cells without cards
(keyed by the board's content; each cell's entry by the cell and its content), a hand's used cards (keyed by
the hand) and each seat's entry in ``hands`` (keyed by the seat, its hand, whether the viewer is that seat and
its face-down card) are built once per game object and shared by the views that show them.
:func:`build_reference` builds every entry afresh; a test proves the two equal, keys in the same order, on every
step of seeded games. :func:`build_keys` builds only some of a seat's entries (a bot that reads only those);
:func:`bot_view` is the heuristic bot's (``build_keys`` on :data:`BOT_KEYS`; compiled, a mapping whose parts the
compiled heuristic reads in C).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, KIND_DARK, card_id
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER
from cosmodeck.games.shooting_star.rules_turn import planets_left

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import ShootingStarState


def build_reference(st: ShootingStarState, seat: int | None) -> dict[str, Any]:
    data = st.game.data
    over = st.phase == PHASE_OVER
    fac = st.factions
    planets = data.planets
    placed_at = {p[2]: k for k, p in enumerate(st.placed)}

    def placed(k: int) -> dict[str, Any]:
        s, kind, cell, arrow = st.placed[k]
        return {"seat": s, "cell": [cell[0], cell[1]], "orientation": arrow, "order": k + 1,
                "card": card_id(fac[s], kind) if s == seat else None}

    cells = []
    order = st.shape_order or tuple(sorted(st.board, key=lambda c: (c[1], c[0])))
    for c in order:
        here = st.board.get(c)
        cell: dict[str, Any] = {"x": c[0], "y": c[1], "planet": None}
        if here is not None:
            p = planets[here[0]]
            cell.update(planet=p.id, kind=p.kind, level=None if here[1] == DARK_LEVEL else here[1],
                        name=p.name, moons=p.moons)
        k = placed_at.get(c)
        cell["card"] = None if k is None else placed(k)
        cells.append(cell)
    xs = [c[0] for c in order] or [0]
    ys = [c[1] for c in order] or [0]
    facedown = {s: kind for s, kind, _, _ in st.placed}
    hands = []
    for s in range(st.players):
        hand = st.hands[s]
        gone = set(hand) | ({facedown[s]} if s in facedown else set())
        hands.append({"seat": s, "count": len(hand), "cards": list(hand) if s == seat else None,
                      "used": [k for k in data.card_order if k not in gone]})
    missions: list[Any] = []
    for s in range(st.players):
        if over or s == seat:
            missions.append([{"id": m, "points": data.missions[m].points, "need": dict(data.missions[m].need),
                              "named": list(data.missions[m].named), "name": dict(data.missions[m].name) or None,
                              "text": dict(data.missions[m].text) or None} for m in st.missions[s]])
        else:
            missions.append(None)
    out: dict[str, Any] = {
        "phase": st.phase,
        "turn": st.turn,
        "max_turns": data.max_cards_played,
        "invader": st.invader,
        "orientations": list(st.game.arrows),
        "factions": [{"seat": s, "id": f.id, "name": f.name, "colour": f.colour}
                     for s, f in enumerate(data.faction_by_id[x] for x in fac)],
        "grid": {"cells": cells, "bounds": [min(xs), min(ys), max(xs), max(ys)]},
        "planets_left": planets_left(st),
        "placed": [placed(k) for k in range(len(st.placed))],
        "hands": hands,
        "conquest": [list(p) for p in st.conquest],
        "debris": [list(p) for p in st.debris],
        "reserve": len(st.reserve),
        "missions": missions,
        "card_set": [{"id": c.id, "priority": c.priority, "shield": c.shield, "hits": [list(h) for h in c.hits]}
                     for c in (data.cards[k] for k in data.card_order)],
        "end_reason": st.end,
        "scores": None if st.res is None else st.res.details["breakdown"],
    }
    if st.game.options["custom_sector"]:
        out["planet_hands"] = [{"seat": s, "count": len(h), "planets": list(h) if s == seat else None}
                               for s, h in enumerate(st.planet_hands)]
        out["sector_next"] = st.sector_next if st.sector_next >= 0 else None
    return out


MAX_SHARED = 4096  # entries of one kind kept per game object before they are dropped and built again
MAX_GRIDS = 64  # boards kept (a board is seen in one game only, unless a game repeats a sector and its moves)


class _Shared:
    """A game object's shared view entries."""

    def __init__(self, st: ShootingStarState) -> None:
        game, data = st.game, st.game.data
        self.card_set = [{"id": c.id, "priority": c.priority, "shield": c.shield, "hits": [list(h) for h in c.hits]}
                         for c in (data.cards[k] for k in data.card_order)]
        self.orientations = list(game.arrows)
        self.arrows = game.arrows
        self.factions: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        self.mission: dict[str, dict[str, Any]] = {}
        self.missions: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        self.cells: dict[Any, tuple[list[dict[str, Any]], dict[Any, int], list[int]]] = {}
        self.cell: dict[tuple[Any, Any], dict[str, Any]] = {}  # a cell's entry without a card, by (cell, content)
        self.last: tuple[Any, tuple[list[dict[str, Any]], dict[Any, int], list[int]]] | None = None
        self.used: dict[tuple[Any, Any], list[Any]] = {}
        # the compiled ``BotView``'s: (hand, bit i for ``card_order[i]``) by (id of the hand, face-down card), and
        # (shape, its bounds) by id of the shape
        self.used_bits: dict[tuple[int, Any], tuple[tuple[Any, ...], int]] = {}
        self.bounds: dict[int, tuple[tuple[Any, ...], tuple[int, int, int, int]]] = {}
        self.hand: dict[tuple[int, Any, bool, Any], dict[str, Any]] = {}

    def faction_list(self, st: ShootingStarState) -> list[dict[str, Any]]:
        fac = tuple(st.factions)
        out = self.factions.get(fac)
        if out is None:
            data = st.game.data
            out = [{"seat": s, "id": f.id, "name": f.name, "colour": f.colour}
                   for s, f in enumerate(data.faction_by_id[x] for x in fac)]
            self.factions[fac] = out
        return out

    def mission_list(self, st: ShootingStarState, mids: tuple[str, ...]) -> list[dict[str, Any]]:
        out = self.missions.get(mids)
        if out is None:
            ms = st.game.data.missions
            out = []
            for m in mids:
                entry = self.mission.get(m)
                if entry is None:
                    d = ms[m]
                    entry = {"id": m, "points": d.points, "need": dict(d.need), "named": list(d.named),
                             "name": dict(d.name) or None, "text": dict(d.text) or None}
                    self.mission[m] = entry
                out.append(entry)
            if len(self.missions) >= MAX_SHARED:
                self.missions.clear()
            self.missions[mids] = out
        return out

    def grid(self, st: ShootingStarState) -> tuple[list[dict[str, Any]], dict[Any, int], list[int]]:
        """The cells without cards, each cell's index, and the bounds, for this board."""
        board = st.board
        order = st.shape_order or tuple(sorted(board, key=lambda c: (c[1], c[0])))
        key = (order, tuple(board), tuple(board.values()))  # the board's content (equal: an equal board)
        last = self.last
        if last is not None and last[0] == key:  # the board of the last view (no hashing: equal items are the same)
            return last[1]
        hit = self.cells.get(key)
        if hit is not None:
            self.last = (key, hit)
            return hit
        planets = st.game.data.planets
        cells = []
        entries = self.cell
        if len(entries) >= MAX_SHARED:
            entries.clear()
        for c in order:
            here = board.get(c)
            cell = entries.get((c, here))
            if cell is None:
                cell = {"x": c[0], "y": c[1], "planet": None}
                if here is not None:
                    p = planets[here[0]]
                    cell.update(planet=p.id, kind=p.kind, level=None if here[1] == DARK_LEVEL else here[1],
                                name=p.name, moons=p.moons)
                cell["card"] = None
                entries[(c, here)] = cell
            cells.append(cell)
        xs = [c[0] for c in order] or [0]
        ys = [c[1] for c in order] or [0]
        hit = (cells, {c: i for i, c in enumerate(order)}, [min(xs), min(ys), max(xs), max(ys)])
        if len(self.cells) >= MAX_GRIDS:
            self.cells.clear()
        self.cells[key] = hit
        self.last = (key, hit)
        return hit

    def used_cards(self, st: ShootingStarState, hand: tuple[Any, ...], down: Any) -> list[Any]:
        key = (hand, down)
        out = self.used.get(key)
        if out is None:
            gone = set(hand) if down is None else {*hand, down}
            out = [k for k in st.game.data.card_order if k not in gone]
            if len(self.used) >= MAX_SHARED:
                self.used.clear()
            self.used[key] = out
        return out

    def hand_entry(self, st: ShootingStarState, s: int, mine: bool, down: Any) -> dict[str, Any]:
        """Seat ``s``'s entry in ``hands`` (its cards shown only to itself: ``mine``)."""
        hand = st.hands[s]
        key = (s, hand, mine, down)
        out = self.hand.get(key)
        if out is None:
            out = {"seat": s, "count": len(hand), "cards": list(hand) if mine else None,
                   "used": self.used_cards(st, hand, down)}
            if len(self.hand) >= MAX_SHARED:
                self.hand.clear()
            self.hand[key] = out
        return out


def _shared(st: ShootingStarState) -> _Shared:
    game = st.game
    sh: _Shared | None = game.__dict__.get("_view_shared")
    if sh is None or (sh.arrows is not game.arrows and sh.orientations != list(game.arrows)):
        sh = _Shared(st)
        game.__dict__["_view_shared"] = sh
    return sh


def _board(st: ShootingStarState, seat: int | None, sh: _Shared) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                                        dict[int, Any]]:
    """The view's ``grid`` and ``placed`` entries, and each seat's face-down card kind this turn."""
    fac = st.factions
    cells, index, bounds = sh.grid(st)
    placed = []
    facedown: dict[int, Any] = {}
    if st.placed:
        cells = list(cells)
        for k, (s, kind, cell, arrow) in enumerate(st.placed):
            entry = {"seat": s, "cell": [cell[0], cell[1]], "orientation": arrow, "order": k + 1,
                     "card": card_id(fac[s], kind) if s == seat else None}
            placed.append(entry)
            facedown[s] = kind
            i = index.get(cell)
            if i is not None:
                cells[i] = {**cells[i], "card": dict(entry)}
    return {"cells": cells, "bounds": bounds}, placed, facedown


def _hands(st: ShootingStarState, seat: int | None, sh: _Shared, facedown: dict[int, Any]) -> list[dict[str, Any]]:
    return [sh.hand_entry(st, s, s == seat, facedown.get(s)) for s in range(st.players)]


def _missions(st: ShootingStarState, seat: int | None, sh: _Shared) -> list[Any]:
    over = st.phase == PHASE_OVER
    return [sh.mission_list(st, st.missions[s]) if over or s == seat else None for s in range(st.players)]


def build_py(st: ShootingStarState, seat: int | None) -> dict[str, Any]:
    """:func:`build_reference`'s view, with the entries :class:`_Shared` keeps shared (views are read-only)."""
    data = st.game.data
    sh = _shared(st)
    grid, placed, facedown = _board(st, seat, sh)
    out: dict[str, Any] = {
        "phase": st.phase,
        "turn": st.turn,
        "max_turns": data.max_cards_played,
        "invader": st.invader,
        "orientations": sh.orientations,
        "factions": sh.faction_list(st),
        "grid": grid,
        "planets_left": planets_left(st),
        "placed": placed,
        "hands": _hands(st, seat, sh, facedown),
        "conquest": [list(p) for p in st.conquest],
        "debris": [list(p) for p in st.debris],
        "reserve": len(st.reserve),
        "missions": _missions(st, seat, sh),
        "card_set": sh.card_set,
        "end_reason": st.end,
        "scores": None if st.res is None else st.res.details["breakdown"],
    }
    if st.game.options["custom_sector"]:
        out["planet_hands"] = [{"seat": s, "count": len(h), "planets": list(h) if s == seat else None}
                               for s, h in enumerate(st.planet_hands)]
        out["sector_next"] = st.sector_next if st.sector_next >= 0 else None
    return out


# The keys of a seat's view that ``build_keys`` builds on its own (the rest: from the whole view).
CHEAP_KEYS = frozenset({"seat", "players", "grid", "placed", "hands", "missions", "conquest", "debris"})


def build_keys_py(st: ShootingStarState, seat: int | None, keys: frozenset[str]) -> dict[str, Any]:
    """``{k: st.view(seat)[k] for k in keys if k in st.view(seat)}`` (in the view's key order), building only
    those entries when they are all in :data:`CHEAP_KEYS` (a bot that reads only them, e.g. the heuristic's
    ``view_keys``). The same entries as the whole view, shared the same way (read-only); the seat is checked
    as ``State.view`` checks it."""
    if not keys <= CHEAP_KEYS:
        full = st.view(seat)
        return {k: v for k, v in full.items() if k in keys}
    if seat is not None and (type(seat) is not int or not 0 <= seat < st.players):
        st.view(seat)  # the whole view's own error for a bad seat
    sh = _shared(st)
    out: dict[str, Any] = {}
    if "players" in keys:
        out["players"] = st.players
    if "seat" in keys:
        out["seat"] = seat
    facedown: dict[int, Any] | None = None
    if "grid" in keys or "placed" in keys or "hands" in keys:
        grid, placed, facedown = _board(st, seat, sh)
        if "grid" in keys:
            out["grid"] = grid
        if "placed" in keys:
            out["placed"] = placed
    if "hands" in keys:
        assert facedown is not None
        out["hands"] = _hands(st, seat, sh, facedown)
    if "conquest" in keys:
        out["conquest"] = [list(p) for p in st.conquest]
    if "debris" in keys:
        out["debris"] = [list(p) for p in st.debris]
    if "missions" in keys:
        out["missions"] = _missions(st, seat, sh)
    return out


# The keys of a seat's view the heuristic bot reads (``bots/heuristic/shooting_star.py:VIEW_KEYS``): ``bot_view``'s.
BOT_KEYS = CHEAP_KEYS


def bot_view_py(st: ShootingStarState, seat: int) -> Mapping[str, Any]:
    """What the simulator gives the heuristic bot (its ``view_for``): ``build_keys(st, seat, BOT_KEYS)``. Compiled
    (``view_fast.BotView``), the same entries as a read-only mapping built when first read, whose parts the
    compiled heuristic also reads in C (``tests/shooting_star/test_view_bot.py``)."""
    if type(seat) is not int or not 0 <= seat < st.players:
        st.view(seat)  # the whole view's own error for a bad seat
        raise ValueError("a bot's view is a seat's")
    return build_keys(st, seat, BOT_KEYS)


build: Callable[[ShootingStarState, int | None], dict[str, Any]]
build_keys: Callable[[ShootingStarState, int | None, frozenset[str]], dict[str, Any]]
bot_view: Callable[[ShootingStarState, int], Mapping[str, Any]]
try:  # the same functions compiled (games/shooting_star/view_fast.pyx), when built: they read the helpers above
    from cosmodeck.games.shooting_star.view_fast import bot_view, build, build_keys
except ImportError:  # not built (a source tree without a C compiler): the readable functions, the same views
    build, build_keys, bot_view = build_py, build_keys_py, bot_view_py


def resample(st: ShootingStarState, owner: int | None, rng: Rng) -> ShootingStarState:
    """A clone with ``owner``'s secrets re-drawn from what the other seats cannot tell apart."""
    c = st.clone()
    if owner is None:  # the reserve is drawn at use: only the RNG state is hidden from all
        c.rng = rng.fork()
        return c
    if c.phase == PHASE_OVER:
        return c
    data = c.game.data
    if c.missions[owner]:  # one per value, from the owner's and the box's (others hold theirs)
        box = list(c.box)
        new = []
        for mid in c.missions[owner]:
            v = data.missions[mid].points
            pick = rng.choice([mid, *(b for b in box if data.missions[b].points == v)])
            if pick != mid:
                box.remove(pick)
                box.append(mid)
            new.append(pick)
        c.missions[owner] = tuple(new)
        c.box = tuple(sorted(box))
    for k, (s, kind, cell, arrow) in enumerate(c.placed):  # the face-down card vs the hand
        if s == owner:
            hand = c.hands[owner]
            pick = rng.choice([kind, *hand])
            if pick != kind:
                rest = {*hand, kind} - {pick}
                c.hands[owner] = tuple(x for x in data.card_order if x in rest)
                c.placed[k] = (s, pick, cell, arrow)
    hand = c.planet_hands[owner]
    if hand:  # variant: the unseen planets are this hand plus the reserve
        dark_only = owner in c.forced  # a forced move to the reserve showed only Dark Planets were left
        pool = [p for p in (*hand, *c.reserve) if not dark_only or data.planets[p].kind == KIND_DARK]
        keep = [p for p in c.reserve if p not in pool]
        rng.shuffle(pool)
        order = {p: i for i, p in enumerate(data.planet_order)}
        c.planet_hands[owner] = tuple(sorted(pool[: len(hand)], key=order.__getitem__))
        c.reserve = tuple(sorted((*keep, *pool[len(hand):])))
    return c
