"""The mission definition language (MDL, spec §6.3): parse, validate (I5, I6), compile.

A mission is a JSON object::

    {"id": "M01", "name": "Houston", "text": "...", "phase": "any",
     "when": {"event": "card_played", "value": [7]},
     "obligation": {"who": "actor", "do": "announce", "token": "HOUSTON"}}

with exactly one of ``obligation``, ``effect``, ``restriction`` or ``modifier``, and
``when`` if and only if it has an obligation or an effect. Errors name the field:
``DataError(source, "missions[2] (M03).when.colour", "'BLUE' is not a colour ...")``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from cosmodeck.engine.errors import DataError
from cosmodeck.games.blast_off.actions import MISSION_ID_RE, TOKEN_RE, canonical_json
from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, KINDS

PHASE_TURN, PHASE_COUNTDOWN, PHASE_ANY = 0, 1, 2
PHASES = ("turn", "countdown", "any")
EV_PLAYED, EV_DRAW, EV_SIZE = 0, 1, 2
EVENTS = ("card_played", "draw_action", "hand_size_becomes")
EFFECTS = ("reverse", "skip_next", "pass_hands", "next_draws", "swap_hands", "extra_turn")
SAME, DIFFERENT = 1, 2
EVEN, ODD = 1, 2
_FORBID = ConfigDict(extra="forbid", strict=True, frozen=True)
MAX_MISSIONS = 64  # a mission deck a table can hold (the default has 16)


def _listify(v: Any) -> list[Any]:
    if isinstance(v, list) and not v:
        raise ValueError("an empty list matches nothing; leave the key out instead")
    return v if isinstance(v, list) else [v]


class CondModel(BaseModel):
    model_config = _FORBID
    kind: tuple[str, ...] | None = None
    colour: tuple[str, ...] | None = None
    value: tuple[int, ...] | None = None
    parity: Literal["even", "odd"] | None = None

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: Any) -> Any:
        return None if v is None else tuple(_enum(x, KINDS, "card kind") for x in _listify(v))

    @field_validator("colour", mode="before")
    @classmethod
    def _colour(cls, v: Any) -> Any:
        return None if v is None else tuple(_enum(x, COLOURS, "colour") for x in _listify(v))

    @field_validator("value", mode="before")
    @classmethod
    def _value(cls, v: Any) -> Any:
        return None if v is None else tuple(_card_value(x) for x in _listify(v))


class BelowModel(BaseModel):
    model_config = _FORBID
    colour: Literal["same", "different"] | None = None
    value: Literal["same", "different"] | None = None


class WhenModel(CondModel):
    event: Literal["card_played", "draw_action", "hand_size_becomes"]
    n: int | None = Field(default=None, ge=0, le=200)
    below: BelowModel | None = None


class ObligationModel(BaseModel):
    model_config = _FORBID
    who: Literal["actor", "others"]
    do: Literal["announce", "gesture"]
    token: str = Field(pattern=f"^{TOKEN_RE}$")
    arg: Literal["hand_size", "colour"] | None = None


class EffectModel(BaseModel):
    model_config = _FORBID
    type: Literal["reverse", "skip_next", "pass_hands", "next_draws", "swap_hands", "extra_turn"]
    n: int | None = Field(default=None, ge=1, le=20)
    chooser: Literal["actor"] | None = None


class ForbidModel(BaseModel):
    model_config = _FORBID
    card: CondModel
    onto: CondModel


class RestrictionModel(BaseModel):
    model_config = _FORBID
    forbid: ForbidModel


class ModifierModel(BaseModel):
    model_config = _FORBID
    countdown_from: int = Field(ge=1, le=10)


class MissionModel(BaseModel):
    model_config = _FORBID
    id: str = Field(pattern=f"^{MISSION_ID_RE}$")
    name: str = Field(min_length=1, max_length=80)
    text: str = Field(min_length=1, max_length=500)
    phase: Literal["turn", "countdown", "any"] = "any"
    when: WhenModel | None = None
    obligation: ObligationModel | None = None
    effect: EffectModel | None = None
    restriction: RestrictionModel | None = None
    modifier: ModifierModel | None = None

    @model_validator(mode="after")
    def _invariants(self) -> MissionModel:
        parts = [k for k in ("obligation", "effect", "restriction", "modifier") if getattr(self, k) is not None]
        if len(parts) != 1:
            raise ValueError(f"I5: a mission has exactly one of obligation, effect, restriction, modifier "
                             f"(found {', '.join(parts) or 'none'})")
        needs_when = parts[0] in ("obligation", "effect")
        if needs_when != (self.when is not None):
            raise ValueError("I5: 'when' is required with an obligation or an effect, and only then")
        w = self.when
        if w is not None:
            _check_when(w)
        if self.effect is not None:
            if self.phase != "turn":
                raise ValueError('I6: an effect needs "phase": "turn" (R12: effects never apply in a countdown)')
            e = self.effect
            if (e.n is not None) != (e.type == "next_draws"):
                raise ValueError("effect.n is required for next_draws, and only there")
            if e.chooser is not None and e.type != "swap_hands":
                raise ValueError("effect.chooser is only for swap_hands")
        if self.obligation is not None:
            o = self.obligation
            if o.do == "gesture" and o.arg is not None:
                raise ValueError("obligation.arg is only for announcements, not gestures")
            if o.arg == "colour" and w is not None and w.event != "card_played":
                raise ValueError("obligation.arg 'colour' needs when.event 'card_played' (the played card's colour)")
        return self


def _check_when(w: WhenModel) -> None:
    has_cond = any(x is not None for x in (w.kind, w.colour, w.value, w.parity, w.below))
    if w.event != "card_played" and has_cond:
        raise ValueError(f"when: card conditions (kind, colour, value, parity, below) need event 'card_played', "
                         f"not {w.event!r}")
    if (w.n is not None) != (w.event == "hand_size_becomes"):
        raise ValueError("when.n is required for hand_size_becomes, and only there")
    if w.event == "hand_size_becomes" and w.n == 0:
        raise ValueError("when.n must be at least 1 (a player with no cards has left play, R22)")


def _enum(x: Any, names: Sequence[str], what: str) -> str:
    if not isinstance(x, str) or x not in names:
        raise ValueError(f"{x!r} is not a {what}; expected one of {', '.join(names)}")
    return x


def _card_value(x: Any) -> int:
    if x == "BLAST_OFF":
        return BLAST_OFF
    if isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 10:
        return x
    raise ValueError(f"{x!r} is not a card value; expected 1..10 or \"BLAST_OFF\"")


# ---- compiled, immutable runtime form ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cond:
    kinds: frozenset[int] | None
    cols: frozenset[int] | None
    vals: frozenset[int] | None
    parity: int
    below_col: int
    below_val: int

    def match(self, kind: int, col: int, val: int, bcol: int = -1, bval: int = 0) -> bool:
        """All given keys hold (R26: kind is the physical card, the rest read the face)."""
        if self.kinds is not None and kind not in self.kinds:
            return False
        if self.cols is not None and col not in self.cols:
            return False
        if self.vals is not None and val not in self.vals:
            return False
        if self.parity and (not 1 <= val <= 10 or (val % 2 == 0) != (self.parity == EVEN)):
            return False
        if self.below_col and (col < 0 or bcol < 0 or (col == bcol) != (self.below_col == SAME)):
            return False
        return not (self.below_val and (val == 0 or bval == 0 or (val == bval) != (self.below_val == SAME)))


@dataclass(frozen=True, slots=True)
class Mission:
    """One compiled mission. ``kind`` is obligation | effect | restriction | modifier."""

    id: str
    name: str
    text: str
    phase: int
    kind: str
    event: int = -1
    n: int = 0
    cond: Cond | None = None
    who_others: bool = False
    gesture: bool = False
    token: str = ""
    arg: str | None = None
    effect: str = ""
    effect_n: int = 0
    forbid_card: Cond | None = None
    forbid_onto: Cond | None = None
    countdown_from: int = 0
    source: str = ""

    def applies(self, in_countdown: bool) -> bool:
        """R12 / BLO-7.4: does the mission's ``phase`` cover a turn or a countdown event?"""
        return self.phase in (PHASE_ANY, PHASE_COUNTDOWN if in_countdown else PHASE_TURN)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text}


