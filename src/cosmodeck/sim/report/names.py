"""Names a designer reads next to the ids of a report (``M05`` -> ``M05 (Roger)``, ``O7`` -> ``O7 (orange 7)``).

They come from the game's packaged data file: a row's ``name`` (English when it is translated), else its
``key``, else a few fields that tell the card apart (a meteor's size and trait, a rocket's damage and cost).
Blast Off! card ids are spelled out from its colours. An id the packaged file does not know stays bare.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from cosmodeck.api import default_data, game_spec

DESCRIBE = ("size", "trait", "damage", "cost")  # fields that tell an unnamed card apart, in this order
_ID = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:-[A-Z0-9]+)?)\b")


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


@functools.cache
def unit_names(game_id: str) -> dict[str, str]:
    """``{id: name}`` for every card and mission of the game's packaged data."""
    try:
        doc = json.loads(default_data(game_id).text)
    except Exception:
        return {}
    out: dict[str, str] = {}

    def walk(v: Any) -> None:
        if isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    for k in ("id", "code"):
                        if isinstance(x.get(k), str):
                            name = _describe(x)
                            if name and name != x[k]:
                                out.setdefault(x[k], name)
                elif isinstance(x, list):
                    walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)

    walk(doc)
    colours = doc.get("colours")
    if isinstance(colours, list) and "deck" in doc:  # Blast Off!: O7, BO-G, W, CD
        for c in colours:
            word = str(c).lower()
            for n in range(1, 11):
                out.setdefault(f"{c[0]}{n}", f"{word} {n}")
            out.setdefault(f"BO-{c[0]}", f"Blast Off! {word}")
        out.setdefault("W", "Wild")
        out.setdefault("CD", "Countdown")
    return out


def named(game_id: str, uid: str) -> str:
    """``M05`` -> ``M05 (Roger)`` (the id alone when it has no name)."""
    name = unit_names(game_id).get(uid)
    return f"{uid} ({name})" if name else uid


def name_ids(game_id: str, text: str) -> str:
    """Every known id in ``text`` followed by its name: ``mission M05 revealed`` -> ``mission M05 (Roger) revealed``."""
    names = unit_names(game_id)
    return _ID.sub(lambda m: f"{m.group(1)} ({names[m.group(1)]})" if m.group(1) in names else m.group(1), text)
