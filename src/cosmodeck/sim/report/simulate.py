"""The ``simulate --report`` page: what ran, a summary table, plots, per-card and per-mission tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cosmodeck.sim.report.names import game_title, named, summary_names
from cosmodeck.sim.report.page import Page, bars_ci, ci, hist_bars, num, save, words, write_csv
from cosmodeck.sim.report.tables import flat_units, unit_table
from cosmodeck.sim.runner import GameOutcome


def outcome_rows(outcomes: Sequence[GameOutcome]) -> list[dict[str, Any]]:
    return [{"index": o.index, "seed": o.seed, "players": o.players, "decisions": o.decisions,
             "game_time": o.game_time, "reason": o.result["reason"], "winners": o.result["winners"],
             "team_win": o.result.get("team_win"), "scores": o.result.get("scores"),
             "first": o.metrics.get("first")} for o in outcomes]


def options_text(options: dict[str, Any] | None) -> str:
    if not options:
        return "-"
    return "; ".join(f"{words(k)}: {words(v) if isinstance(v, str) else num(v)}" for k, v in options.items())


def setup_facts(s: dict[str, Any]) -> list[tuple[str, str]]:
    data = s["data"] or "the game's default data"
    return [("game", f"{game_title(s['game'])} ({s['game']})"), ("players", str(s["players"])),
            ("games", f"{s['games']:,}"),
            ("seed", str(s["seed"])), ("bots", s["bots"] + (f" ({s['bound']})" if s.get("bound") else "")),
            ("card data", f"{data} (hash {s.get('data_hash', '?')})"),
            ("timing", str(s.get("timing", "-"))), ("options given", options_text(s["options"])),
            ("options used (defaults included)", options_text(s.get("options_used"))),
            ("ran on", f"{s['backend']}, {s['workers']} worker(s), {s['elapsed_s']:.1f} s")]


def _rate(k: int, n: int, pair: Sequence[float]) -> list[str]:
    return [f"{k / n:.3f} ({k:,} of {n:,})" if n else "-", ci(pair)]


def summary_rows(s: dict[str, Any]) -> list[list[str]]:
    """[measure, value, 95% CI] for the summary table."""
    n = s["games"]
    rows: list[list[str]] = []
    if "team_win_rate" in s:
        rows.append(["team win rate", *_rate(s["team_wins"], n, s["team_win_ci95"])])
        for cause, k in s["loss_causes"].items():
            rows.append([f"lost: {words(cause)}", f"{k / n:.3f} ({k:,} game{'' if k == 1 else 's'})", "-"])
    else:
        for seat, (w, pair) in enumerate(zip(s["wins_by_seat"], s["ci95"], strict=True)):
            rows.append([f"win rate, seat {seat}", *_rate(w, n, pair)])
        fm = s["first_mover"]
        rows.append(["first mover's win rate", *_rate(fm["wins"], fm["games"], fm["ci95"])])
        rows.append(["first-mover advantage (vs a fair share)", f"{fm['advantage']:+.3f}",
                     ci(fm["advantage_ci95"], signed=True)])
        rows.append(["shared wins", *_rate(s["shared_wins"], n, s["shared_win_ci95"])])
        for reason, r in s["end_reason_rates"].items():
            rows.append([f"ended by: {words(reason)}", *_rate(r["games"], n, r["ci95"])])
        for seat, sc in enumerate(s.get("scores_by_seat") or ()):
            rows.append([f"score, seat {seat}", f"{sc['mean']:.2f}", ci(sc["ci95"])])
        if s.get("margin"):
            m = s["margin"]
            rows.append(["winning margin (points)", f"{m['mean']:.2f} (from {num(m['min'])} to {num(m['max'])})",
                         ci(m["ci95"])])
    un = s["unfinished"]
    rows.append([f"unfinished games (stopped after {un['max_decisions']:,} decisions, counted as draws)",
                 *_rate(un["games"], n, un["ci95"])])
    ln = s["length"]
    rows.append(["length (decisions)", f"{ln['mean']:.1f} (from {num(ln['min'])} to {num(ln['max'])})",
                 ci(ln["ci95"])])
    if s.get("game_time"):
        gt = s["game_time"]
        rows.append(["game time (seconds)", f"{gt['mean']:.1f} (from {gt['min']:.1f} to {gt['max']:.1f})",
                     ci(gt["ci95"])])
    met = s.get("meteor")
    if met:
        p = met["progress"]
        rows.append(["meteors left per loss", f"{p['meteors_left_per_loss']['mean']:.2f}",
                     ci(p["meteors_left_per_loss"]["ci95"])])
        for zone, k in p["zone_reached"].items():
            rows.append([f"ended in zone {zone}", f"{k / n:.3f} ({k:,} game{'' if k == 1 else 's'})", "-"])
    blo = s.get("blast_off")
    if blo:
        r = blo["runner_up_cards_left"]
        rows.append(["cards the closest loser still held", f"{r['mean']:.2f}", ci(r["ci95"])])
        rows.append(["missions revealed per game", f"{blo['mean_missions_revealed']:.2f}", "-"])
    return rows


def _plots(d: Path, s: dict[str, Any], page: Page) -> None:
    if "team_win_rate" in s:
        page.image(save(d, "win_rate", lambda ax: bars_ci(
            ax, ["team"], [s["team_win_rate"]], [s["team_win_ci95"]], "win rate", "Team win rate (95% CI)")),
            "Team win rate with its Wilson 95% interval")
    else:
        seats = [f"seat {i}" for i in range(s["players"])]
        fm = s["first_mover"]
        page.image(save(d, "win_rate", lambda ax: bars_ci(
            ax, [*seats, "first mover"], [*s["win_rate_by_seat"], fm["win_rate"]], [*s["ci95"], fm["ci95"]],
            "win rate", "Win rate by seat and of the first mover (95% CI)", ref=1.0 / s["players"])),
            "Win rates with Wilson 95% intervals; the dashed line is a fair share")
    page.image(save(d, "length", hist_bars(s["length"]["histogram"], "decisions per game", "Game length")),
               "Game length in decisions (one bar per value when they are few)")
    if s.get("game_time"):
        page.image(save(d, "game_time", hist_bars(s["game_time"]["histogram"], "game time (seconds)",
                                                  "Game length in game time", "#64b5cd")),
                   "Game length in game seconds")
    if s.get("margin"):
        page.image(save(d, "scores", hist_bars(s["score_histogram"], "points", "Final scores (every seat)",
                                               "#8172b2")), "Distribution of final scores")
        page.image(save(d, "margin", hist_bars(s["margin"]["histogram"], "winner's points minus the next best",
                                               "Winning margin", "#ccb974")), "Distribution of winning margins")


def _game_section(d: Path, s: dict[str, Any], page: Page, tables: dict[str, list[dict[str, Any]]]) -> None:
    names = summary_names(s)
    shs = s.get("shooting_star")
    if shs:
        ms = shs["missions"]
        mids = list(ms)
        labels = [named(names, m) for m in mids]
        page.image(save(d, "missions", lambda ax: bars_ci(
            ax, labels, [ms[m]["completion_rate"] for m in mids], [ms[m]["ci95"] for m in mids],
            "completion rate", "Secret missions: completed for full points (95% CI)"), size=(9.0, 4.8)),
            "Each secret mission's completion rate")
        page.image(save(d, "missions_win", lambda ax: bars_ci(
            ax, labels, [ms[m]["win_rate_when_held"] for m in mids], [ms[m]["win_ci95"] for m in mids],
            "win rate", "Win rate of the seat holding each mission (95% CI)", ref=1.0 / s["players"]),
            size=(9.0, 4.8)), "Win rate when holding each mission (an easy mission wins more)")
        sp = shs["score_parts_all"]

        def draw_parts(ax: Any) -> None:
            names = ["cards", "moons", "missions", "debris_bonus"]
            ax.bar([words(k) for k in names], [sp[k] for k in names], color="#8172b2")
            ax.set_ylabel("mean points per seat")
            ax.set_title(f"Score parts (mean total {sp['total']:.2f})")

        page.image(save(d, "score_parts", draw_parts), "Mean score parts per seat")
        tables["secret_missions"] = [{"mission": m, **v} for m, v in ms.items()]
    met = s.get("meteor")
    if met and met["progress"]["meteors_left_at_loss"]:
        left = met["progress"]["meteors_left_at_loss"]
        ids = list(left)[:25]
        page.image(save(d, "meteors_left", lambda ax: bars_ci(
            ax, [named(names, m) for m in ids], [left[m]["rate"] for m in ids], [left[m]["ci95"] for m in ids],
            "share of losses",
            "Meteors still in the field when the team lost (95% CI)"), size=(10.0, 5.0)),
            "Which meteors remained at a loss (the 25 most frequent)")
        zones = met["progress"]["zone_reached"]
        page.image(save(d, "zones", lambda ax: bars_ci(
            ax, [f"zone {z}" for z in zones], [k / s["games"] for k in zones.values()],
            [[k / s["games"]] * 2 for k in zones.values()], "share of games", "Zone each game ended in")),
            "How far the games got")
        tables["meteors_left_at_loss"] = [{"meteor": m, **v} for m, v in left.items()]
    blo = s.get("blast_off")
    if blo and blo["missions_revealed"]:
        mr = blo["missions_revealed"]
        page.image(save(d, "missions_revealed", lambda ax: bars_ci(
            ax, [named(names, m) for m in mr], [v["rate"] for v in mr.values()], [v["ci95"] for v in mr.values()],
            "share of games", "Missions revealed (95% CI)"), size=(9.0, 4.8)), "Missions revealed")


def simulate_report(directory: str | Path, summary: dict[str, Any], outcomes: Sequence[GameOutcome]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    s = summary
    page = Page(f"cosmodeck simulate: {game_title(s['game'])}")
    page.facts(setup_facts(s))
    page.heading("Summary")
    page.table(["measure", "value", "95% CI"], summary_rows(s))
    page.heading("Plots")
    _plots(d, s, page)
    tables: dict[str, list[dict[str, Any]]] = {}
    _game_section(d, s, page, tables)
    for key, title in (("per_card", "Cards"), ("per_mission", "Missions")):
        if s.get(key):
            header, body = unit_table(s, key)
            page.heading(f"{title}, the biggest effect on winning first")
            page.table(header, body, scroll=len(body) > 20, text=(0, 2))
            tables[key] = flat_units(s, key)
    (d / "summary.json").write_text(json.dumps(s, indent=1))
    write_csv(d / "games.csv", outcome_rows(outcomes))
    files = ["summary.json", "games.csv"]
    for name, rows in tables.items():
        write_csv(d / f"{name}.csv", rows)
        files.append(f"{name}.csv")
    page.files(files)
    return page.write(d)
