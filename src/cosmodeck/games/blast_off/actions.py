"""Actions of Blast Off! and their stable text notation.

One line, single spaces, lower-case verbs. Cards: ``O7`` (orange 7; letters O G P R),
``BO-G`` (green Blast Off card), ``W`` (Wild), ``CD`` (Countdown card). Faces and
declarations: a colour letter then ``1``..``10`` or ``BO`` (the word): ``R4``, ``GBO``.
Seats are 0-based.

``play CARD`` / ``play W[FACE]``
    Play a card on your turn (BLO-4.1, 4.3) or play the card you just drew (4.4.2).
    A Wild carries its declared face (4.2): ``play W[R4]``; ``play W`` alone is refused.
``draw`` · ``pass`` · ``keep``
    Draw a card (4.4.1); pass when nothing can be drawn (R10); keep the drawn card (4.4.2).
``slap CARD VALUE`` / ``slap W[FACE] BO``
    Countdown: throw ``CARD`` in for the called ``VALUE`` (``1``..``10`` or ``BO``), e.g.
    ``slap O6 6``, ``slap W 4``, ``slap BO-R BO``. Real time only: a Wild filling the
    Blast Off slot may carry its declaration (BLO-10.7): ``slap W[R2] BO``.
``declare FACE``
    Declare a Wild: the starter (3.7) or a Wild in the Blast Off slot (6.4): ``declare R2``.
``choose SEAT``
    Pick the other player of a ``swap_hands`` effect (M14): ``choose 2``.
``announce TOKEN`` / ``announce TOKEN ARG`` · ``gesture TOKEN``
    Mission obligations (BLO-12.2): ``announce HOUSTON``, ``announce COUNT 3``,
    ``announce COLOUR RED``, ``gesture TAP``.
``catch SEAT`` / ``catch SEAT MISSION``
    Catch a player who forgot a mission (BLO-12.6): ``catch 1``, ``catch 1 M01``.
``done``
    Turn-based timing: end your submissions to the current ``RESPONSE`` step (BLO-12.3).
    In a ``COUNTDOWN`` step, ``pass`` declines to slap (BLO-11.2).
``author JSON``
    Create Your Own Missions (BLO-9.2): one MDL mission as a JSON object (without ``id``;
    the engine numbers authored missions ``C1``, ``C2``...). ``str`` gives canonical JSON
    (sorted keys, no spaces), so only canonical text round-trips character for character.

``str(action)`` gives the notation and ``parse_action(text)`` reads it back; anything
else raises ``NotationError``.

>>> str(parse_action("play W[R4]"))
'play W[R4]'
>>> parse_action("slap BO-R BO") == Slap(43, 11)
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from cosmodeck.engine.errors import NotationError
from cosmodeck.games.blast_off.cards import (
    BLAST_OFF,
    COLOURS,
    LETTERS,
    TYPE_BY_NAME,
    TYPE_NAME,
    WILD_T,
    face_text,
    value_text,
)


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card of type ``card``; a Wild carries its declared face ``(col, val)``."""

    card: int
    col: int = -1
    val: int = 0

    def __str__(self) -> str:
        if self.card == WILD_T and self.col >= 0:
            return f"play W[{face_text(self.col, self.val)}]"
        return f"play {TYPE_NAME[self.card]}"


@dataclass(frozen=True, slots=True)
class Slap:
    """Countdown: a card of type ``card`` for the called ``value`` (declaration: Wild in the BO slot)."""

    card: int
    value: int
    col: int = -1
    val: int = 0

    def __str__(self) -> str:
        card = f"W[{face_text(self.col, self.val)}]" if self.card == WILD_T and self.col >= 0 else TYPE_NAME[self.card]
        return f"slap {card} {value_text(self.value)}"


@dataclass(frozen=True, slots=True)
class Declare:
    col: int
    val: int

    def __str__(self) -> str:
        return f"declare {face_text(self.col, self.val)}"


@dataclass(frozen=True, slots=True)
class Choose:
    target: int

    def __str__(self) -> str:
        return f"choose {self.target}"


@dataclass(frozen=True, slots=True)
class Announce:
    token: str
    arg: str | None = None

    def __str__(self) -> str:
        return f"announce {self.token}" if self.arg is None else f"announce {self.token} {self.arg}"


