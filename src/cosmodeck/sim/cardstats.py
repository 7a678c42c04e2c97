"""Per-card and per-mission statistics of a run (the ``per_card`` and ``per_mission`` keys).

Aggregates the per-game tallies of :mod:`cosmodeck.sim.observe`. For each card or mission id of
the data file:

- ``games``: games in which it showed up (played, drawn, dealt, revealed, destroyed...), with
  ``rate`` and a Wilson 95% interval;
- ``per_game``: every counter's mean per game over *all* games, with a 95% interval and total;
- ``win_rate``: how often the player who played or held it won (competitive games: one unit per
  game and seat; cooperative: the team, one unit per game it showed up in), Wilson 95% interval;
- ``length``: mean length in decisions of the games it showed up in, with a 95% interval;
- ratios where they mean something: ``completion_rate`` (Shooting Star missions: completed /
  dealt), ``violation_rate`` (violations / obligations) and ``catch_rate`` (catches / violations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.stats import mean, mean_ci95, wilson

KEYS = ("per_card", "per_mission")
RATIOS = (("completion_rate", "completed", "dealt"), ("violation_rate", "violations", "obligations"),
          ("catch_rate", "catches", "violations"))


def seen(entry: dict[str, Any]) -> bool:
    """Did the card or mission show up in this game?"""
    return bool(entry.get("seats")) or any(v for k, v in entry.items() if k != "seats")


def ids_of(outcomes: Sequence[GameOutcome], key: str) -> list[str]:
    out: set[str] = set()
    for o in outcomes:
        out.update(o.metrics.get(key) or ())
    return sorted(out)


def won(o: GameOutcome, seat: int, cooperative: bool) -> bool:
    return bool(o.result.get("team_win")) if cooperative else seat in o.result["winners"]


def aggregate(outcomes: Sequence[GameOutcome], key: str, cooperative: bool) -> dict[str, Any]:
    """``{id: statistics}`` for ``key`` (``per_card`` or ``per_mission``) over every finished game."""
    games = [o for o in outcomes if key in o.metrics]
    n = len(games)
    out: dict[str, Any] = {}
    for uid in ids_of(games, key):
        entries = [o.metrics[key].get(uid) or {} for o in games]
        shown = [(o, e) for o, e in zip(games, entries, strict=True) if seen(e)]
        counters = sorted({c for e in entries for c in e if c != "seats"})
        per_game: dict[str, dict[str, Any]] = {}
        for c in counters:
            vals = [float(e.get(c, 0.0)) for e in entries]
            per_game[c] = {"mean": mean(vals), "ci95": list(mean_ci95(vals)), "total": sum(vals)}
        if cooperative:
            wins = [won(o, 0, True) for o, _e in shown]
        else:
            wins = [won(o, s, False) for o, e in shown for s in e.get("seats", ())]
        k = len(shown)
        lengths = [float(o.decisions) for o, _e in shown]
        row: dict[str, Any] = {
            "games": k, "rate": k / n if n else 0.0, "ci95": list(wilson(k, n)), "per_game": per_game,
            "win_rate": sum(wins) / len(wins) if wins else None, "win_units": len(wins),
            "win_ci95": list(wilson(sum(wins), len(wins))) if wins else None,
            "length": {"mean": mean(lengths), "ci95": list(mean_ci95(lengths))} if lengths else None,
        }
        for name, num, den in RATIOS:
            if num in per_game and den in per_game and per_game[den]["total"] > 0:
                x, t = round(per_game[num]["total"]), round(per_game[den]["total"])
                if 0 <= x <= t:
                    row[name] = x / t
                    row[f"{name}_ci95"] = list(wilson(x, t))
        out[uid] = row
    return out


def meteor_progress(outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Meteor: how far each game got, and which meteors remained at each loss."""
    losses = [o for o in outcomes if not o.result.get("team_win") and "zone_reached" in o.metrics]
    left: dict[str, int] = {}
    for o in losses:
        for mid in o.metrics.get("meteors_left_at_loss", ()):
            left[mid] = left.get(mid, 0) + 1
    zones: dict[str, int] = {}
    for o in outcomes:
        z = o.metrics.get("zone_reached")
        if z is not None:
            zones[str(z)] = zones.get(str(z), 0) + 1
    times = [float(o.metrics["time_reached"]) for o in outcomes if "time_reached" in o.metrics]
    counts = [float(len(o.metrics.get("meteors_left_at_loss", ()))) for o in losses]
    n = len(losses)
    return {
        "losses": n,
        "meteors_left_at_loss": {m: {"losses": k, "rate": k / n, "ci95": list(wilson(k, n))}
                                 for m, k in sorted(left.items(), key=lambda kv: (-kv[1], kv[0]))},
        "meteors_left_per_loss": {"mean": mean(counts), "ci95": list(mean_ci95(counts))},
        "zone_reached": dict(sorted(zones.items())),
        "time_reached_s": {"mean": mean(times), "ci95": list(mean_ci95(times)),
                           "min": min(times, default=0.0), "max": max(times, default=0.0)},
    }
