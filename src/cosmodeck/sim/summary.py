"""Summaries of a run: win rates with Wilson intervals, game length, first-mover advantage,
and per game what designers ask (Meteor losses by zone and cause, Shooting Star score parts and
secret missions, Blast Off missions and penalties).

Every outcome number depends only on the games (hence only on the seed), never on the
backend, the worker count or the order batches finished in.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from cosmodeck.sim.batch import MAX_DECISIONS, UNFINISHED
from cosmodeck.sim.cardstats import aggregate, meteor_progress
from cosmodeck.sim.report.names import names_of_text
from cosmodeck.sim.runner import GameOutcome
from cosmodeck.sim.stats import histogram, mean, mean_ci95, wilson


def _ci(x: int, n: int) -> list[float]:
    return list(wilson(x, n))


def run_setup(game: Any) -> dict[str, Any]:
    """What actually ran: every option with its value (defaults included), the timing, the data's hash."""
    options = game.options_json()
    default = "realtime" if game.info.real_time else "turns"
    timing = str(options.get("timing", default))
    return {"options_used": options, "timing": timing, "data_hash": game.data_hash}


BOUND_NOTE = ("a bound, not a fair team: {names} reads every hidden card (meteor faces, every hand); its win "
              "rate says what is winnable with perfect information, as far as that planner finds a way")


def bound_note(bots: str) -> str | None:
    """A label for runs with a simulation-only bot that sees the whole state (``None`` otherwise)."""
    from cosmodeck.bots.base import parse_bot_spec
    from cosmodeck.bots.registry import SIMULATION_ONLY

    names = sorted({parse_bot_spec(b)[0] for b in bots.split(",") if b.strip()} & set(SIMULATION_ONLY))
    return BOUND_NOTE.format(names=", ".join(names)) if names else None


def summarise(spec: Any, outcomes: Sequence[GameOutcome], elapsed: float, cooperative: bool,
              backend: str = "local", workers: int = 1, game: Any = None) -> dict[str, Any]:
    """The DESIGN.md ``simulate --json`` fields plus the designer's sections.

    ``game`` (the loaded game) adds ``options_used``, ``timing`` and ``data_hash``.
    """
    n = len(outcomes)
    decisions = sum(o.decisions for o in outcomes)
    lengths = [float(o.decisions) for o in outcomes]
    out: dict[str, Any] = {
        "game": spec.game,
        "players": spec.players,
        "games": n,
        "seed": spec.seed,
        "bots": spec.bots,
        "bound": bound_note(spec.bots),
        "options": spec.options,
        "data": None if spec.data is None else spec.data.source,
        "backend": backend,
        "workers": workers,
        "elapsed_s": round(elapsed, 4),
        "games_per_s": round(n / elapsed, 2) if elapsed > 0 else None,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed > 0 else None,
        "mean_length": mean(lengths),
        "length": {"mean": mean(lengths), "ci95": list(mean_ci95(lengths)),
                   "min": min(lengths, default=0.0), "max": max(lengths, default=0.0),
                   "histogram": histogram(lengths, integers=True)},
        "mean_game_time_s": mean([o.game_time for o in outcomes]),
        "unfinished": _unfinished(spec, outcomes),
    }
    if spec.data is not None:  # the names of the cards this run played, for its reports
        out["names"] = names_of_text(spec.data.text)
    if game is not None:
        out.update(run_setup(game))
    times = [o.game_time for o in outcomes]
    if any(times):
        out["game_time"] = {"mean": mean(times), "ci95": list(mean_ci95(times)), "min": min(times),
                            "max": max(times), "histogram": histogram(times)}
    if cooperative:
        out.update(_cooperative(outcomes))
    else:
        out.update(_competitive(spec.players, outcomes))
    section = SECTIONS.get(spec.game)
    if section is not None:
        out[spec.game.replace("-", "_")] = section(spec.players, outcomes)
    out["per_card"] = aggregate(outcomes, "per_card", cooperative)
    out["per_mission"] = aggregate(outcomes, "per_mission", cooperative)
    return out


