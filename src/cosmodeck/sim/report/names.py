"""Names a designer reads next to the ids of a report (``M05`` -> ``M05 (Roger)``, ``O7`` -> ``O7 (orange 7)``).

They come from the card data a run actually used (a summary's ``names``, written when the run had its own
data file), else from the game's packaged data file: a row's ``name`` (English when it is translated), else its
``key``, else a few fields that tell the card apart (a meteor's size and trait, a rocket's damage and cost).
Blast Off! card ids are spelled out from its colours. An id the data does not know stays bare. A comparison
whose two sides name a card differently shows both (``R01 (damage 1, cost F in A; damage 1, cost FF in B)``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from cosmodeck.api import default_data, game_spec

DESCRIBE = ("size", "trait", "damage", "cost")  # fields that tell an unnamed card apart, in this order
_ID = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:-[A-Z0-9]+)?)\b")

Names = Mapping[str, str]


def game_title(game_id: str) -> str:
    """``shooting-star`` -> ``Shooting Star``."""
    try:
        return str(game_spec(game_id).game_cls.info.name)
    except Exception:  # an unknown id: keep it as given
        return game_id


def _text(v: Any) -> str | None:
    if isinstance(v, str):
        return v
    if isinstance(v, dict) and isinstance(v.get("en"), str):
        return str(v["en"])
    return None


def _describe(row: dict[str, Any]) -> str | None:
    name = _text(row.get("name"))
    if name:
        return name
    if isinstance(row.get("key"), str):
        return str(row["key"]).replace("_", " ")
    parts = [f"{k} {row[k]}" if k != "trait" else str(row[k]).replace("_", " ") for k in DESCRIBE if k in row]
    return ", ".join(parts) or None


def _row_id(x: dict[str, Any]) -> str | None:
    for k in ("id", "code"):
        if isinstance(x.get(k), str):
            return str(x[k])
    return None


def names_of(doc: Any) -> dict[str, str]:
    """``{id: name}`` for every card and mission of a parsed card-data document (any shape: unknown parts are
    skipped, so a broken or hostile document gives fewer names, never an error)."""
    out: dict[str, str] = {}

    def walk(v: Any, depth: int) -> None:
        if depth > 40:  # far deeper than any card data: not read further
            return
        if isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    for k in ("id", "code"):
                        if isinstance(x.get(k), str):
                            name = _describe(x)
                            if name and name != x[k]:
                                out.setdefault(x[k], name)
                elif isinstance(x, list):
                    walk(x, depth + 1)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x, depth + 1)

    walk(doc, 0)
    colours = doc.get("colours") if isinstance(doc, dict) else None
    if isinstance(colours, list) and "deck" in doc:  # Blast Off!: O7, BO-G, W, CD
        for c in colours:
            if not isinstance(c, str) or not c:
                continue
            word = c.lower()
            for n in range(1, 11):
                out.setdefault(f"{c[0]}{n}", f"{word} {n}")
            out.setdefault(f"BO-{c[0]}", f"Blast Off! {word}")
        out.setdefault("W", "Wild")
        out.setdefault("CD", "Countdown")
    return out


def names_of_text(text: str) -> dict[str, str]:
    """:func:`names_of` a card-data file's text (``{}`` when it is not JSON or nested too deep to parse)."""
    try:
        return names_of(json.loads(text))
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return {}


@functools.cache
def unit_names(game_id: str) -> dict[str, str]:
    """``{id: name}`` for every card and mission of the game's packaged data."""
    try:
        return names_of_text(default_data(game_id).text)
    except Exception:
        return {}


def summary_names(summary: Mapping[str, Any]) -> Names:
    """The names of the data a summary's run used: its own ``names``, else the packaged data's."""
    own = summary.get("names")
    return own if isinstance(own, dict) else unit_names(str(summary["game"]))


def result_names(result: Mapping[str, Any]) -> Names:
    """The names of a comparison: A's and B's, both shown where they differ."""
    a, b = summary_names(result["a"]["summary"]), summary_names(result["b"]["summary"])
    if a is b:
        return a
    out: dict[str, str] = {}
    for uid in {**a, **b}:
        na, nb = a.get(uid), b.get(uid)
        out[uid] = str(na or nb) if na == nb or not na or not nb else f"{na} in A; {nb} in B"
    return out


def named(names: Names | str, uid: str) -> str:
    """``M05`` -> ``M05 (Roger)`` (the id alone when it has no name). ``names``: a mapping, or a game id for
    its packaged data's names."""
    name = (unit_names(names) if isinstance(names, str) else names).get(uid)
    return f"{uid} ({name})" if name else uid


def name_ids(names: Names | str, text: str) -> str:
    """Every known id in ``text`` followed by its name: ``mission M05 revealed`` -> ``mission M05 (Roger) revealed``."""
    known = unit_names(names) if isinstance(names, str) else names
    return _ID.sub(lambda m: f"{m.group(1)} ({known[m.group(1)]})" if m.group(1) in known else m.group(1), text)
