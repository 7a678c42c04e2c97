"""JSON from clients, parsed without recursion and bounded in depth.

Python's ``json`` recurses once per nesting level, so a 100,000-deep body raises
``RecursionError`` (a 500, or a dropped socket). The parser here is pydantic-core's (jiter): it
refuses input nested deeper than 200 levels with a ``ValueError``. The server's own limit,
``max_json_depth`` (at most 200), is checked on the parsed value without recursion.
"""

from __future__ import annotations

from typing import Any

import pydantic_core


class JsonError(ValueError):
    """Malformed (``bad_json``) or too deeply nested (``too_deep``) JSON."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


PARSER_DEPTH = 200  # jiter's recursion limit: deeper input never reaches Python objects


def depth_of(value: Any) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0, ``[]`` and ``{}`` are 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, d = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, d + 1)
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, d + 1)
            stack.extend((v, d + 1) for v in item)
    return deepest


def loads(text: str | bytes, max_depth: int, what: str = "the body") -> Any:
    """Parse ``text``; ``JsonError`` ``bad_json`` or ``too_deep`` on malformed or too deeply nested input."""
    try:
        value = pydantic_core.from_json(text)
    except (ValueError, TypeError) as e:
        if "recursion limit" in str(e):
            raise JsonError("too_deep", f"{what} is nested too deeply (at most {max_depth} levels)") from None
        raise JsonError("bad_json", f"{what} is not JSON: {e}") from None
    if depth_of(value) > max_depth:
        raise JsonError("too_deep", f"{what} is nested too deeply (at most {max_depth} levels)")
    return value