def _cond(c: CondModel | None, below: BelowModel | None = None) -> Cond:
    def idx(xs: tuple[str, ...] | None, names: Sequence[str]) -> frozenset[int] | None:
        return None if xs is None else frozenset(names.index(x) for x in xs)

    rel = {None: 0, "same": SAME, "different": DIFFERENT}
    return Cond(
        kinds=idx(c.kind, KINDS) if c else None,
        cols=idx(c.colour, COLOURS) if c else None,
        vals=frozenset(c.value) if c and c.value is not None else None,
        parity={None: 0, "even": EVEN, "odd": ODD}[c.parity if c else None],
        below_col=rel[below.colour if below else None],
        below_val=rel[below.value if below else None],
    )


def compile_mission(m: MissionModel, raw: Any) -> Mission:
    common: dict[str, Any] = {"id": m.id, "name": m.name, "text": m.text, "phase": PHASES.index(m.phase),
                              "source": canonical_json(raw)}
    if m.when is not None:
        common.update(event=EVENTS.index(m.when.event), n=m.when.n or 0, cond=_cond(m.when, m.when.below))
    if m.obligation is not None:
        o = m.obligation
        return Mission(kind="obligation", who_others=o.who == "others", gesture=o.do == "gesture",
                       token=o.token, arg=o.arg, **common)
    if m.effect is not None:
        return Mission(kind="effect", effect=m.effect.type, effect_n=m.effect.n or 0, **common)
    if m.restriction is not None:
        f = m.restriction.forbid
        return Mission(kind="restriction", forbid_card=_cond(f.card), forbid_onto=_cond(f.onto), **common)
    assert m.modifier is not None
    return Mission(kind="modifier", countdown_from=m.modifier.countdown_from, **common)


