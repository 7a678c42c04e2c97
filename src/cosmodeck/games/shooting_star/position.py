"""``ShootingStarGame.position``: a validated Shooting Star state from named zones (docs/state-formats.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.engine.position import names, per_seat
from cosmodeck.games.shooting_star.cards import Cell, card_id
from cosmodeck.games.shooting_star.state import ShootingStarState

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.game import ShootingStarGame


def position(game: ShootingStarGame, hands: Sequence[Sequence[str]], *, board: Mapping[Any, Any] | None = None,
             conquest: Sequence[Sequence[str]] | None = None, debris: Sequence[Sequence[str]] | None = None,
             missions: Sequence[Sequence[str]] | None = None, invader: int = 0,
             seed: int = 0) -> ShootingStarState:
    """A position at the start of a placement round, on the grid dealt by ``seed``.

    ``hands``: per seat the Destruction cards still in hand (``P7``, ``SH``; every hand the same size, which
    gives the turn); the seat's other cards are in its debris. ``board``: changes to the dealt grid, cell
    ``"x,y"`` to a planet (``"P12-01"``, at its lowest level, or ``["P12-01", 2]``) or ``None`` (no planet
    left there); a planet moved onto a cell swaps with the one there (from another cell or the reserve).
    ``conquest`` / ``debris``: per seat, planets (taken from the board or the reserve) and Destruction cards
    (``P6`` of the seat's own faction, or ``krakenian:P6``). ``missions``: per seat the mission ids (default:
    the seeded deal; the others go back to the box). ``invader``: the seat placing first this round.
    """
    if game.options["custom_sector"]:
        V.fail("board", "position() builds positions on the standard grid; with custom_sector, build the sector "
                        "by play from new_game", V.INCONSISTENT)
    data = game.data
    players = len(V.seq(list(hands) if isinstance(hands, tuple) else hands, "hands"))
    V.integer(players, "hands (number of seats)", game.info.min_players, game.info.max_players)
    V.integer(seed, "seed")
    st = game.new_game(players, seed)
    st.invader = V.integer(invader, "invader", 0, players - 1)
    grid = dict(st.board)
    reserve = set(st.reserve)
    named: set[str] = set()
    for cell_key, value in (board or {}).items():
        cell = _cell(cell_key, st.shape)
        f = f"board[{cell_key!r}]"
        old = grid.pop(cell, None)
        if value is None:
            if old is not None:
                reserve.add(old[0])
            continue
        pid, lvl = _planet(value, f, data)
        if pid in named:
            V.fail(f, f"{pid} is named twice", V.CENSUS)
        named.add(pid)
        where = next((c for c, (p, _) in grid.items() if p == pid), None)
        if where is not None:
            grid.pop(where)
            if old is not None:
                grid[where] = old
        else:
            reserve.discard(pid)
            if old is not None:
                reserve.add(old[0])
        grid[cell] = (pid, lvl)
    fac = st.factions
    piles: dict[str, list[list[str]]] = {}
    for key, rows in (("conquest", conquest), ("debris", debris)):
        out: list[list[str]] = [[] for _ in range(players)]
        for s, row in enumerate(per_seat(rows, key, players) if rows is not None else [[]] * players):
            for i, x in enumerate(names(row, f"{key}[{s}]")):
                f = f"{key}[{s}][{i}]"
                V.string(x, f)
                if x in data.planets:
                    if x in named:
                        V.fail(f, f"{x} is named twice", V.CENSUS)
                    named.add(x)
                    on = next((c for c, (p, _) in grid.items() if p == x), None)
                    if on is not None:
                        grid.pop(on)
                    reserve.discard(x)
                    out[s].append(x)
                else:
                    out[s].append(x if ":" in x else card_id(fac[s], x))
        piles[key] = out
    hand_rows = [names(h, f"hands[{s}]") for s, h in enumerate(hands)]
    for s in range(players):
        for i, k in enumerate(hand_rows[s]):
            V.card_id(k, f"hands[{s}][{i}]", set(data.card_order))
    size = len(hand_rows[0])
    if any(len(h) != size for h in hand_rows):
        V.fail("hands", "at the start of a round every hand holds as many cards", V.INCONSISTENT)
    lo = len(data.card_order) - data.max_cards_played + 1
    if not lo <= size <= len(data.card_order):
        V.fail("hands", f"a hand holds {lo}..{len(data.card_order)} cards at the start of a round "
                        f"(a game plays at most {data.max_cards_played} rounds)", V.RANGE)
    used = {c for key in piles for row in piles[key] for c in row}
    for s in range(players):
        held = {card_id(fac[s], k) for k in hand_rows[s]}
        for k in data.card_order:  # played in earlier rounds: in the seat's debris
            c = card_id(fac[s], k)
            if c not in held and c not in used:
                piles["debris"][s].append(c)
    st.board = grid
    st.reserve = tuple(sorted(reserve))
    st.conquest = [tuple(r) for r in piles["conquest"]]
    st.debris = [tuple(r) for r in piles["debris"]]
    order = {k: i for i, k in enumerate(data.card_order)}
    st.hands = [tuple(sorted(h, key=lambda k: order.get(k, -1))) for h in hand_rows]
    st.turn = max(1, len(data.card_order) - max((len(h) for h in hand_rows), default=0) + 1)
    if missions is not None:
        dealt_rows = [tuple(V.string(x, f"missions[{s}][{i}]") for i, x in enumerate(names(m, f"missions[{s}]")))
                      for s, m in enumerate(per_seat(missions, "missions", players))]
        dealt = {m for r in dealt_rows for m in r}
        st.missions = dealt_rows
        st.box = tuple(sorted(m for m in data.missions if m not in dealt))
    # the same validation as load_state: the position is a state the engine could be in
    return ShootingStarState._from_json(game, json.loads(st.to_json(version=1)))


def _cell(key: Any, shape: frozenset[Cell]) -> Cell:
    f = f"board[{key!r}]"
    try:
        x, y = (int(p) for p in key.split(",")) if isinstance(key, str) else (int(key[0]), int(key[1]))
    except (ValueError, TypeError, IndexError, AttributeError):
        V.fail(f, "a cell is written \"x,y\" (column, row)")
    if (x, y) not in shape:
        V.fail(f, f"cell {x},{y} is not on the grid of this player count", V.RANGE)
    return x, y


def _planet(value: Any, field: str, data: Any) -> tuple[str, int]:
    if isinstance(value, (list, tuple)):
        V.seq(list(value), field, 2)
        pid, lvl = value[0], value[1]
    else:
        pid, lvl = value, None
    V.card_id(pid, field, set(data.planets))
    faces = data.planets[pid].faces
    if lvl is None:
        return pid, faces[0]
    if isinstance(lvl, bool) or lvl not in faces:
        V.fail(field, f"{pid} shows level {list(faces)}, not {lvl!r}", V.RANGE)
    return pid, int(lvl)