@dataclass(frozen=True, slots=True)
class Gesture:
    token: str

    def __str__(self) -> str:
        return f"gesture {self.token}"


@dataclass(frozen=True, slots=True)
class Catch:
    target: int
    mission: str | None = None

    def __str__(self) -> str:
        return f"catch {self.target}" if self.mission is None else f"catch {self.target} {self.mission}"


@dataclass(frozen=True, slots=True)
class Author:
    """A custom mission (BLO-9.2): canonical JSON text of one MDL mission."""

    text: str

    def __str__(self) -> str:
        return f"author {self.text}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Keep:
    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Done:
    def __str__(self) -> str:
        return "done"


Action = Play | Slap | Declare | Choose | Announce | Gesture | Catch | Author | Draw | Pass | Keep | Done

DRAW, PASS, KEEP, DONE = Draw(), Pass(), Keep(), Done()

_VAL = r"(10|[1-9]|BO)"
_FACE = rf"([OGPR]){_VAL}"
_CARD = r"([OGPR](?:10|[1-9])|BO-[OGPR]|W|CD)"
_SEAT = r"(0|[1-9][0-9]?)"
TOKEN_RE = r"[A-Z][A-Z0-9_]{0,31}"
MISSION_ID_RE = r"[A-Z][A-Z0-9_]{0,15}"
_RE = {
    "play": re.compile(rf"play (?:{_CARD}|W\[{_FACE}\])"),
    "slap": re.compile(rf"slap (?:{_CARD}|W\[{_FACE}\]) {_VAL}"),
    "declare": re.compile(rf"declare {_FACE}"),
    "choose": re.compile(rf"choose {_SEAT}"),
    "announce": re.compile(rf"announce ({TOKEN_RE})(?: (0|[1-9][0-9]{{0,2}}|{'|'.join(COLOURS)}))?"),
    "gesture": re.compile(rf"gesture ({TOKEN_RE})"),
    "catch": re.compile(rf"catch {_SEAT}(?: ({MISSION_ID_RE}))?"),
}
_FIXED: dict[str, Action] = {"draw": DRAW, "pass": PASS, "keep": KEEP, "done": DONE}


def _value(text: str) -> int:
    return BLAST_OFF if text == "BO" else int(text)


def _decl(letter: str, value: str) -> tuple[int, int]:
    return LETTERS.index(letter), _value(value)


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def parse_action(text: str) -> Action:
    """Parse the notation above (``NotationError`` if malformed)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    fixed = _FIXED.get(text)
    if fixed is not None:
        return fixed
    verb = text.split(" ", 1)[0]
    if verb == "author" and text.startswith("author "):
        try:
            obj = json.loads(text[7:])
        except ValueError as e:
            raise NotationError(f"author: the mission is not valid JSON: {e}") from None
        if not isinstance(obj, dict):
            raise NotationError("author: the mission must be a JSON object")
        return Author(canonical_json(obj))
    rx = _RE.get(verb)
    m = rx.fullmatch(text) if rx is not None else None
    if m is None:
        raise NotationError(
            f"cannot read {text!r}: expected play CARD | play W[FACE] | draw | pass | keep | slap CARD VALUE | "
            "declare FACE | choose SEAT | announce TOKEN [ARG] | gesture TOKEN | catch SEAT [MISSION] | done | "
            "author JSON (cards O7, BO-G, W, CD; faces R4, GBO)"
        )
    g = m.groups()
    if verb == "play":
        if g[0] is not None:
            return Play(TYPE_BY_NAME[g[0]])
        return Play(WILD_T, *_decl(g[1], g[2]))
    if verb == "slap":
        if g[0] is not None:
            return Slap(TYPE_BY_NAME[g[0]], _value(g[3]))
        return Slap(WILD_T, _value(g[3]), *_decl(g[1], g[2]))
    if verb == "declare":
        return Declare(*_decl(g[0], g[1]))
    if verb == "choose":
        return Choose(int(g[0]))
    if verb == "announce":
        return Announce(g[0], g[1])
    if verb == "gesture":
        return Gesture(g[0])
    return Catch(int(g[0]), g[1])