def _unfinished(spec: Any, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Games stopped at the decision limit: draws nobody won, counted in every rate's denominator."""
    n = len(outcomes)
    k = sum(1 for o in outcomes if o.result["reason"] == UNFINISHED)
    return {"games": k, "rate": k / n if n else 0.0, "ci95": _ci(k, n),
            "max_decisions": getattr(spec, "max_decisions", MAX_DECISIONS)}


def _cooperative(outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    n = len(outcomes)
    wins = sum(1 for o in outcomes if o.result.get("team_win"))
    losses = [o for o in outcomes if not o.result.get("team_win")]
    causes = Counter(str(o.result["details"].get("cause")) for o in losses)
    zones = Counter(str(o.result["details"].get("zone")) for o in losses)
    return {
        "team_win_rate": wins / n if n else 0.0,
        "team_win_ci95": _ci(wins, n),
        "team_wins": wins,
        "loss_causes": dict(sorted(causes.items())),
        "loss_zones": dict(sorted(zones.items())),
    }


def _competitive(players: int, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    n = len(outcomes)
    wins_by_seat = [0] * players
    shared = 0
    first_games = first_wins = 0
    for o in outcomes:
        winners = o.result["winners"]
        if len(winners) > 1:
            shared += 1
        for s in winners:
            wins_by_seat[s] += 1
        first = o.metrics.get("first")
        if first is not None:
            first_games += 1
            first_wins += first in winners
    reasons = Counter(str(o.result["reason"]) for o in outcomes)
    fair = 1.0 / players
    extra = _scores(players, outcomes)
    rate = first_wins / first_games if first_games else 0.0
    lo, hi = wilson(first_wins, first_games)
    return {
        "win_rate_by_seat": [w / n if n else 0.0 for w in wins_by_seat],
        "ci95": [_ci(w, n) for w in wins_by_seat],
        "wins_by_seat": wins_by_seat,
        "shared_wins": shared,
        "end_reasons": dict(sorted(reasons.items())),
        "first_mover": {"games": first_games, "wins": first_wins, "win_rate": rate, "ci95": [lo, hi],
                        "fair": fair, "advantage": rate - fair, "advantage_ci95": [lo - fair, hi - fair]},
        "end_reason_rates": {r: {"games": k, "rate": k / n, "ci95": _ci(k, n)} for r, k in sorted(reasons.items())},
        "shared_win_rate": shared / n if n else 0.0,
        "shared_win_ci95": _ci(shared, n),
        **extra,
    }


def _scores(players: int, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Score per seat and the winning margin (best score minus the next best), when the game scores."""
    per_seat: list[list[float]] = [[] for _ in range(players)]
    margins: list[float] = []
    for o in outcomes:
        sc = o.result.get("scores")
        if not isinstance(sc, dict) or len(sc) != players:
            continue
        vals = [float(sc[str(s)]) for s in range(players)]
        for s, v in enumerate(vals):
            per_seat[s].append(v)
        top = sorted(vals, reverse=True)
        margins.append(top[0] - top[1] if players > 1 else top[0])
    if not margins or all(v in (0.0, 1.0) for seat in per_seat for v in seat):
        return {}  # no points scored (Blast Off's scores only mark the winner)
    return {
        "scores_by_seat": [{"mean": mean(v), "ci95": list(mean_ci95(v))} for v in per_seat],
        "score_histogram": histogram([x for v in per_seat for x in v], integers=True),
        "margin": {"mean": mean(margins), "ci95": list(mean_ci95(margins)), "min": min(margins),
                   "max": max(margins), "histogram": histogram(margins, integers=True)},
    }


# ---- per game -----------------------------------------------------------------------------
def _shooting_star(players: int, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Mean score parts per seat, and per secret mission: dealt, completed (full points) and effect on winning."""
    parts = ("cards", "moons", "missions", "debris_bonus", "total")
    sums: dict[str, list[list[float]]] = {p: [[] for _ in range(players)] for p in parts}
    dealt: Counter[str] = Counter()
    full: Counter[str] = Counter()
    scored: defaultdict[str, float] = defaultdict(float)
    max_pts: dict[str, int] = {}
    won_with: Counter[str] = Counter()
    for o in outcomes:
        winners = set(o.result["winners"])
        for seat, sp in enumerate(o.metrics.get("score_parts", ())):
            for p in parts:
                sums[p][seat].append(float(sp[p]))
        for mid, seat, pts, most in o.metrics.get("missions", ()):
            dealt[mid] += 1
            full[mid] += pts >= most
            scored[mid] += pts
            max_pts[mid] = most
            won_with[mid] += seat in winners
    missions = {}
    for mid in sorted(dealt):
        d = dealt[mid]
        missions[mid] = {"points": max_pts[mid], "dealt": d, "completed": full[mid],
                         "completion_rate": full[mid] / d, "ci95": _ci(full[mid], d),
                         "mean_points": scored[mid] / d,
                         "win_rate_when_held": won_with[mid] / d, "win_ci95": _ci(won_with[mid], d)}
    return {
        "score_parts": {p: [mean(v) for v in sums[p]] for p in parts},
        "score_parts_all": {p: mean([x for v in sums[p] for x in v]) for p in parts},
        "missions": missions,
    }


def _meteor(players: int, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Each loss by zone and cause; meteors left when lost."""
    by: Counter[tuple[str, str]] = Counter()
    left: list[float] = []
    for o in outcomes:
        if o.result.get("team_win"):
            continue
        m = o.metrics
        by[(str(m.get("zone")), str(m.get("cause")))] += 1
        if m.get("meteors_left") is not None:
            left.append(float(m["meteors_left"]))
    n = len(outcomes)
    return {
        "losses_by_zone_and_cause": [{"zone": z, "cause": c, "games": k, "rate": k / n if n else 0.0,
                                      "ci95": _ci(k, n)} for (z, c), k in sorted(by.items())],
        "mean_meteors_left_when_lost": mean(left),
        "progress": meteor_progress(outcomes),
    }


def _blast_off(players: int, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    revealed = [float(o.metrics["missions_revealed"]) for o in outcomes if "missions_revealed" in o.metrics]
    missions: Counter[str] = Counter()
    for o in outcomes:
        missions.update(str(m) for m in o.metrics.get("missions", ()))
    penalties: Counter[str] = Counter()
    for o in outcomes:
        for p in o.metrics.get("penalties", ()):
            penalties[str(p.get("kind", p) if isinstance(p, dict) else p)] += 1
    n = len(outcomes)
    closest: list[float] = []  # cards still held by the loser nearest to going out
    for o in outcomes:
        sizes = o.metrics.get("hand_sizes")
        if isinstance(sizes, list):
            left = [float(x) for s, x in enumerate(sizes) if s not in o.result["winners"]]
            if left:
                closest.append(min(left))
    return {
        "runner_up_cards_left": {"mean": mean(closest), "ci95": list(mean_ci95(closest)),
                                 "histogram": histogram(closest, integers=True)},
        "mean_missions_revealed": mean(revealed),
        "missions_revealed": {m: {"games": k, "rate": k / n, "ci95": _ci(k, n)} for m, k in sorted(missions.items())},
        "penalties_per_game": {p: k / n for p, k in sorted(penalties.items())} if n else {},
    }


SECTIONS = {"shooting-star": _shooting_star, "meteor": _meteor, "blast-off": _blast_off}
