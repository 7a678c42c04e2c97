"""The Blast Off! data file (spec §6.4) and mission files (§6.3): parse and validate.

The data file gives the colours, the deck composition and the missions. A separate
mission file (option ``missions``) replaces the missions; it is either
``{"schema": "cosmodeck/blast_off/missions@1", "missions": [...], "texts": {...}}`` or a bare list.
Both may carry a ``texts`` section: the missions' names and texts in other languages
(``{"mission.M01.name": {"es": "..."}, "mission.M01.text": {"es": "..."}}``); the English is the
mission's own ``name`` and ``text``. Texts are not part of the data hash.
The loader enforces I5-I7 on every file (the engine needs them, so they stay errors in lenient
mode too); errors are ``DataError(source, field, problem)``. Every count is bounded, and a deck
that strays from the design of I1-I2 (no Countdown card, numbers with unequal copies) gives
warnings in ``BloData.warnings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cosmodeck.engine.errors import DataError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.blast_off.cards import (
    BLAST,
    CD_T,
    COLOURS,
    COUNTDOWN,
    PLANET,
    TYPE_KIND,
    WILD,
    WILD_T,
    blast_type,
    planet_type,
)
from cosmodeck.games.blast_off.mdl import MAX_MISSIONS, Mission, error_field, parse_missions, problem_text
from cosmodeck.games.datafile import Checker, check_texts, load_json

SCHEMA = "cosmodeck/blast_off/data@1"
MISSIONS_SCHEMA = "cosmodeck/blast_off/missions@1"
HAND_SIZE = 6


class DeckModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    planet: dict[str, list[int]]
    blast_off: list[int]
    wild: int = Field(ge=0, le=40)
    countdown: int = Field(ge=0, le=40)

    @field_validator("planet")
    @classmethod
    def _numbers(cls, v: dict[str, list[int]]) -> dict[str, list[int]]:
        want = [str(n) for n in range(1, 11)]
        if sorted(v, key=lambda k: (len(k), k)) != want:
            raise ValueError(f"needs exactly the keys \"1\"..\"10\" (got {', '.join(sorted(v))})")
        return v


class DataModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    schema_: str = Field(alias="schema")
    status: str | None = None
    colours: list[str] = Field(min_length=1, max_length=4)
    deck: DeckModel
    missions: list[Any] = Field(max_length=MAX_MISSIONS)
    default_options: dict[str, Any] | None = None
    texts: Any = None  # checked by mission_texts

    @field_validator("schema_")
    @classmethod
    def _schema(cls, v: str) -> str:
        if v != SCHEMA:
            raise ValueError(f"must be {SCHEMA!r}")
        return v

    @field_validator("colours")
    @classmethod
    def _colours(cls, v: list[str]) -> list[str]:
        for c in v:
            if c not in COLOURS:
                raise ValueError(f"{c!r} is not a colour; expected some of {', '.join(COLOURS)}")
        if len(set(v)) != len(v):
            raise ValueError("colours must be distinct")
        return v


@dataclass(frozen=True, slots=True)
class BloData:
    """Validated data: the card types of ids 0..N-1 and the compiled missions."""

    colours: tuple[int, ...]
    card_types: tuple[int, ...]
    missions: tuple[Mission, ...]
    default_options: dict[str, Any] | None
    status: str | None
    warnings: tuple[str, ...] = ()
    texts: dict[str, dict[str, str]] = field(default_factory=dict)  # "mission.M01.name" -> {"es": ...}

    def min_cards(self, max_players: int) -> int:
        """I7: the deck needs at least 6 * max_players + 2 cards."""
        return HAND_SIZE * max_players + 2


def parse(data: TextInput) -> BloData:
    raw = load_json(data)
    if not isinstance(raw, dict):
        raise DataError(data.source, "(top level)", "must be a JSON object")
    try:
        model = DataModel.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError(data.source, error_field(err["loc"]), problem_text(err)) from None
    cols = tuple(COLOURS.index(c) for c in model.colours)
    deck = model.deck
    for key, counts in [*(("planet." + k, v) for k, v in deck.planet.items()), ("blast_off", deck.blast_off)]:
        if len(counts) != len(cols):
            raise DataError(data.source, f"deck.{key}", f"needs one count per colour ({len(cols)}), got {len(counts)}")
        if any(c < 0 or c > 20 for c in counts):
            raise DataError(data.source, f"deck.{key}", "counts must be between 0 and 20")
    types: list[int] = []
    for n in range(1, 11):  # §6.1: Planet by number, colour in `colours` order, copy
        for ci, copies in zip(cols, deck.planet[str(n)], strict=True):
            types.extend([planet_type(n, ci)] * copies)
    for ci, copies in zip(cols, deck.blast_off, strict=True):
        types.extend([blast_type(ci)] * copies)
    types.extend([WILD_T] * deck.wild)
    types.extend([CD_T] * deck.countdown)
    missions = parse_missions(raw.get("missions"), data.source)
    texts = mission_texts(Checker(data.source), model.texts, missions)
    return BloData(cols, tuple(types), missions, model.default_options, model.status, _warnings(data, deck), texts)


def mission_texts(chk: Checker, raw: Any, missions: tuple[Mission, ...]) -> dict[str, dict[str, str]]:
    """A texts section: keys ``mission.ID.name`` and ``mission.ID.text`` of the file's missions."""
    ids = [m.id for m in missions]

    def known(key: str) -> str | None:
        kind, _, rest = key.partition(".")
        ident, _, part = rest.rpartition(".")
        if kind != "mission" or part not in ("name", "text"):
            return "a key is mission.ID.name or mission.ID.text"
        if ident not in ids:
            return f"no mission {ident!r} in this file; known: {', '.join(ids)}"
        return None

    return check_texts(chk, raw, known, english=False)


