"""The ``tournament --report`` page: TrueSkill ratings and head-to-head scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cosmodeck.sim.report.names import game_title
from cosmodeck.sim.report.page import Page, bars_ci, num, save, write_csv


def tournament_report(directory: str | Path, result: dict[str, Any]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    ratings = result["ratings"]
    page = Page(f"cosmodeck tournament: {game_title(result['game'])}")
    page.facts([("game", result["game"]), ("players", str(result["players"])), ("bots", ", ".join(result["bots"])),
                ("games", f"{result['games']:,}"), ("seed", str(result["seed"]))])

    def draw_ratings(ax: Any) -> None:
        names = [r["bot"] for r in ratings]
        mus = [r["mu"] for r in ratings]
        err = [1.96 * r["sigma"] for r in ratings]
        ax.errorbar(list(range(len(names))), mus, yerr=err, fmt="o", capsize=5, color="#4c72b0")
        ax.set_xticks(list(range(len(names))))
        ax.set_xticklabels(names, rotation=15)
        ax.set_ylabel("TrueSkill mu (95% interval)")
        ax.set_title("Ratings")

    page.image(save(d, "ratings", draw_ratings), "TrueSkill ratings with 95% intervals (mu +- 1.96 sigma)")
    pairs = result["pairs"]
    if pairs:
        page.image(save(d, "pairs", lambda ax: bars_ci(
            ax, [f"{p['a']} v {p['b']}" for p in pairs], [p["a_score"] for p in pairs], [p["ci95"] for p in pairs],
            "score of the first (win=1, shared=1/k)", "Head to head (95% CI)", ref=0.5), size=(9.0, 4.0)),
            "Head-to-head scores")
    for title, rows in (("Ratings", ratings), ("Head to head", pairs)):
        if rows:
            page.heading(title)
            keys = list(rows[0])
            page.table(keys, [[num(r.get(k)) if not isinstance(r.get(k), list) else
                               " to ".join(num(x) for x in r[k]) for k in keys] for r in rows])
    (d / "tournament.json").write_text(json.dumps(result, indent=1))
    write_csv(d / "ratings.csv", ratings)
    write_csv(d / "pairs.csv", pairs)
    page.files(["tournament.json", "ratings.csv", "pairs.csv"])
    return page.write(d)
