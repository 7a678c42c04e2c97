"""Exact JSON round trip of the Shooting Star state core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.games.shooting_star.rules_score import final_result

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import ShootingStarState


def dump(st: ShootingStarState) -> dict[str, Any]:
    return {
        "factions": list(st.factions),
        "shape": [[x, y] for x, y in st.shape_order],
        "phase": st.phase,
        "turn": st.turn,
        "invader": st.invader,
        "sector_next": st.sector_next,
        "board": [[x, y, p, lvl] for (x, y), (p, lvl) in st.board.items()],
        "placed": [[s, k, x, y, a] for s, k, (x, y), a in st.placed],
        "hands": [list(h) for h in st.hands],
        "conquest": [list(p) for p in st.conquest],
        "debris": [list(p) for p in st.debris],
        "reserve": list(st.reserve),
        "missions": [list(m) for m in st.missions],
        "box": list(st.box),
        "planet_hands": [list(h) for h in st.planet_hands],
        "forced": list(st.forced),
        "end": st.end,
    }


def _tuples(rows: Any) -> list[tuple[str, ...]]:
    return [tuple(str(x) for x in r) for r in rows]


def load(st: ShootingStarState, core: dict[str, Any]) -> None:
    st.factions = tuple(str(f) for f in core["factions"])
    st.set_shape((int(x), int(y)) for x, y in core["shape"])
    st.phase = str(core["phase"])
    st.turn = int(core["turn"])
    st.invader = int(core["invader"])
    st.sector_next = int(core["sector_next"])
    st.board = {(int(x), int(y)): (str(p), int(lvl)) for x, y, p, lvl in core["board"]}
    st.placed = [(int(s), str(k), (int(x), int(y)), str(a)) for s, k, x, y, a in core["placed"]]
    st.hands = _tuples(core["hands"])
    st.conquest = _tuples(core["conquest"])
    st.debris = _tuples(core["debris"])
    st.reserve = tuple(str(p) for p in core["reserve"])
    st.missions = _tuples(core["missions"])
    st.box = tuple(str(m) for m in core["box"])
    st.planet_hands = _tuples(core["planet_hands"])
    st.forced = tuple(int(s) for s in core["forced"])
    st.end = None if core["end"] is None else str(core["end"])
    st.res = None if st.end is None else final_result(st)
