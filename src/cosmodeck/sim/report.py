"""``--report DIR``: an HTML page with matplotlib plots, plus the raw numbers as JSON and CSV.

Written for simulate, compare and tournament. The page is static (PNG images next to it),
so it opens in any browser and can be attached to an issue as a folder.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from cosmodeck.sim.runner import GameOutcome

Plot = tuple[str, str, Callable[[Any], None]]  # file stem, caption, draw(ax)


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(directory: Path, stem: str, draw: Callable[[Any], None], size: tuple[float, float] = (7.0, 3.8)) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=size, dpi=100)
    try:
        draw(ax)
        fig.tight_layout()
        name = f"{stem}.png"
        fig.savefig(directory / name)
    finally:
        plt.close(fig)
    return name


def _bars_ci(ax: Any, labels: Sequence[str], values: Sequence[float], cis: Sequence[Sequence[float]],
             ylabel: str, title: str, ref: float | None = None, colors: Sequence[str] | None = None) -> None:
    lo = [max(0.0, v - c[0]) for v, c in zip(values, cis, strict=True)]
    hi = [max(0.0, c[1] - v) for v, c in zip(values, cis, strict=True)]
    xs = list(range(len(labels)))
    ax.bar(xs, values, yerr=[lo, hi], capsize=4, color=list(colors) if colors else "#4c72b0")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=30 if len(labels) > 6 else 0, ha="right" if len(labels) > 6 else "center")
    if ref is not None:
        ax.axhline(ref, color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def _write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    if not rows:
        path.write_text("")
        return
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: (json.dumps(v) if isinstance(v, (list, dict)) else v) for k, v in r.items()})


def _page(directory: Path, title: str, intro: list[tuple[str, str]], images: list[tuple[str, str]],
          tables: list[tuple[str, list[dict[str, Any]]]], files: list[str]) -> Path:
    esc = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
             "text-align:right}th{background:#f3f3f3}img{max-width:100%;border:1px solid #eee;margin:.5em 0}"
             ".sig{font-weight:bold;color:#b00}</style></head><body>",
             f"<h1>{esc(title)}</h1><table>"]
    parts += [f"<tr><th style='text-align:left'>{esc(k)}</th><td style='text-align:left'>{esc(v)}</td></tr>"
              for k, v in intro]
    parts.append("</table>")
    for name, caption in images:
        parts.append(f"<figure><img src='{esc(name)}' alt='{esc(caption)}'><figcaption>{esc(caption)}"
                     "</figcaption></figure>")
    for caption, rows in tables:
        if not rows:
            continue
        keys = list(rows[0])
        parts.append(f"<h2>{esc(caption)}</h2><table><tr>" + "".join(f"<th>{esc(k)}</th>" for k in keys) + "</tr>")
        for r in rows:
            cls = " class='sig'" if r.get("significant") is True else ""
            parts.append(f"<tr{cls}>" + "".join(f"<td>{esc(_fmt(r.get(k)))}</td>" for k in keys) + "</tr>")
        parts.append("</table>")
    parts.append("<h2>Raw numbers</h2><ul>" + "".join(f"<li><a href='{esc(f)}'>{esc(f)}</a></li>" for f in files)
                 + "</ul></body></html>")
    page = directory / "index.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    return page


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return "" if v is None else str(v)


def outcome_rows(outcomes: Sequence[GameOutcome]) -> list[dict[str, Any]]:
    return [{"index": o.index, "seed": o.seed, "players": o.players, "decisions": o.decisions,
             "game_time": o.game_time, "reason": o.result["reason"], "winners": o.result["winners"],
             "team_win": o.result.get("team_win"), "scores": o.result.get("scores"),
             "first": o.metrics.get("first")} for o in outcomes]


# ---- simulate ----------------------------------------------------------------------------------
def simulate_report(directory: str | Path, summary: dict[str, Any], outcomes: Sequence[GameOutcome]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    images: list[tuple[str, str]] = []
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    s = summary
    if "team_win_rate" in s:
        images.append((_save(d, "win_rate", lambda ax: _bars_ci(
            ax, ["team"], [s["team_win_rate"]], [s["team_win_ci95"]], "win rate", "Team win rate (95% CI)")),
            "Team win rate with its Wilson 95% interval"))
    else:
        seats = [f"seat {i}" for i in range(s["players"])]
        fm = s["first_mover"]
        images.append((_save(d, "win_rate", lambda ax: _bars_ci(
            ax, [*seats, "first mover"], [*s["win_rate_by_seat"], fm["win_rate"]], [*s["ci95"], fm["ci95"]],
            "win rate", "Win rate by seat and of the first mover (95% CI)", ref=1.0 / s["players"])),
            "Win rates with Wilson 95% intervals; the dashed line is a fair share"))
    hist = s["length"]["histogram"]

    def draw_len(ax: Any) -> None:
        edges, counts = hist["edges"], hist["counts"]
        if counts:
            ax.bar(edges[:-1], counts, width=[b - a for a, b in pairwise(edges)],
                   align="edge", color="#55a868", edgecolor="white")
        ax.set_xlabel("decisions per game")
        ax.set_ylabel("games")
        ax.set_title("Game length")

    images.append((_save(d, "length", draw_len), "Histogram of game length (decisions)"))
    shs = s.get("shooting_star")
    if shs:
        ms = shs["missions"]
        mids = list(ms)
        images.append((_save(d, "missions", lambda ax: _bars_ci(
            ax, mids, [ms[m]["completion_rate"] for m in mids], [ms[m]["ci95"] for m in mids],
            "completion rate", "Secret missions: completed for full points (95% CI)"), size=(9.0, 4.0)),
            "Each secret mission's completion rate"))
        images.append((_save(d, "missions_win", lambda ax: _bars_ci(
            ax, mids, [ms[m]["win_rate_when_held"] for m in mids], [ms[m]["win_ci95"] for m in mids],
            "win rate", "Win rate of the seat holding each mission (95% CI)", ref=1.0 / s["players"]),
            size=(9.0, 4.0)), "Win rate when holding each mission (an easy mission wins more)"))
        sp = shs["score_parts_all"]

        def draw_parts(ax: Any) -> None:
            names = ["cards", "moons", "missions", "debris_bonus"]
            ax.bar(names, [sp[k] for k in names], color="#8172b2")
            ax.set_ylabel("mean points per seat")
            ax.set_title(f"Score parts (mean total {sp['total']:.2f})")

        images.append((_save(d, "score_parts", draw_parts), "Mean score parts per seat"))
        tables.append(("Secret missions", [{"mission": m, **v} for m, v in ms.items()]))
    met = s.get("meteor")
    if met and met["losses_by_zone_and_cause"]:
        rows = met["losses_by_zone_and_cause"]
        images.append((_save(d, "losses", lambda ax: _bars_ci(
            ax, [f"zone {r['zone']}: {r['cause']}" for r in rows], [r["rate"] for r in rows],
            [r["ci95"] for r in rows], "share of games", "Losses by zone and cause (95% CI)", colors=None),
            size=(9.0, 4.0)), "Where and why the team lost"))
        tables.append(("Losses by zone and cause", rows))
    blo = s.get("blast_off")
    if blo and blo["missions_revealed"]:
        mr = blo["missions_revealed"]
        images.append((_save(d, "missions_revealed", lambda ax: _bars_ci(
            ax, list(mr), [v["rate"] for v in mr.values()], [v["ci95"] for v in mr.values()],
            "share of games", "Missions revealed (95% CI)"), size=(9.0, 4.0)), "Missions revealed"))
    (d / "summary.json").write_text(json.dumps(s, indent=1))
    _write_csv(d / "games.csv", outcome_rows(outcomes))
    files = ["summary.json", "games.csv"]
    for caption, rows in tables:
        name = caption.lower().replace(" ", "_") + ".csv"
        _write_csv(d / name, rows)
        files.append(name)
    intro = [("game", s["game"]), ("players", str(s["players"])), ("games", str(s["games"])),
             ("seed", str(s["seed"])), ("bots", s["bots"]), ("options", json.dumps(s["options"])),
             ("data", str(s["data"] or "default")),
             ("mean length", f"{s['mean_length']:.2f} decisions")]
    un = s["unfinished"]
    if un["games"]:
        intro.append(("unfinished games", f"{un['games']} ({un['rate']:.3f}, 95% CI {un['ci95'][0]:.3f}-"
                      f"{un['ci95'][1]:.3f}) stopped after {un['max_decisions']:,} decisions; counted as draws"))
    if "team_win_rate" in s:
        lo, hi = s["team_win_ci95"]
        intro.append(("team win rate", f"{s['team_win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f})"))
    else:
        fm = s["first_mover"]
        intro.append(("first-mover advantage", f"{fm['advantage']:+.3f} (95% CI {fm['advantage_ci95'][0]:+.3f}"
                      f" to {fm['advantage_ci95'][1]:+.3f})"))
    return _page(d, f"cosmodeck simulate: {s['game']}", intro, images, tables, files)


# ---- compare -----------------------------------------------------------------------------------
def compare_report(directory: str | Path, result: dict[str, Any]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    diffs = result["differences"]
    images: list[tuple[str, str]] = []

    def forest(ax: Any) -> None:
        ys = list(range(len(diffs)))[::-1]
        for y, r in zip(ys, diffs, strict=True):
            color = "#c44e52" if r["significant"] else "#4c72b0"
            ax.errorbar([r["diff"]], [y], xerr=[[r["diff"] - r["ci95"][0]], [r["ci95"][1] - r["diff"]]],
                        fmt="o", color=color, capsize=3)
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_yticks(ys)
        ax.set_yticklabels([r["metric"] for r in diffs], fontsize=7)
        ax.set_xlabel("B - A (95% CI); red: significant")
        ax.set_title("A/B differences")

    if diffs:
        images.append((_save(d, "differences", forest, size=(9.0, max(3.0, 0.22 * len(diffs) + 1))),
                       "Each difference B - A with its 95% interval"))
    (d / "compare.json").write_text(json.dumps(result, indent=1))
    _write_csv(d / "differences.csv", diffs)
    files = ["compare.json", "differences.csv"]
    intro = [("game", result["game"]), ("players", str(result["players"])), ("games each", str(result["games"])),
             ("seed", str(result["seed"])), ("bots", result["bots"]), ("A", result["a"]["label"]),
             ("B", result["b"]["label"]),
             ("significant differences", str(sum(1 for r in diffs if r["significant"])))]
    return _page(d, f"cosmodeck compare: {result['game']}", intro, images, [("Differences (B - A)", diffs)], files)


# ---- tournament ----------------------------------------------------------------------------------
def tournament_report(directory: str | Path, result: dict[str, Any]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    ratings = result["ratings"]
    images: list[tuple[str, str]] = []

    def draw_ratings(ax: Any) -> None:
        names = [r["bot"] for r in ratings]
        mus = [r["mu"] for r in ratings]
        err = [1.96 * r["sigma"] for r in ratings]
        ax.errorbar(list(range(len(names))), mus, yerr=err, fmt="o", capsize=5, color="#4c72b0")
        ax.set_xticks(list(range(len(names))))
        ax.set_xticklabels(names, rotation=15)
        ax.set_ylabel("TrueSkill mu (95% interval)")
        ax.set_title("Ratings")

    images.append((_save(d, "ratings", draw_ratings), "TrueSkill ratings with 95% intervals (mu +- 1.96 sigma)"))
    pairs = result["pairs"]
    if pairs:
        images.append((_save(d, "pairs", lambda ax: _bars_ci(
            ax, [f"{p['a']} v {p['b']}" for p in pairs], [p["a_score"] for p in pairs], [p["ci95"] for p in pairs],
            "score of the first (win=1, shared=1/k)", "Head to head (95% CI)", ref=0.5), size=(9.0, 4.0)),
            "Head-to-head scores"))
    (d / "tournament.json").write_text(json.dumps(result, indent=1))
    _write_csv(d / "ratings.csv", ratings)
    _write_csv(d / "pairs.csv", pairs)
    intro = [("game", result["game"]), ("players", str(result["players"])), ("bots", ", ".join(result["bots"])),
             ("games", str(result["games"])), ("seed", str(result["seed"]))]
    return _page(d, f"cosmodeck tournament: {result['game']}", intro, images,
                 [("Ratings", ratings), ("Head to head", pairs)], ["tournament.json", "ratings.csv", "pairs.csv"])
