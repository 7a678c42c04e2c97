"""The data hash of a card-data file: what its rules depend on, never its translations.

A record or a saved game names the card data it was played with by this hash, and a replay refuses
other data. Texts that players read (a file's ``texts`` section, per-language names) change no rule,
so the hash leaves them out: a designer may add or fix a translation and every record still replays.
The hash is taken over the file's JSON in canonical form (sorted keys, no spaces), so reformatting a
file does not change it either. A path is a tuple of keys from the top; ``"*"`` stands for every
item of a list (or every value of an object).

>>> rules_hash('{"a": 1, "texts": {"x": {"en": "X"}}}', (("texts",),)) == rules_hash('{"a":1}', ())
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from hashlib import sha256
from typing import Any

TextPath = tuple[str, ...]


def strip_texts(obj: Any, paths: Iterable[TextPath]) -> Any:
    """A copy of the JSON value ``obj`` without the values at ``paths``."""
    out = json.loads(json.dumps(obj))
    for path in paths:
        _drop(out, path)
    return out


def _drop(node: Any, path: TextPath) -> None:
    if not path:
        return
    head, rest = path[0], path[1:]
    if head == "*":
        children = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
        for child in children:
            if rest:
                _drop(child, rest)
        return
    if not isinstance(node, dict) or head not in node:
        return
    if rest:
        _drop(node[head], rest)
    else:
        del node[head]


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rules_hash(text: str, paths: Iterable[TextPath]) -> str:
    """The 16-hex-digit hash of the rules part of a JSON data file (its text hash if it is not JSON)."""
    try:
        obj = json.loads(text)
    except ValueError:
        return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return sha256(canonical(strip_texts(obj, paths)).encode("utf-8", "surrogatepass")).hexdigest()[:16]
