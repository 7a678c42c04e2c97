# cython: language_level=3
"""``view.build`` and ``view.build_keys`` compiled: the same code as the readable ``view.build_py`` and
``view.build_keys_py`` (with ``_Shared.grid`` and ``_Shared.hand_entry``, whose kept entries they read and fill
in the same way), which run when this extension is not built. ``tests/shooting_star/test_view_shared.py`` and
``test_view_keys.py`` check both against the views built afresh on every step of seeded games."""

from cosmodeck.games.shooting_star.cards import DARK_LEVEL, card_id
from cosmodeck.games.shooting_star.rules_setup import PHASE_OVER
from cosmodeck.games.shooting_star.rules_turn import planets_left
from cosmodeck.games.shooting_star.view import CHEAP_KEYS, MAX_GRIDS, MAX_SHARED, _shared


def _yx(c):
    return (c[1], c[0])


cdef tuple _grid(sh, st):
    """``_Shared.grid``."""
    cdef dict board = st.board
    order = st.shape_order or tuple(sorted(board, key=_yx))
    key = (order, tuple(board), tuple(board.values()))
    last = sh.last
    if last is not None and last[0] == key:
        return last[1]
    cdef dict kept = sh.cells
    hit = kept.get(key)
    if hit is not None:
        sh.last = (key, hit)
        return hit
    planets = st.game.data.planets
    cdef list cells = []
    cdef dict entries = sh.cell
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
    if len(kept) >= MAX_GRIDS:
        kept.clear()
    kept[key] = hit
    sh.last = (key, hit)
    return hit


cdef tuple _board(st, seat, sh):
    fac = st.factions
    cells, index, bounds = _grid(sh, st)
    cdef list placed = []
    cdef dict facedown = {}
    cdef Py_ssize_t k = 0
    cdef list lst = st.placed
    if lst:
        cells = list(cells)
        for s, kind, cell, arrow in lst:
            entry = {"seat": s, "cell": [cell[0], cell[1]], "orientation": arrow, "order": k + 1,
                     "card": card_id(fac[s], kind) if s == seat else None}
            k += 1
            placed.append(entry)
            facedown[s] = kind
            i = index.get(cell)
            if i is not None:
                cells[i] = {**cells[i], "card": dict(entry)}
    return {"cells": cells, "bounds": bounds}, placed, facedown


cdef list _hands(st, seat, sh, dict facedown):
    """``[sh.hand_entry(st, s, s == seat, facedown.get(s)) for s in range(st.players)]``."""
    cdef list out = []
    cdef dict kept = sh.hand
    hands = st.hands
    for s in range(st.players):
        hand = hands[s]
        mine = s == seat
        down = facedown.get(s)
        key = (s, hand, mine, down)
        entry = kept.get(key)
        if entry is None:
            entry = {"seat": s, "count": len(hand), "cards": list(hand) if mine else None,
                     "used": sh.used_cards(st, hand, down)}
            if len(kept) >= MAX_SHARED:
                kept.clear()
            kept[key] = entry
        out.append(entry)
    return out


cdef list _missions(st, seat, sh):
    over = st.phase == PHASE_OVER
    missions = st.missions
    return [sh.mission_list(st, missions[s]) if over or s == seat else None for s in range(st.players)]


def build(st, seat):
    """``view.build_py``."""
    data = st.game.data
    sh = _shared(st)
    grid, placed, facedown = _board(st, seat, sh)
    out = {
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


def build_keys(st, seat, keys):
    """``view.build_keys_py``."""
    if not keys <= CHEAP_KEYS:
        full = st.view(seat)
        return {k: v for k, v in full.items() if k in keys}
    if seat is not None and (type(seat) is not int or not 0 <= seat < st.players):
        st.view(seat)  # the whole view's own error for a bad seat
    sh = _shared(st)
    out = {}
    if "players" in keys:
        out["players"] = st.players
    if "seat" in keys:
        out["seat"] = seat
    facedown = None
    if "grid" in keys or "placed" in keys or "hands" in keys:
        grid, placed, facedown = _board(st, seat, sh)
        if "grid" in keys:
            out["grid"] = grid
        if "placed" in keys:
            out["placed"] = placed
    if "hands" in keys:
        out["hands"] = _hands(st, seat, sh, facedown)
    if "conquest" in keys:
        out["conquest"] = [list(p) for p in st.conquest]
    if "debris" in keys:
        out["debris"] = [list(p) for p in st.debris]
    if "missions" in keys:
        out["missions"] = _missions(st, seat, sh)
    return out
