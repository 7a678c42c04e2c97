"""Shared checks for the games' data files: size and nesting bounds, warnings, and lenient design mode.

Every loader reads its JSON through :func:`load_json`, so a file too big or nested too deep is a
``DataError`` naming the file, never a ``RecursionError`` or a long stall. A :class:`Checker` collects
what the loader finds: ``fail`` for what the engine needs (always an error), ``design`` for invariants
that are design choices (an error, or a warning under ``lenient``), ``warn`` for what is only worth a
warning. The warnings end up in ``game.data.warnings``; docs/data-files.md lists which check is which.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput

MAX_CHARS = 1_000_000  # the default files are 5-25 kB
MAX_DEPTH = 24  # the deepest default file nests 7 levels (Blast Off! mission conditions)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(text: str, limit: int) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped), stopping past ``limit``."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def check_text(source: str, text: str, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> None:
    """Refuse a text too long or nested too deep to be parsed safely."""
    if len(text) > max_chars:
        raise DataError(source, "(file)", f"is {len(text):,} characters long; at most {max_chars:,} are accepted")
    if nesting_depth(text, max_depth) > max_depth:
        raise DataError(source, "(file)", f"nests arrays and objects more than {max_depth} levels deep")


def load_json(data: TextInput, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a data file's JSON within the size and depth bounds; every problem is a ``DataError``."""
    check_text(data.source, data.text, max_chars=max_chars, max_depth=max_depth)
    try:
        return json.loads(data.text)
    except ValueError as e:
        raise DataError(data.source, "(file)", f"not valid JSON: {e}") from None


class Checker:
    """Errors and warnings of one data file; ``lenient`` turns design invariants into warnings."""

    def __init__(self, source: str, lenient: bool = False) -> None:
        self.source = source
        self.lenient = lenient
        self.warnings: list[str] = []

    def fail(self, field: str, problem: str) -> DataError:
        return DataError(self.source, field, problem)

    def warn(self, field: str, problem: str) -> None:
        self.warnings.append(f"{field}: {problem}")

    def design(self, field: str, problem: str) -> None:
        """A broken design invariant: an error, or under ``lenient`` a warning saying so."""
        if not self.lenient:
            raise self.fail(field, problem)
        self.warn(field, f"{problem} (allowed by lenient mode)")

    def bound(self, field: str, value: int, lo: int, hi: int, what: str = "") -> None:
        """An engine bound (never lenient): ``lo <= value <= hi``."""
        if not lo <= value <= hi:
            raise self.fail(field, f"{value} is out of range: {what or 'it'} must be between {lo} and {hi}")


LANG = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")
MAX_TEXT = 500  # characters of one text (the longest default one, a Meteor Power, has about 150)
MAX_TEXTS = 400  # entries of a texts section


def check_texts(chk: Checker, raw: Any, known: Callable[[str], str | None], *, english: bool = True,
                field: str = "texts") -> dict[str, dict[str, str]]:
    """A data file's ``texts`` section: ``{key: {language: text}}``, what players read per language.

    ``known(key)`` returns why a key names nothing of this file (``None`` if it is known). ``english``:
    every entry needs its English (``"en"``); without it the English lives elsewhere (a mission's own
    ``name``), and an ``"en"`` here is refused so that no text has two English versions.
    """
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise chk.fail(field, 'must be an object of texts: {"KEY": {"en": "...", "es": "..."}}')
    if len(raw) > MAX_TEXTS:
        raise chk.fail(field, f"{len(raw)} texts; at most {MAX_TEXTS}")
    out: dict[str, dict[str, str]] = {}
    for key, words in raw.items():
        f = f"{field}.{key}"
        problem = known(key)
        if problem is not None:
            raise chk.fail(f, problem)
        if not isinstance(words, dict) or not words:
            raise chk.fail(f, 'must be an object of one text per language: {"en": "...", "es": "..."}')
        for lang, text in words.items():
            if not LANG.match(lang):
                raise chk.fail(f"{f}.{lang[:12]}", "a language is a code like 'en', 'es' or 'pt-BR'")
            if not isinstance(text, str) or not text.strip():
                raise chk.fail(f"{f}.{lang}", "must be a non-empty string")
            if len(text) > MAX_TEXT:
                raise chk.fail(f"{f}.{lang}", f"is {len(text)} characters long; at most {MAX_TEXT}")
        if english and "en" not in words:
            raise chk.fail(f, 'every text needs its English ("en"); other languages are optional')
        if not english and "en" in words:
            raise chk.fail(f"{f}.en", "the English text is the card's own; give only the other languages here")
        out[key] = dict(words)
    return out