def _warnings(data: TextInput, deck: DeckModel) -> tuple[str, ...]:
    """Design notes (I1-I2 describe the default deck): legal, but probably not what a designer wants."""
    chk = Checker(data.source, data.lenient)
    if deck.countdown == 0:
        chk.warn("deck.countdown", "no Countdown card: no countdown can start, so no mission is ever revealed")
    copies = {n: sum(deck.planet[str(n)]) for n in range(1, 11)}
    if len(set(copies.values())) > 1:
        chk.warn("deck.planet", "numbers have different copy counts ("
                 + ", ".join(f"{n}: {k}" for n, k in copies.items()) + "): the countdown race favours some (I2)")
    if not any(deck.blast_off) and deck.wild == 0:
        chk.warn("deck.blast_off", "no Blast Off card and no Wild: no countdown can be completed")
    return tuple(chk.warnings)


def parse_mission_file(data: TextInput) -> tuple[tuple[Mission, ...], dict[str, dict[str, str]]]:
    """A user's mission file (option ``missions``): ``{"missions": [...], "texts": ...}`` or a bare list;
    its missions and their texts in other languages."""
    raw = load_json(data)
    texts: Any = None
    if isinstance(raw, dict):
        extra = sorted(set(raw) - {"schema", "missions", "name", "description", "status", "texts"})
        if extra:
            raise DataError(data.source, extra[0], "unknown key; a mission file has 'schema', 'missions' and 'texts'")
        if "schema" in raw and raw["schema"] != MISSIONS_SCHEMA:
            raise DataError(data.source, "schema", f"must be {MISSIONS_SCHEMA!r}")
        if "missions" not in raw:
            raise DataError(data.source, "missions", "required key is missing")
        texts = raw.get("texts")
        raw = raw["missions"]
    missions = parse_missions(raw, data.source)
    return missions, mission_texts(Checker(data.source), texts, missions)


def kind_counts(types: tuple[int, ...]) -> dict[int, int]:
    """Cards per kind (PLANET, BLAST, WILD, COUNTDOWN) of a deck (I1)."""
    out = {PLANET: 0, BLAST: 0, WILD: 0, COUNTDOWN: 0}
    for t in types:
        out[TYPE_KIND[t]] += 1
    return out
