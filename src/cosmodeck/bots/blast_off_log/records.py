"""What the replay derives: obligations, violations, resolutions in progress, and card faces."""

from __future__ import annotations

from dataclasses import dataclass

from cosmodeck.games.blast_off.cards import BLAST_OFF, LETTERS


def face(text: str) -> tuple[int, int]:
    """``R4`` -> (3, 4); ``GBO`` -> (1, BLAST_OFF); ``-4`` -> (-1, 4); ``--`` -> (-1, 0)."""
    col = -1 if text[0] == "-" else LETTERS.index(text[0])
    return col, value(text[1:])


def value(text: str | int) -> int:
    if text == "BO":
        return BLAST_OFF
    return 0 if text == "-" else int(text)


@dataclass(slots=True)
class Obligation:
    """An obligation owed (12.2): real time by ``deadline`` (s); turn-based by the end of RESPONSE ``due``."""

    seat: int
    mission: str
    gesture: bool
    token: str
    expect: str | None
    deadline: float
    due: int


@dataclass(slots=True)
class Violation:
    """A derived violation (12.4) and its catch window (12.5).

    Real time: open while the game time is before ``end`` or fewer than ``need`` turn actions are
    complete (in the replay's count). Turn-based: open in RESPONSE steps ``start``..``end``.
    """

    key: int
    seat: int
    mission: str
    start: float
    end: float
    need: int
    caught: bool = False


@dataclass(slots=True)
class Play:
    """A card (or a Draw) being resolved (12.1): its obligations wait for the end of its effects.

    ``bkind`` is -1 when the card beneath is unknown (then no restriction is checked).
    """

    event: int
    actor: int
    kind: int
    col: int
    val: int
    bkind: int
    bcol: int
    bval: int
    in_cd: bool
    blast_off: bool   # a slap into the Blast Off slot (a mission reveal follows)
    before: list[int]  # hand sizes before the play (for ``hand_size_becomes``)
    t: float          # game time of the resolution (its last resumption)
    turns: int        # turn actions complete before it
    paused: bool = False   # waiting for a DECLARE (Blast Off slot) or a CHOOSE (swap_hands) decision
    choosing: bool = False
    late: bool = False     # its player went out: the restriction check comes after ``went_out``
