"""Setup (SHS-3) and the custom star sector variant (SHS-16).

Every random choice uses the state's RNG, in a fixed order (SHS-D3): first player,
sector (set-aside copies, pile, faces, cells), then missions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.cards import DARK_LEVEL, KIND_DARK, NEIGHBOURS, Cell
from cosmodeck.games.shooting_star.loader import ShsData

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import ShootingStarState

PHASE_SECTOR = "sector"
PHASE_PLACE = "place"
PHASE_OVER = "over"


def first_player(options: Mapping[str, Any], players: int, rng: Rng) -> int:
    """SHS-3.9 / R21: random, the youngest (ties random) or a given seat."""
    how = options["first_player"]
    if how == "random":
        return rng.randbelow(players)
    if how == "youngest":
        ages = options["ages"]
        if not isinstance(ages, (list, tuple)) or len(ages) != players:
            raise OptionError(f"first_player='youngest' needs option ages with {players} numbers (R21)", "bad_ages")
        low = min(ages)
        youngest = [s for s, a in enumerate(ages) if a == low]
        return youngest[0] if len(youngest) == 1 else rng.choice(youngest)
    assert isinstance(how, int)
    if how >= players:
        raise OptionError(f"first_player seat {how} does not exist with {players} players", "bad_first_player")
    return how


def set_aside(data: ShsData, rng: Rng) -> list[str]:
    """SHS-3.2 / R26: one random copy of each of six names plus random Dark Planet(s).

    With more names than ``set_aside_names`` (edited data), the shared planet is always among
    them and the others are chosen at random.
    """
    others = list(data.set_aside_others)  # the names but the shared planet's, in data order
    rng.shuffle(others)
    picked = {data.shared_planet, *others[: data.set_aside_names - 1]}
    chosen = [n for n in data.names if n in picked][: data.set_aside_names]
    out: list[str] = []
    for name in chosen:
        out.append(rng.choice(data.copies[name]))
    darks = list(data.darks)
    rng.shuffle(darks)
    out += darks[: data.set_aside_dark]
    return out


def pile(data: ShsData, rng: Rng, size: int) -> tuple[list[str], list[str]]:
    """SHS-3.2-3.3: the shuffled pile of ``size`` planets, and the leftovers (the reserve)."""
    aside = set_aside(data, rng)
    aside_set = set(aside)
    rest = [p for p in data.planet_order if p not in aside_set]
    rng.shuffle(rest)
    cards = aside + rest[: size - len(aside)]
    rng.shuffle(cards)
    return cards, rest[size - len(aside):]


def face(data: ShsData, pid: str, how: object, rng: Rng) -> int:
    """R2: a fair coin per card, or the higher face with setup_face='high'."""
    faces = data.faces[pid]
    if len(faces) == 1:
        return faces[0]
    return faces[-1] if how == "high" else faces[rng.randbelow(2)]


def deal_grid(st: ShootingStarState, rng: Rng) -> None:
    """SHS-3.2-3.5: deal the grid, redealing from scratch while two Dark Planets touch (SHS-3.4)."""
    data = st.game.data
    cells = data.grids[st.players]
    how = st.game.options["setup_face"]
    faces = data.faces
    while True:
        cards, rest = pile(data, rng, len(cells))
        board: dict[Cell, tuple[str, int]] = {}
        for c, p in zip(cells, cards, strict=True):  # ``face`` of each card, in cell order
            f = faces[p]
            board[c] = (p, f[0] if len(f) == 1 else f[-1] if how == "high" else f[rng.randbelow(2)])
        if not darks_adjacent(data, board):
            break
    st.board = board
    st.reserve = tuple(sorted(rest))
    st.set_shape(cells)


def darks_adjacent(data: ShsData, board: dict[Cell, tuple[str, int]]) -> bool:
    darks = data.dark_set
    for (x, y), (pid, _) in board.items():
        if pid not in darks:
            continue
        for dx, dy in NEIGHBOURS[:2]:
            nb = board.get((x + dx, y + dy))
            if nb is not None and nb[0] in darks:
                return True
    return False


def deal_missions(st: ShootingStarState, rng: Rng) -> None:
    """SHS-3.7-3.8: one mission of each value per player; the rest go back to the box."""
    data = st.game.data
    hands: list[list[str]] = [[] for _ in range(st.players)]
    box: list[str] = []
    for ids in data.mission_stacks:  # each value's missions, by id (the values ascending)
        stack = list(ids)
        rng.shuffle(stack)
        for s in range(st.players):
            hands[s].append(stack[s])
        box += stack[st.players:]
    st.missions = [tuple(h) for h in hands]
    st.box = tuple(sorted(box))


# ---- custom star sector (SHS-16) ------------------------------------------------------------
def deal_custom(st: ShootingStarState, rng: Rng) -> None:
    """SHS-16.1: a pile of 6N planets dealt 6 to each player; the rest is the reserve."""
    data = st.game.data
    per = data.custom_planets_per_player
    cards, rest = pile(data, rng, per * st.players)
    order = {p: i for i, p in enumerate(data.planet_order)}
    st.planet_hands = [tuple(sorted(cards[s * per:(s + 1) * per], key=order.__getitem__))
                       for s in range(st.players)]
    st.reserve = tuple(sorted(rest))
    st.board = {}
    st.set_shape(())


def sector_cells(st: ShootingStarState, pid: str) -> list[Cell]:
    """SHS-16.2-16.4: the cells where planet ``pid`` may go now (row-major)."""
    board = st.board
    if not board:
        return [(0, 0)]
    planets = st.game.data.planets
    dark = planets[pid].kind == KIND_DARK
    out: set[Cell] = set()
    for x, y in board:
        for dx, dy in NEIGHBOURS:
            c = (x + dx, y + dy)
            if c in board or c in out:
                continue
            if dark and any(
                (nb := board.get((c[0] + ex, c[1] + ey))) is not None and planets[nb[0]].kind == KIND_DARK
                for ex, ey in NEIGHBOURS
            ):
                continue
            out.add(c)
    return sorted(out, key=lambda c: (c[1], c[0]))


def after_sector_move(st: ShootingStarState, seat: int, events: list[Event]) -> None:
    """Pass to the next player; move an unplaceable Dark Planet to the reserve (R23); finish."""
    n = st.players
    nxt = (seat + 1) % n
    while True:
        if not any(st.planet_hands):
            finish_sector(st, events)
            return
        hand = st.planet_hands[nxt]
        if hand:
            if any(sector_cells(st, p) for p in hand):
                st.sector_next = nxt
                return
            moved = hand[0]  # only Dark Planets are left, none placeable (SHS-16.4)
            st.planet_hands[nxt] = hand[1:]
            st.reserve = tuple(sorted((*st.reserve, moved)))
            st.forced = tuple(sorted({*st.forced, nxt}))
            events.append(Event("to_reserve", {"seat": nxt}, private={"planet": moved}, seats=frozenset({nxt})))
        nxt = (nxt + 1) % n


def finish_sector(st: ShootingStarState, events: list[Event]) -> None:
    """SHS-16.6: the sector is built; continue from SHS-3.5 (reserve, hands, missions)."""
    st.set_shape(tuple(st.board))
    deal_missions(st, st.rng)
    st.phase = PHASE_PLACE
    st.sector_next = -1
    events.append(Event("invader", {"seat": st.invader}))


def place_planet(st: ShootingStarState, seat: int, pid: str, cell: Cell, level: int, events: list[Event]) -> None:
    hand = st.planet_hands[seat]
    st.planet_hands[seat] = tuple(p for p in hand if p != pid)
    st.board[cell] = (pid, level)
    events.append(Event("place_planet", {"seat": seat, "planet": pid, "cell": [cell[0], cell[1]],
                                         "face": None if level == DARK_LEVEL else level}))
    after_sector_move(st, seat, events)
