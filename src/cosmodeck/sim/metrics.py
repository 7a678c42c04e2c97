"""Per-game numbers for designers, read from a *finished* game only.

The simulator may read what a spectator can read once the game is over: the final result
(``result.details``), the record (who moved first) and the final spectator view. Nothing
here runs while bots play, so it cannot leak anything to them.

Each game gets a small JSON-ready dict; :mod:`cosmodeck.sim.summary` aggregates them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cosmodeck.engine.state import State

Extractor = Callable[[State, dict[str, Any]], dict[str, Any]]


def first_mover(state: State) -> int | None:
    """The seat that made the game's first decision (from the action log)."""
    for _t, seat, _a in state.log_entries():
        if seat is not None:
            return seat
    return None


def _shooting_star(state: State, result: dict[str, Any]) -> dict[str, Any]:
    """SHS-14 score parts per seat and each dealt mission with the points it scored."""
    data: Any = state.game.data
    parts = []
    missions = []
    for seat, b in enumerate(result["details"]["breakdown"]):
        mpts = b["missions"]
        parts.append({"cards": b["cards"], "moons": b["moons"], "missions": sum(mpts.values()),
                      "debris_bonus": b["debris_bonus"], "total": b["total"], "debris": b["debris"]})
        for mid, pts in mpts.items():
            missions.append([mid, seat, int(pts), int(data.missions[mid].points)])
    return {"score_parts": parts, "missions": missions}


def _meteor(state: State, result: dict[str, Any]) -> dict[str, Any]:
    d = result["details"]
    return {"difficulty": state.game.options.get("difficulty"), "cause": d.get("cause"), "zone": d.get("zone"),
            "meteors_left": d.get("meteors_left")}


def _blast_off(state: State, result: dict[str, Any]) -> dict[str, Any]:
    """Missions revealed and penalties, read from the final spectator view (whatever it names them)."""
    view = state.view(None)
    out: dict[str, Any] = {"hand_sizes": result["details"].get("hand_sizes")}
    missions = view.get("missions")
    if isinstance(missions, list):
        out["missions_revealed"] = sum(1 for m in missions if isinstance(m, dict) and m.get("revealed"))
        out["missions"] = [m.get("id") for m in missions if isinstance(m, dict) and m.get("revealed")]
    penalties = view.get("penalties")
    if isinstance(penalties, list):
        out["penalties"] = penalties
    return out


EXTRACTORS: dict[str, Extractor] = {
    "shooting-star": _shooting_star,
    "meteor": _meteor,
    "blast-off": _blast_off,
}


def game_metrics(state: State, result: dict[str, Any]) -> dict[str, Any]:
    """The designer's numbers of one finished game (``result`` is ``state.result.to_dict()``)."""
    out: dict[str, Any] = {"first": first_mover(state)}
    extract = EXTRACTORS.get(state.game.id)
    if extract is not None:
        out.update(extract(state, result))
    return out
