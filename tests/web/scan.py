"""What a player reads: scan a page's visible text for data that leaked onto it, and watch for errors.

A player reads sentences and card faces, never data. ``problems(text, lang)`` lists what a page must
not show: braces, ``":``, ``key=value``, snake_case words, "1 cards", bare card ids (R02, P7, M13, G7,
P12-01, M1-A...), leftovers such as ``undefined`` or ``[object Object]``, and on a Spanish page the
English words of the games' data files (the words players would read untranslated). ``scan(page)``
applies it to what Chromium shows (``innerText``, which skips hidden elements, plus every option of a
dropdown and the tooltips and placeholders of visible elements) and fails with the offending lines.

``watch(page)`` collects page errors (uncaught exceptions) and console errors from the moment it is
attached; ``assert_clean(page)`` fails if there were any.

Usage in a browser test::

    page = new_page(browser)          # tests.web.conftest
    errors = watch(page)
    page.goto(url)
    scan(page)                        # the language is read from <html lang>
    ...
    errors.check()
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import cosmodeck

PACKAGE = Path(cosmodeck.__file__).resolve().parent

# Words the English data shares with Spanish text a page may show: proper names (planets, factions,
# launch sites, missions named after call signs), the games' own titles and words spelled the same in
# both languages. Words used by the Spanish rulebooks are allowed as well (see spanish_words()).
SAME_IN_BOTH = frozenset({
    "actor", "radio", "solar", "control", "extra", "final", "normal", "total", "standard",
    "meteor", "blast", "shooting", "star",  # the games' names stay as they are
    "houston", "zero", "azura", "brakk", "cyrox", "dolmen", "exo",
    "blastroid", "krakenian", "alligish", "conquid", "nebulid",
    "baikonur", "kourou", "sriharikota", "tanegashima",
})
# Data keys whose text is never shown as such (schema tags, provenance notes, codes).
NOT_SHOWN_KEYS = frozenset({"schema", "format", "provenance", "proposed", "status", "id", "code", "cost", "kind"})
MIN_WORD = 4  # shorter English words ("the", "red") collide with Spanish ones too often

PLURAL_NOUNS = ("cards|cartas|planets|planetas|moons|lunas|points|puntos|rockets|cohetes|turns|turnos|"
                "seconds|segundos|players|jugadores|meteors|meteoritos|missions|misiones|moves|jugadas|"
                "steps|pasos|zones|zonas|energies|energías|technologies|tecnologías|wins|victorias|"
                "rounds|rondas|bots|seats|asientos|games|partidas|events|eventos|cells|casillas|levels|niveles")

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a brace", re.compile(r"[{}]")),
    ("a JSON key", re.compile(r"\":")),
    ("key=value", re.compile(r"\b[A-Za-z_][\w.-]*=\S")),
    ("a snake_case word", re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")),
    # "Player 1 turns over a mission" is a seat's name and a verb, not a count
    ("a singular count with a plural noun",
     re.compile(rf"(?<![\d.,])(?<!Player )(?<!Jugador )\b1 (?:{PLURAL_NOUNS})\b", re.IGNORECASE)),
    ("a bare card id", re.compile(r"\b(?:[A-Z]{1,2}\d{1,2}(?:-[A-Z0-9]{1,2})?|DK-\d+)\b")),
    ("a clause code", re.compile(r"\b(?:MET|BLO|SHS)-[A-Z]?\d")),
    ("a programming leftover", re.compile(r"\b(?:undefined|null|NaN)\b|\[object \w+\]")),
)

WORD = re.compile(r"[^\W\d_]+")


def _walk(value: Any, key: str | None = None) -> Iterator[str]:
    """The words a player could be shown from one data file: prose values and snake_case keys."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in NOT_SHOWN_KEYS or k == "es" or k.endswith("_es"):
                continue  # a Spanish translation is not English
            if re.fullmatch(r"[a-z_]+", k):
                yield from k.split("_")
            yield from _walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v, key)
    elif isinstance(value, str):
        yield from WORD.findall(value)


@cache
def spanish_words() -> frozenset[str]:
    """Every word of the Spanish rulebooks the package ships: the terms Spanish players hold."""
    words: set[str] = set()
    for path in sorted((PACKAGE / "rules" / "es").glob("*.txt")):
        words.update(w.lower() for w in WORD.findall(path.read_text(encoding="utf-8")))
    return frozenset(words)


@cache
def english_data_words() -> frozenset[str]:
    """English words from the games' data files that must not appear on a Spanish page."""
    words: set[str] = set()
    for path in sorted(PACKAGE.glob("games/*/data/*.json")):
        words.update(w.lower() for w in _walk(json.loads(path.read_text(encoding="utf-8")))
                     if len(w) >= MIN_WORD)
    return frozenset(words - spanish_words() - SAME_IN_BOTH)


def problems(text: str, lang: str = "en", allow: Iterable[str] = ()) -> list[str]:
    """What a player should not read in ``text``: one line per finding, quoting the line it is on.

    ``allow`` holds regular expressions for text a test knows to be right (matched parts are removed
    before scanning).
    """
    for pattern in allow:
        text = re.sub(pattern, " ", text)
    found: list[str] = []
    english = english_data_words() if lang.startswith("es") else frozenset()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        for what, pattern in PATTERNS:
            m = pattern.search(line)
            if m:
                found.append(f"{what} ({m.group(0)!r}) in: {line[:160]}")
        leaked = sorted({w for w in WORD.findall(line) if w.lower() in english})
        if leaked:
            found.append(f"English on a Spanish page ({', '.join(leaked)}) in: {line[:160]}")
    return found


VISIBLE_TEXT_JS = """() => {
  const parts = [document.body.innerText];
  const shown = el => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  for (const sel of document.querySelectorAll('select')) {
    if (shown(sel)) for (const o of sel.options) parts.push(o.text);
  }
  for (const el of document.querySelectorAll('[title], [placeholder]')) {
    if (!shown(el)) continue;
    if (el.title) parts.push(el.title);
    if (el.placeholder) parts.push(el.placeholder);
  }
  parts.push(document.title);
  return parts.join('\\n');
}"""


def visible_text(page: Any) -> str:
    """What Chromium shows on ``page``: text, every dropdown choice, tooltips, placeholders, title."""
    return str(page.evaluate(VISIBLE_TEXT_JS))


def page_lang(page: Any) -> str:
    return str(page.evaluate("document.documentElement.lang || 'en'"))


def scan(page: Any, lang: str | None = None, allow: Iterable[str] = (), where: str = "") -> None:
    """Fail if ``page`` shows data instead of sentences (see ``problems``); ``where`` names the step."""
    text = visible_text(page)
    found = problems(text, lang or page_lang(page), allow)
    assert not found, f"the page shows data{' ' + where if where else ''}:\n" + "\n".join(found[:20])


class Errors(list[str]):
    """Page errors and console errors seen on one page since ``watch`` attached."""

    def check(self) -> None:
        assert not self, "page or console errors:\n" + "\n".join(self)


def watch(page: Any) -> Errors:
    """Collect uncaught page errors and console errors of ``page`` (also kept as ``page.scan_errors``)."""
    errors = Errors()

    def on_console(msg: Any) -> None:
        if msg.type == "error":
            errors.append(f"console: {msg.text}")

    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", on_console)
    page.scan_errors = errors
    return errors


def assert_clean(page: Any) -> None:
    """Fail if the page had any page or console error since ``watch(page)``."""
    errors: Errors = page.scan_errors
    errors.check()
