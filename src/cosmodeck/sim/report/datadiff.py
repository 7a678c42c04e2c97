"""What differs between two card-data files, in sentences a designer reads next to a comparison.

``R01 (damage 1, cost F): cost is F in A and FF in B.``, ``M07 (Apollo) is only in B.``, ``Rules, hand size is
9 in A and 10 in B.``, ``P8: hits is (0, -1) in A and (0, -1), (0, -2) in B.`` Rows with an ``id`` (or
``code``) are matched by it, wherever they sit in the file; every other value by its place. The documents are
untrusted (the lab's designers type them): any JSON is read, the output is bounded (:data:`MAX_SENTENCES`),
and a text that is not JSON gives one sentence saying so.
"""

from __future__ import annotations

import json
from typing import Any

from cosmodeck.sim.report.names import named, names_of

MAX_SENTENCES = 60
MAX_VALUE = 60  # characters of one value shown
Path = tuple[str, ...]


def _row_id(x: Any) -> str | None:
    if isinstance(x, dict):
        for k in ("id", "code"):
            if isinstance(x.get(k), str):
                return str(x[k])
    return None


def _leaves(v: Any, path: Path, rows: dict[str, dict[Path, Any]], out: dict[Path, Any], depth: int = 0) -> None:
    """Flatten ``v`` into ``out`` (``path -> value``); rows with ids go to ``rows[id]`` instead."""
    if depth > 40:  # far deeper than any card data: the rest of this branch is one value
        out[path] = v
        return
    if isinstance(v, dict):
        if not v:
            out[path] = v
        for k, x in v.items():
            _leaves(x, (*path, str(k)), rows, out, depth + 1)
    elif isinstance(v, list) and v and all(_row_id(x) is not None for x in v):
        for x in v:
            uid = str(_row_id(x))
            if uid in rows:  # a repeated id: its later copies are compared by place
                _leaves(x, (*path, uid), rows, out, depth + 1)
                continue
            fields: dict[Path, Any] = {}
            rows[uid] = fields
            for k, y in x.items():
                if k not in ("id", "code"):
                    _leaves(y, (str(k),), rows, fields, depth + 1)
    else:
        out[path] = v


def _words(path: Path) -> str:
    return ", ".join(p.replace("_", " ") for p in path)


def _show(v: Any) -> str:
    if v is None:
        text = "none"
    elif isinstance(v, bool):
        text = "yes" if v else "no"
    elif isinstance(v, (str, int, float)):
        text = str(v)
    elif isinstance(v, list) and all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v):
        text = "none" if not v else ", ".join(str(x) for x in v)
    elif isinstance(v, list) and all(isinstance(x, list) for x in v):
        text = ", ".join(f"({_show(x)})" for x in v) or "none"
    else:
        text = "another value" if v else "none"
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 3] + "..."


def _parse(text: str) -> tuple[dict[str, dict[Path, Any]], dict[Path, Any]] | None:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    rows: dict[str, dict[Path, Any]] = {}
    other: dict[Path, Any] = {}
    _leaves(doc, (), rows, other)
    return rows, other


def _field_changes(a: dict[Path, Any], b: dict[Path, Any]) -> list[str]:
    out = []
    for path in sorted(a.keys() | b.keys()):
        va, vb = a.get(path), b.get(path)
        if path not in b:
            out.append(f"{_words(path)} is {_show(va)} in A and absent in B")
        elif path not in a:
            out.append(f"{_words(path)} is absent in A and {_show(vb)} in B")
        elif va != vb or type(va) is not type(vb):
            out.append(f"{_words(path)} is {_show(va)} in A and {_show(vb)} in B")
    return out


def data_changes(text_a: str, text_b: str) -> list[str]:
    """Sentences naming every difference between two card-data texts (none when they are the same data)."""
    if text_a == text_b:
        return []
    pa, pb = _parse(text_a), _parse(text_b)
    if pa is None or pb is None:
        return ["The card data of " + ("A" if pa is None else "B") + " is not JSON, so it cannot be compared "
                "field by field."]
    (rows_a, other_a), (rows_b, other_b) = pa, pb
    names_a, names_b = names_of(json.loads(text_a)), names_of(json.loads(text_b))
    out: list[str] = []
    for uid in sorted(rows_a.keys() | rows_b.keys()):
        if uid not in rows_b:
            out.append(f"{named(names_a, uid)} is only in A.")
        elif uid not in rows_a:
            out.append(f"{named(names_b, uid)} is only in B.")
        else:
            changes = _field_changes(rows_a[uid], rows_b[uid])
            if changes:
                out.append(f"{named(names_a, uid)}: {'; '.join(changes)}.")
    for change in _field_changes(other_a, other_b):
        out.append(change[:1].upper() + change[1:] + ".")
    if not out:  # equal as data (spacing or key order differ)
        return []
    if len(out) > MAX_SENTENCES:
        rest = len(out) - MAX_SENTENCES
        out = [*out[:MAX_SENTENCES], f"... and {rest} more difference{'s' if rest > 1 else ''} (not listed)."]
    return out
