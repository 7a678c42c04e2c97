"""Readable tables and sentences from a summary or a comparison (shared by the HTML and the terminal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cosmodeck.sim.report.names import Names, name_ids, named, result_names, summary_names
from cosmodeck.sim.report.page import ci, num, p_text, words


def baseline(summary: dict[str, Any]) -> float:
    """The win rate a card or mission would show if it made no difference."""
    if "team_win_rate" in summary:
        return float(summary["team_win_rate"])
    return 1.0 / max(1, int(summary["players"]))


def effect(row: dict[str, Any], base: float) -> float | None:
    w = row.get("win_rate")
    return None if w is None else float(w) - base


def did(row: dict[str, Any]) -> str:
    """``1.02 played, 0.24 hits per game`` (counters that are not zero)."""
    parts = [f"{num(v['mean'], 2)} {words(k)}" for k, v in row["per_game"].items() if v["total"]]
    return (", ".join(parts) + " per game") if parts else "never seen"


def unit_table(summary: dict[str, Any], key: str) -> tuple[list[str], list[list[str]]]:
    """Per-card (``per_card``) or per-mission (``per_mission``) rows, the biggest effect on winning first."""
    rows = summary.get(key) or {}
    base = baseline(summary)
    order = sorted(rows, key=lambda i: (effect(rows[i], base) is None, -abs(effect(rows[i], base) or 0.0), i))
    name = "card" if key == "per_card" else "mission"
    who = "games" if "team_win_rate" in summary else "players"
    verb = "played or held" if key == "per_card" else "in force"
    header = [name, "in games (share)", "what it did", f"win rate when {verb} (95% CI)",
              f"effect on winning (vs {base:.3f})", "length of those games (decisions)"]
    out = []
    for uid in order:
        r = rows[uid]
        extra = [f"{words(k)} {r[k]:.3f}" for k in ("completion_rate", "violation_rate", "catch_rate") if k in r]
        e = effect(r, base)
        out.append([
            named(summary_names(summary), str(uid)), f"{r['games']:,} ({r['rate']:.3f})",
            did(r) + ("; " + ", ".join(extra) if extra else ""),
            "-" if r["win_rate"] is None else f"{r['win_rate']:.3f} ({ci(r['win_ci95'])}; {r['win_units']:,} {who})",
            "-" if e is None else f"{e:+.3f}",
            "-" if not r.get("length") else f"{r['length']['mean']:.1f}",
        ])
    return header, out


def flat_units(summary: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """CSV rows: one per id, every counter's mean per game, the win rate and its interval."""
    out = []
    for uid, r in (summary.get(key) or {}).items():
        row: dict[str, Any] = {"id": uid, "games": r["games"], "rate": r["rate"], "rate_lo": r["ci95"][0],
                               "rate_hi": r["ci95"][1]}
        for k, v in r["per_game"].items():
            row[f"{k}_per_game"] = v["mean"]
            row[f"{k}_per_game_lo"], row[f"{k}_per_game_hi"] = v["ci95"]
        row["win_rate"] = r["win_rate"]
        row["win_lo"], row["win_hi"] = r["win_ci95"] or (None, None)
        for k in ("completion_rate", "violation_rate", "catch_rate"):
            if k in r:
                row[k] = r[k]
        out.append(row)
    return out


def measure_name(game: Names | str, r: dict[str, Any]) -> str:
    """``mission M05 (Roger): obligations per game`` / ``mission M1-A (Explorer) completed``."""
    if "unit" in r:
        return f"{r['unit']} {named(game, r['id'])}: {words(r['measure'])}"
    return name_ids(game, words(r["metric"]))


def moved_sentence(game: Names | str, r: dict[str, Any]) -> str:
    direction = "rose" if r["diff"] > 0 else "fell"
    what = measure_name(game, r)
    what = what[:1].upper() + what[1:]
    return (f"{what} {direction} from {num(r['a'])} to {num(r['b'])} (difference {r['diff']:+.3f}, "
            f"95% CI {ci(r['ci95'], signed=True)}, p {p_text(r['p_value'])}).")


