"""Outgoing frames as JSON text, fast: orjson (several times faster than ``json.dumps`` on views).

Output is standard JSON (UTF-8 text rather than ``\\uXXXX`` escapes). Integer dict keys become strings
as with ``json.dumps``. A value orjson cannot encode (an int beyond 64 bits, a custom type that the
standard encoder also refuses) falls back to ``json.dumps``, so the result never differs in meaning.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any) -> str:
    try:
        return orjson.dumps(obj, option=_OPTS).decode()
    except TypeError:
        return json.dumps(obj)
