"""The units ``compare`` tests: one value per game (or per seat in a game, or per mission dealt).

``game_units`` gives the whole-game metrics (length, win rates, score parts, missions completed or
revealed, loss causes); ``card_units`` gives one measure per card or mission id and counter, each a
mean per game over every game (so A and B pair up game by game), plus the win rate of the players
who played or held it (unpaired: who plays a card changes with the card).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cosmodeck.sim.cardstats import ids_of, seen, won
from cosmodeck.sim.runner import GameOutcome

Units = dict[str, tuple[str, dict[Any, float]]]
# name -> (unit kind "card"/"mission", id, measure, value kind, {unit key: value})
CardUnits = dict[str, tuple[str, str, str, str, dict[Any, float]]]


def _loss(o: GameOutcome) -> str:
    d = o.result["details"]
    return f"loss: {d.get('cause')} in zone {d.get('zone')}"


def game_units(outcomes: Sequence[GameOutcome], players: int, cooperative: bool, game: str = "") -> Units:
    """Per metric: its kind (``mean`` or ``proportion``) and one value per unit."""
    out: Units = {}

    def put(name: str, kind: str, key: Any, value: float) -> None:
        out.setdefault(name, (kind, {}))[1][key] = value

    for o in outcomes:
        i = o.index
        put("length (decisions)", "mean", i, float(o.decisions))
        if o.game_time:
            put("game time (s)", "mean", i, o.game_time)
        res = o.result
        if cooperative:
            put("team win rate", "proportion", i, 1.0 if res.get("team_win") else 0.0)
        else:
            for s in range(players):
                put(f"win rate seat {s}", "proportion", i, 1.0 if s in res["winners"] else 0.0)
            first = o.metrics.get("first")
            if first is not None:
                put("first-mover win rate", "proportion", i, 1.0 if first in res["winners"] else 0.0)
            put("shared win rate", "proportion", i, 1.0 if len(res["winners"]) > 1 else 0.0)
        for seat, sp in enumerate(o.metrics.get("score_parts", ())):
            for part in ("cards", "moons", "missions", "debris_bonus", "total"):
                put(f"score: {part}", "mean", (i, seat), float(sp[part]))
        if game == "shooting-star":  # [mission id, seat, points, most points]
            for mid, seat, pts, most in o.metrics.get("missions", ()):
                put(f"mission {mid} completed", "proportion", (i, seat), 1.0 if pts >= most else 0.0)
        if "missions_revealed" in o.metrics:  # Blast Off: how many, and which (a list of ids)
            put("missions revealed", "mean", i, float(o.metrics["missions_revealed"]))
        if game == "blast-off" and "per_mission" in o.metrics:  # all missions together
            for c in ("obligations", "violations", "catches"):
                put(f"mission {c} (all missions)", "mean", i,
                    sum(float(m.get(c, 0.0)) for m in o.metrics["per_mission"].values()))
        if "meteors_left" in o.metrics and o.metrics["meteors_left"] is not None:
            put("meteors left at the end", "mean", i, float(o.metrics["meteors_left"]))
    if game == "blast-off":
        for mid in sorted({str(m) for o in outcomes for m in o.metrics.get("missions", ())}):
            for o in outcomes:
                put(f"mission {mid} revealed", "proportion", o.index,
                    1.0 if mid in o.metrics.get("missions", ()) else 0.0)
    if cooperative:  # loss causes: a share of all games, so every game is a unit
        for c in {_loss(o) for o in outcomes if not o.result.get("team_win")}:
            for o in outcomes:
                put(c, "proportion", o.index, 1.0 if not o.result.get("team_win") and _loss(o) == c else 0.0)
    return out


def card_units(outcomes: Sequence[GameOutcome], cooperative: bool) -> CardUnits:
    """Per card or mission id: every counter per game, and the win rate of its players."""
    out: CardUnits = {}
    for key, unit in (("per_card", "card"), ("per_mission", "mission")):
        games = [o for o in outcomes if key in o.metrics]
        for uid in ids_of(games, key):
            entries = [(o, o.metrics[key].get(uid) or {}) for o in games]
            for c in sorted({c for _o, e in entries for c in e if c != "seats"}):
                out[f"{unit} {uid}: {c} per game"] = (unit, uid, f"{c} per game", "mean",
                                                      {o.index: float(e.get(c, 0.0)) for o, e in entries})
            wins: dict[Any, float] = {}
            for o, e in entries:
                if not seen(e):
                    continue
                for s in ([0] if cooperative else e.get("seats", ())):
                    wins[(o.index, s)] = 1.0 if won(o, s, cooperative) else 0.0
            if wins:
                verb = "played or held" if unit == "card" else "in force"
                out[f"{unit} {uid}: win rate when {verb}"] = (unit, uid, f"win rate when {verb}", "proportion", wins)
    return out
