"""Validation of a saved Shooting Star state core before it is loaded (issue 13).

Schema and types of every field, ranges, ids known to the card data, the census (every planet,
every Destruction card of the factions in play and every mission exactly once, in a zone the
rules allow) and the cross-field facts of the rules (levels match the planet cards, cards sit on
planets of the sector, the placement order follows the Invader, hand sizes follow the turn,
the phase agrees with the sector, missions and the end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.games.shooting_star.cards import KIND_DARK, card_id
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER, PHASE_PLACE, PHASE_SECTOR

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.game import ShootingStarGame

KEYS = ("factions", "shape", "phase", "turn", "invader", "sector_next", "board", "placed", "hands", "conquest",
        "debris", "reserve", "missions", "box", "planet_hands", "forced", "end")
END_REASONS = ("seven_cards", "few_planets")
COORD = 200  # a sector never reaches this far from its first planet


def validate_core(game: ShootingStarGame, players: int, raw: Any, now: float) -> None:
    data = game.data
    n = players
    core = V.obj(raw, "core", KEYS)
    factions = V.seq(core["factions"], "core.factions", n)
    for s, f in enumerate(factions):
        V.one_of(V.string(f, f"core.factions[{s}]"), f"core.factions[{s}]", tuple(data.faction_by_id))
    if len(set(factions)) != n:
        V.fail("core.factions", "each player has a different faction", V.INCONSISTENT)
    phase = V.one_of(core["phase"], "core.phase", (PHASE_SECTOR, PHASE_PLACE, PHASE_OVER))
    turn = V.integer(core["turn"], "core.turn", 1, data.max_cards_played)
    invader = V.integer(core["invader"], "core.invader", 0, n - 1)
    sector_next = V.integer(core["sector_next"], "core.sector_next", -1, n - 1)
    if (phase == PHASE_SECTOR) != (sector_next >= 0):
        V.fail("core.sector_next", "names the next planet placer exactly while the sector is built", V.INCONSISTENT)
    if phase == PHASE_SECTOR and not game.options["custom_sector"]:
        V.fail("core.phase", "the sector is built by the players only with custom_sector", V.INCONSISTENT)
    shape = _cells(core["shape"], "core.shape")
    board = _board(core, game, shape, phase, n)
    planets = set(data.planets)
    zones: list[str] = [p for p, _ in board.values()]
    for k in ("reserve",):
        zones += V.ids(core[k], f"core.{k}", planets)
    planet_hands = V.seq(core["planet_hands"], "core.planet_hands", n)
    for s in range(n):
        zones += V.ids(planet_hands[s], f"core.planet_hands[{s}]", planets)
        if planet_hands[s] and phase != PHASE_SECTOR:
            V.fail(f"core.planet_hands[{s}]", "planet hands exist only while the sector is built", V.INCONSISTENT)
    dest = {card_id(f, k) for f in factions for k in data.card_order}
    hands = V.seq(core["hands"], "core.hands", n)
    cards_seen: list[str] = []
    for s in range(n):
        for k in V.ids(hands[s], f"core.hands[{s}]", set(data.card_order)):
            cards_seen.append(card_id(factions[s], k))
    placed = _placed(core, game, board, n, invader, phase)
    cards_seen += [card_id(factions[s], k) for s, k, *_ in placed]
    for pile in ("conquest", "debris"):
        rows = V.seq(core[pile], f"core.{pile}", n)
        for s in range(n):
            for c in V.ids(rows[s], f"core.{pile}[{s}]", planets | dest):
                (zones if c in planets else cards_seen).append(c)
    V.census(zones, dict.fromkeys(data.planet_order, 1), "planet")
    V.census(cards_seen, dict.fromkeys(sorted(dest), 1), "Destruction card")
    _missions(core, game, n, phase)
    forced = V.ints(core["forced"], "core.forced", 0, n - 1)
    if forced != sorted(set(forced)):
        V.fail("core.forced", "must list seats in order, once each", V.INCONSISTENT)
    end = core["end"]
    if end is not None:
        V.one_of(end, "core.end", END_REASONS)
    if (phase == PHASE_OVER) != (end is not None):
        V.fail("core.end", "the end reason is set exactly when the phase is over", V.INCONSISTENT)
    if phase == PHASE_PLACE:
        for s in range(n):
            want = len(data.card_order) - (turn - 1) - (1 if any(p[0] == s for p in placed) else 0)
            if len(hands[s]) != want:
                V.fail(f"core.hands[{s}]", f"holds {len(hands[s])} cards; in turn {turn} it holds {want}",
                       V.INCONSISTENT)
        if len(board) <= len(placed):
            V.fail("core.board", "the next player has no free planet to place on", V.INCONSISTENT)
    elif phase == PHASE_SECTOR:
        if any(hands[s] != list(data.card_order) for s in range(n)) or placed or turn != 1:
            V.fail("core.hands", "no Destruction card is played while the sector is built", V.INCONSISTENT)
        if not planet_hands[sector_next]:
            V.fail("core.sector_next", f"seat {sector_next} has no planet to place", V.INCONSISTENT)
    elif placed or any(hands):
        V.fail("core.hands", "at the end every hand and placement is in the debris", V.INCONSISTENT)
    del now


def _cells(value: Any, field: str) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for i, c in enumerate(V.seq(value, field, max_len=COORD)):
        x, y = V.ints(c, f"{field}[{i}]", -COORD, COORD, length=2)
        if (x, y) in out:
            V.fail(f"{field}[{i}]", f"cell {x},{y} is listed twice", V.INCONSISTENT)
        out.add((x, y))
    return out


def _board(core: dict[str, Any], game: ShootingStarGame, shape: set[tuple[int, int]],
           phase: str, n: int) -> dict[tuple[int, int], tuple[str, int]]:
    data = game.data
    board: dict[tuple[int, int], tuple[str, int]] = {}
    for i, e in enumerate(V.seq(core["board"], "core.board", max_len=COORD)):
        f = f"core.board[{i}]"
        V.seq(e, f, 4)
        x = V.integer(e[0], f"{f}[0]", -COORD, COORD)
        y = V.integer(e[1], f"{f}[1]", -COORD, COORD)
        pid = V.card_id(e[2], f"{f}[2]", set(data.planets))
        lvl = V.integer(e[3], f"{f}[3]")
        if lvl not in data.planets[pid].faces:
            V.fail(f"{f}[3]", f"{pid} shows no level {lvl} (its faces: {list(data.planets[pid].faces)})",
                   V.INCONSISTENT)
        if (x, y) in board:
            V.fail(f, f"cell {x},{y} holds two planets", V.INCONSISTENT)
        if phase != PHASE_SECTOR and (x, y) not in shape:
            V.fail(f, f"cell {x},{y} is outside the sector", V.INCONSISTENT)
        board[(x, y)] = (pid, lvl)
    if phase != PHASE_SECTOR and not game.options["custom_sector"] and shape != set(data.grids[n]):
        V.fail("core.shape", "is not the grid of this player count", V.INCONSISTENT)
    if phase == PHASE_SECTOR and shape:
        V.fail("core.shape", "the sector has no shape until it is built", V.INCONSISTENT)
    planets = data.planets
    for (x, y), (pid, _) in board.items():
        if planets[pid].kind == KIND_DARK:
            for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                nb = board.get((x + dx, y + dy))
                if nb is not None and planets[nb[0]].kind == KIND_DARK:
                    V.fail("core.board", f"two Dark Planets touch at {x},{y}", V.INCONSISTENT)
    return board


def _placed(core: dict[str, Any], game: ShootingStarGame, board: dict[tuple[int, int], Any], n: int, invader: int,
            phase: str) -> list[tuple[int, str, int, int, str]]:
    out: list[tuple[int, str, int, int, str]] = []
    cells: set[tuple[int, int]] = set()
    rows = V.seq(core["placed"], "core.placed", max_len=n - 1)
    for i, e in enumerate(rows):
        f = f"core.placed[{i}]"
        V.seq(e, f, 5)
        s = V.integer(e[0], f"{f}[0]", 0, n - 1)
        if s != (invader + i) % n:
            V.fail(f"{f}[0]", f"the {i + 1}. card of a turn is placed by seat {(invader + i) % n}", V.INCONSISTENT)
        k = V.card_id(e[1], f"{f}[1]", set(game.data.card_order))
        x = V.integer(e[2], f"{f}[2]")
        y = V.integer(e[3], f"{f}[3]")
        if (x, y) not in board or (x, y) in cells:
            V.fail(f, f"cell {x},{y} has no planet or already a card", V.INCONSISTENT)
        cells.add((x, y))
        a = V.one_of(e[4], f"{f}[4]", game.arrows)
        out.append((s, k, x, y, a))
    if out and phase != PHASE_PLACE:
        V.fail("core.placed", "cards are placed only in the placement phase", V.INCONSISTENT)
    return out


def _missions(core: dict[str, Any], game: ShootingStarGame, n: int, phase: str) -> None:
    data = game.data
    known = set(data.missions)
    rows = V.seq(core["missions"], "core.missions", n)
    dealt: list[str] = []
    for s in range(n):
        mine = V.ids(rows[s], f"core.missions[{s}]", known)
        dealt += mine
        if phase != PHASE_SECTOR and sorted(data.missions[m].points for m in mine) != list(data.mission_values):
            V.fail(f"core.missions[{s}]", "each player holds one mission of each value", V.INCONSISTENT)
        if phase == PHASE_SECTOR and mine:
            V.fail(f"core.missions[{s}]", "missions are dealt once the sector is built", V.INCONSISTENT)
    box = V.ids(core["box"], "core.box", known)
    V.census(dealt + box, dict.fromkeys(data.missions, 1), "mission")