def identical(r: dict[str, Any]) -> bool:
    """A and B gave the very same number in every game: no difference and an interval of nothing."""
    return bool(r["diff"] == 0 and list(r["ci95"]) == [0, 0])


def same_play(result: dict[str, Any]) -> bool:
    """Every card and mission count and every game's length is identical in A and B: the bots played the same
    games, and the change moved only what is computed from them (scores, who wins)."""
    counts = [u for u in result.get("units") or () if u["kind"] == "mean"]
    lengths = [r for r in result["differences"] if str(r["metric"]).startswith("length")]
    return bool(counts and lengths) and all(identical(r) for r in (*counts, *lengths))


MAX_NAMED = 12  # ids named in "whose numbers moved" before they are counted instead
MAX_SENTENCES = 12  # card and mission measures told one by one, the strongest evidence first


def what_changed(result: dict[str, Any]) -> list[str]:
    """Sentences naming the game numbers, cards and missions that moved (significant after Holm): the whole-game
    numbers first, then the cards and missions (named when few, counted when many) and their strongest
    ``MAX_SENTENCES`` measures; the tables list every one."""
    units: Sequence[dict[str, Any]] = result.get("units") or ()
    game = result_names(result)
    games = [r for r in result["differences"] if r.get("significant_holm")]
    moved = [u for u in units if u["significant"]]
    n = len(units) + len(result["differences"])
    out: list[str] = []
    for r in sorted(games, key=lambda r: r["p_value"]):
        out.append(moved_sentence(game, r))
    for unit in ("card", "mission"):
        ids = sorted({u["id"] for u in moved if u["unit"] == unit})
        if len(ids) > MAX_NAMED:
            seen = len({u["id"] for u in units if u["unit"] == unit})
            how_many = f"all {seen}" if len(ids) == seen else f"{len(ids)} of the {seen}"
            out.append(f"The numbers of {how_many} {unit}s moved; the tables below name each.")
        elif ids:
            out.append(f"{unit.capitalize()}s whose numbers moved: {', '.join(named(game, i) for i in ids)}.")
    ranked = sorted(moved, key=lambda r: r["p_value"])
    for r in ranked[:MAX_SENTENCES]:
        out.append(moved_sentence(game, r))
    if len(ranked) > MAX_SENTENCES:
        out.append(f"{len(ranked) - MAX_SENTENCES} more card and mission measures moved, with weaker evidence; "
                   f"the tables below list them.")
    if same_play(result):
        out.append("The bots played every game the same way in A and B: every card and mission count and every "
                   "game's length are identical, game by game. The change moved only what is computed from the "
                   "play (scores, and so who wins).")
    if not out:
        out.append(f"Nothing moved: no card, mission or game number differs significantly after Holm's correction "
                   f"over {n} tests.")
    else:
        out.append(f"Significant means after Holm's correction over all {n} tests (familywise error 5%).")
    return out


def difference_rows(rows: Sequence[dict[str, Any]], game: Names | str = "") -> tuple[list[str], list[list[str]],
                                                                                  list[bool]]:
    """Table rows of differences; ``game`` names the ids (``M05 (Roger)``): a game id (its packaged data's
    names) or the names of a run (:func:`result_names`)."""
    header = ["measure", "A", "B", "B - A", "95% CI", "p", "interval excludes 0", "significant (Holm)"]
    body = []
    for r in rows:
        body.append([measure_name(game, r), num(r["a"]), num(r["b"]), f"{r['diff']:+.3f}", ci(r["ci95"], signed=True),
                     p_text(r["p_value"]), num(bool(r.get("significant_uncorrected", r["significant"]))),
                     num(bool(r["significant_holm"]))])
    return header, body, [bool(r["significant_holm"]) for r in rows]
