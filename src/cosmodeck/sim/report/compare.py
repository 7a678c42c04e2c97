"""The ``compare --report`` page: what ran, what changed, one plot per unit, readable tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cosmodeck.sim.report.names import game_title, name_ids, named, result_names
from cosmodeck.sim.report.page import Page, forest, save, words, write_csv
from cosmodeck.sim.report.simulate import options_text
from cosmodeck.sim.report.tables import difference_rows, identical, what_changed

# the unit each whole-game metric is measured in; one plot each
UNITS = (("proportion", "share of games or seats"), ("decisions", "decisions"), ("seconds", "game seconds"),
         ("points", "points"), ("count", "count per game"))


def metric_unit(r: dict[str, Any]) -> str:
    name = r["metric"]
    if r["kind"] == "proportion":
        return "proportion"
    if "(decisions)" in name:
        return "decisions"
    if "(s)" in name:
        return "seconds"
    if name.startswith("score"):
        return "points"
    return "count"


def _side(result: dict[str, Any], side: str) -> list[tuple[str, str]]:
    s = result[side]["summary"]
    data = s["data"] or "the game's default data"
    a = result["a"]["summary"]
    same_as_a = side == "b" and s.get("options_used") == a.get("options_used") and s.get("timing") == a.get("timing")
    return [(side.upper(), result[side]["label"]), (f"{side.upper()} card data", f"{data} (hash {s.get('data_hash')})"),
            *([("B timing and options", "the same as A")] if same_as_a else [
                (f"{side.upper()} timing", str(s.get("timing", "-"))),
                (f"{side.upper()} options used", options_text(s.get("options_used")))])]


def _plot_rows(d: Path, stem: str, rows: Sequence[dict[str, Any]], label: Any, xlabel: str, title: str,
               page: Page, caption: str, what: str) -> None:
    """One forest plot of ``rows``, without the measures identical in A and B (a row of zeros tells nothing);
    the caption counts them, and when nothing is left a sentence says so instead of the plot."""
    shown = [r for r in rows if not identical(r)]
    same = len(rows) - len(shown)
    if not shown:
        if rows:
            page.para(f"{what}: {'the one measure is' if same == 1 else f'the {same} measures are'} identical in A "
                      "and B, game by game.")
        return
    if same:
        caption += (f"; not plotted: {same} {'measure' if same == 1 else 'measures'} identical in A and B, game by "
                    "game (the tables list them)")
    page.image(save(d, stem, forest(shown, label, xlabel, title), size=(9.0, max(1.7, 0.28 * len(shown) + 1.2))),
               caption)


def compare_report(directory: str | Path, result: dict[str, Any]) -> Path:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    diffs = result["differences"]
    units = result.get("units") or []
    game = str(result["game"])
    names = result_names(result)
    page = Page(f"cosmodeck compare: {game_title(game)}")
    page.facts([("game", f"{game_title(game)} ({game})"), ("players", str(result["players"])),
                ("games", f"{result['games']:,} for each of A and B, on the same seeds"),
                ("seed", str(result["seed"])), ("bots", result["bots"]), *_side(result, "a"), *_side(result, "b"),
                ("tests", f"{len(diffs) + len(units):,} (Holm's correction over all of them)")])
    if result.get("data_changes"):
        page.heading("What differs in the card data (A's file against B's)")
        page.bullets(result["data_changes"])
    page.heading("What changed")
    page.bullets(what_changed(result))
    page.heading("Plots: B - A with its 95% interval, one plot per unit (red: significant after Holm)")
    for unit, label in UNITS:
        rows = [r for r in diffs if metric_unit(r) == unit]
        _plot_rows(d, f"differences_{unit}", rows, lambda r: name_ids(names, words(r["metric"])), f"B - A ({label})",
                   f"Whole game: {label}", page, f"Whole-game differences measured in {label}",
                   f"Whole game, {label}")
    by_p = sorted(units, key=lambda u: (u["p_value"], u["metric"]))
    for kind, label in (("mean", "count per game"), ("proportion", "win rate")):
        of_kind = [u for u in by_p if u["kind"] == kind]
        moved = [u for u in of_kind if not identical(u)][:30]
        _plot_rows(d, f"units_{'counts' if kind == 'mean' else 'win_rates'}", moved or of_kind,
                   lambda u: f"{named(names, u['id'])}: {words(u['measure'])}", f"B - A ({label})",
                   f"Cards and missions: {label} (the 30 smallest p)", page,
                   f"Card and mission measures in {label}, the strongest evidence first"
                   + (f"; {len(of_kind) - len(moved)} more, identical in A and B game by game, are in the table"
                      if len(of_kind) > len(moved) and moved else ""),
                   f"Cards and missions, {label}")
    page.heading("Whole-game differences (B - A)")
    header, body, marked = difference_rows(diffs, names)
    page.table(header, body, marked)
    if units:
        page.heading("Cards and missions (B - A), the strongest evidence first")
        header, body, marked = difference_rows(by_p, names)
        page.table(header, body, marked, scroll=True)
    (d / "compare.json").write_text(json.dumps(result, indent=1))
    write_csv(d / "differences.csv", diffs)
    write_csv(d / "units.csv", units)
    page.files(["compare.json", "differences.csv", "units.csv"])
    return page.write(d)
