"""Scoring (SHS-14) and secret missions (SHS-15)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.result import Result
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK, Mission, is_planet_id
from cosmodeck.games.shooting_star.loader import ShsData

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import ShootingStarState


def mission_points(data: ShsData, mission: Mission, captured: Sequence[str]) -> int:
    """SHS-15: ``captured`` are the planet ids that count (Dark Planets are ignored, SHS-15.2)."""
    ps = [data.planets[p] for p in captured if is_planet_id(p)]
    ps = [p for p in ps if p.kind != KIND_DARK]
    if mission.named:  # SHS-15.3: distinct names found; copies add nothing; replacements have no name
        have = {p.name for p in ps if p.kind == KIND_34}
        return mission.score_by_found[sum(1 for n in mission.named if n in have)]
    count = {
        "planets": len(ps),
        KIND_12: sum(1 for p in ps if p.kind == KIND_12),
        KIND_34: sum(1 for p in ps if p.kind == KIND_34),
        "moon": sum(1 for p in ps if p.moons >= 1),
    }
    return mission.points if all(count[k] >= v for k, v in mission.need.items()) else 0  # SHS-15.1


def score_all(data: ShsData, options: Mapping[str, Any], conquest: Sequence[Sequence[str]],
              debris: Sequence[Sequence[str]], missions: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """SHS-14.1-14.5 per seat, with the SHS-14.6 tie-break keys ``captured`` and ``moon_count``."""
    planets = data.planets
    all_cards = options["conquest_points"] == "all_cards"
    most = max(len(d) for d in debris)
    out: list[dict[str, Any]] = []
    for seat, (con, deb) in enumerate(zip(conquest, debris, strict=True)):
        con_planets = [p for p in con if is_planet_id(p)]
        deb_planets = [p for p in deb if is_planet_id(p)]
        cards = len(con) if all_cards else len(con_planets)  # SHS-14.1, R16
        moons = sum(1 for p in con_planets if planets[p].moons >= 1)  # SHS-14.2, R28
        counted = con_planets + deb_planets if options["missions_count_debris"] else con_planets  # R17
        mpts = {m: mission_points(data, data.missions[m], counted) for m in missions[seat]}  # SHS-14.3
        bonus = data.debris_bonus if len(deb) == most else 0  # SHS-14.4
        total = cards + moons + sum(mpts.values()) + bonus
        out.append({
            "cards": cards,
            "moons": moons,
            "missions": mpts,
            "debris": len(deb),
            "debris_bonus": bonus,
            "total": total,
            "captured": len(con) + len(deb_planets),  # SHS-14.6 (1)
            "moon_count": sum(planets[p].moons for p in con_planets + deb_planets),  # SHS-14.6 (2)
        })
    return out


def rank(breakdown: Sequence[Mapping[str, Any]], reason: str) -> Result:
    """SHS-14.6: most points, then captured cards, then moons; a full tie is shared."""
    scores = {s: float(b["total"]) for s, b in enumerate(breakdown)}
    keys = {s: (float(b["total"]), float(b["captured"]), float(b["moon_count"])) for s, b in enumerate(breakdown)}
    return Result.ranked(reason, scores, keys, {"breakdown": [dict(b) for b in breakdown]})


def final_result(st: ShootingStarState) -> Result:
    assert st.end is not None
    b = score_all(st.game.data, st.game.options, st.conquest, st.debris, st.missions)
    return rank(b, st.end)
