"""Cards of Blast Off!: colours, kinds, values, card types and faces (BLO-1, "Faces").

Physical cards are small integers (ids 0..67 for the default deck, in the order of
§6.1: Planet by number, colour, copy; Blast Off by colour; Wilds; Countdown cards).
Interchangeable copies share a *card type*, which is what actions name:

========  ===========================  ==========
type      card                         notation
========  ===========================  ==========
0..39     Planet, value v, colour c    ``O7``
40..43    Blast Off, colour c          ``BO-G``
44        Wild (alien)                 ``W``
45        Countdown card (rocket)      ``CD``
========  ===========================  ==========

A *face* is ``(colour, value)``: colour 0..3 or ``NO_COLOUR``; value 1..10, ``BLAST_OFF``
or ``NO_VALUE``. Its notation is a colour letter (``-`` for none) then the value
(``BO`` for the word): ``R4``, ``GBO``, ``-4``, ``--``.
"""

from __future__ import annotations

from typing import Any

COLOURS: tuple[str, ...] = ("ORANGE", "GREEN", "PURPLE", "RED")
LETTERS: tuple[str, ...] = ("O", "G", "P", "R")
NO_COLOUR = -1
NO_VALUE = 0
BLAST_OFF = 11
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, BLAST_OFF)

PLANET, BLAST, WILD, COUNTDOWN = 0, 1, 2, 3
KINDS: tuple[str, ...] = ("PLANET", "BLAST_OFF", "WILD", "COUNTDOWN")

WILD_T = 44
CD_T = 45
NTYPES = 46


def planet_type(value: int, colour: int) -> int:
    return (value - 1) * 4 + colour


def blast_type(colour: int) -> int:
    return 40 + colour


def _type_facts(t: int) -> tuple[int, int, int, str]:
    if t < 40:
        v, c = t // 4 + 1, t % 4
        return PLANET, c, v, f"{LETTERS[c]}{v}"
    if t < 44:
        c = t - 40
        return BLAST, c, BLAST_OFF, f"BO-{LETTERS[c]}"
    if t == WILD_T:
        return WILD, NO_COLOUR, NO_VALUE, "W"
    return COUNTDOWN, NO_COLOUR, NO_VALUE, "CD"


_FACTS = [_type_facts(t) for t in range(NTYPES)]
TYPE_KIND: tuple[int, ...] = tuple(f[0] for f in _FACTS)
TYPE_COL: tuple[int, ...] = tuple(f[1] for f in _FACTS)
TYPE_VAL: tuple[int, ...] = tuple(f[2] for f in _FACTS)
TYPE_NAME: tuple[str, ...] = tuple(f[3] for f in _FACTS)
TYPE_BY_NAME: dict[str, int] = {name: t for t, name in enumerate(TYPE_NAME)}


def value_text(v: int) -> str:
    """``7``, ``BO`` (the word) or ``-`` (no value)."""
    if v == BLAST_OFF:
        return "BO"
    return "-" if v == NO_VALUE else str(v)


def face_text(col: int, val: int) -> str:
    """Face notation: ``R4``, ``GBO``, ``-4`` or ``--``."""
    return ("-" if col < 0 else LETTERS[col]) + value_text(val)


def face_json(col: int, val: int) -> dict[str, Any]:
    """A face as JSON: colour name or null; value 1..10, ``"BLAST_OFF"`` or null."""
    return {
        "colour": None if col < 0 else COLOURS[col],
        "value": None if val == NO_VALUE else ("BLAST_OFF" if val == BLAST_OFF else val),
    }


def card_matches(t: int, fcol: int, fval: int) -> bool:
    """BLO-4.1.2/4.1.3: a Planet or Blast Off type matches a face by colour or value.

    An absent attribute equals nothing; a face of (none, none) is a free lead (R1).
    """
    c = TYPE_COL[t]
    return (c == fcol and c >= 0) or (TYPE_VAL[t] == fval and fval != NO_VALUE) or (fcol < 0 and fval == NO_VALUE)


def eligible_for(t: int, value: int) -> bool:
    """BLO-10.4: a card type that may fill the countdown slot ``value`` (a Countdown card never)."""
    k = TYPE_KIND[t]
    if k == WILD:
        return True
    if value == BLAST_OFF:
        return k == BLAST
    return k == PLANET and TYPE_VAL[t] == value