def error_field(loc: Sequence[int | str], prefix: str = "") -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def problem_text(err: Any) -> str:
    msg = str(err.get("msg", "invalid"))
    for lead in ("Value error, ", "Assertion failed, "):
        if msg.startswith(lead):
            msg = msg[len(lead):]
    if err.get("type") == "extra_forbidden":
        return "unknown key (not part of the mission language, I6)"
    if err.get("type") == "missing":
        return "required key is missing"
    return msg


def parse_mission(raw: Any, source: str, field: str) -> Mission:
    """Validate one mission object; ``field`` names it in errors (e.g. ``missions[3]``)."""
    if not isinstance(raw, dict):
        raise DataError(source, field, "a mission must be a JSON object")
    label = field + (f" ({raw['id']})" if isinstance(raw.get("id"), str) else "")
    try:
        model = MissionModel.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-union")))]
        raise DataError(source, error_field(loc, label), problem_text(err)) from None
    return compile_mission(model, raw)


def parse_missions(raw: Any, source: str, field: str = "missions") -> tuple[Mission, ...]:
    """Validate a list of missions: each one, then unique ids (I5)."""
    if not isinstance(raw, list):
        raise DataError(source, field, "must be a list of missions")
    if len(raw) > MAX_MISSIONS:
        raise DataError(source, field, f"{len(raw)} missions; a mission deck holds at most {MAX_MISSIONS}")
    out: list[Mission] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(raw):
        m = parse_mission(item, source, f"{field}[{i}]")
        if m.id in seen:
            raise DataError(source, f"{field}[{i}].id",
                            f"I5: duplicate mission id {m.id!r} (also {field}[{seen[m.id]}])")
        seen[m.id] = i
        out.append(m)
    return tuple(out)


ID_PATTERN = re.compile(f"^{MISSION_ID_RE}$")
