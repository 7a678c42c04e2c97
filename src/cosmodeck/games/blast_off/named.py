"""The named Blast Off! state core (``cosmodeck-state/2``): cards, missions, phases, colours by their names.

The engine keeps small integers (``codec``: card ids 0..N-1, mission indices, phase numbers); the JSON people
read and write names them instead (docs/state-formats.md):

- a physical card is its type and copy, ``R9#1`` (the first Red 9 of the data's deck order), ``W#3``, ``CD#1``,
  ``BO-G#1``; copies of one type are interchangeable in play, the copy number only keeps every card distinct;
- a mission is its id (``M10``; an authored mission ``C1``, ``C2``, ... in the order it was authored);
- a phase is ``TURN``, ``DRAWN``, ...; a colour ``ORANGE``, ``GREEN``, ``PURPLE``, ``RED`` or ``null``;
- a value is 1..10, ``"BLAST_OFF"`` or ``null`` (no value); a card kind ``PLANET``, ``BLAST_OFF``, ``WILD``,
  ``COUNTDOWN`` or ``null``.

``to_named`` writes it from the engine's core; ``from_named`` reads it back and refuses, with a
``StateFormatError`` naming the field, any value that is not a name (an integer where a card belongs, an
unknown mission). Everything else (counts, seats, times, schema, census) is the engine's own validation,
which then runs on the translated core exactly as it does for the integer format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, KINDS, NO_VALUE, TYPE_NAME
from cosmodeck.games.blast_off.phases import PHASE_NAMES

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.game import BlastOffGame

EVENTS = ("PLAYED", "DRAW", "SIZE")  # what a resolution in progress (``ctx.ev``) follows (mdl EV_*)


def card_names(ctype: tuple[int, ...]) -> tuple[str, ...]:
    """The name of every physical card id: its type's notation and its copy number among that type."""
    seen: dict[int, int] = {}
    out: list[str] = []
    for t in ctype:
        seen[t] = seen.get(t, 0) + 1
        out.append(f"{TYPE_NAME[t]}#{seen[t]}")
    return tuple(out)


# ---- engine -> names (trusted input) --------------------------------------------------------------------
def _colour(c: int) -> str | None:
    return None if c < 0 else COLOURS[c]


def _value(v: int) -> int | str | None:
    return None if v == NO_VALUE else ("BLAST_OFF" if v == BLAST_OFF else v)


def _kind(k: int) -> str | None:
    return None if k < 0 else KINDS[k]


def to_named(g: BlastOffGame, core: dict[str, Any]) -> dict[str, Any]:
    """The named core of an engine core (``codec.dump`` output); the engine core is not changed."""
    names = g.card_names
    mids = [m.id for m in g.missions] + [c[0] for c in core["customs"]]

    def cards(xs: list[int]) -> list[str]:
        return [names[x] for x in xs]

    def missions(xs: list[int]) -> list[str]:
        return [mids[x] for x in xs]

    out = dict(core)
    out["phase"] = PHASE_NAMES[core["phase"]]
    out["fcol"] = _colour(core["fcol"])
    out["fval"] = _value(core["fval"])
    out["drawn"] = None if core["drawn"] < 0 else names[core["drawn"]]
    for k in ("draw", "disc"):
        out[k] = cards(core[k])
    out["hands"] = [cards(h) for h in core["hands"]]
    out["known"] = [cards(k) for k in core["known"]]
    for k in ("mdeck", "mdisc", "inforce", "revealed"):
        out[k] = missions(core[k])
    out["wface"] = [[names[c], _colour(col), _value(val)] for c, col, val in core["wface"]]
    out["obls"] = [[s, mids[m], *rest] for s, m, *rest in core["obls"]]
    out["viols"] = [[s, mids[m], *rest] for s, m, *rest in core["viols"]]
    out["cd_seq"] = [_value(v) for v in core["cd_seq"]]
    out["cd_slots"] = [[_value(v), s] for v, s in core["cd_slots"]]
    ctx = core["ctx"]
    if ctx is not None:
        c = dict(ctx)
        c["ev"] = None if ctx["ev"] < 0 else EVENTS[ctx["ev"]]
        c["c"] = None if ctx["c"] < 0 else names[ctx["c"]]
        for k in ("k", "bk"):
            c[k] = _kind(ctx[k])
        for k in ("col", "bc"):
            c[k] = _colour(ctx[k])
        for k in ("val", "bv"):
            c[k] = _value(ctx[k])
        c["eff"] = None if ctx["eff"] is None else missions(ctx["eff"])
        out["ctx"] = c
    return out


# ---- names -> engine (untrusted input: strict) -------------------------------------------------------
def _name(x: Any, field: str, table: dict[str, int], what: str) -> int:
    if not isinstance(x, str):
        V.fail(field, f"must be {what} (a name such as the ones in docs/state-formats.md), not {V._kind(x)}")
    got = table.get(x)
    if got is None:
        V.fail(field, f"{x[:40]!r} is not {what} of this game", V.UNKNOWN)
    return got


def _or_none(x: Any, field: str, table: dict[str, int], what: str, none: int) -> int:
    return none if x is None else _name(x, field, table, what)


_COLOURS = {c: i for i, c in enumerate(COLOURS)}
_KINDS = {k: i for i, k in enumerate(KINDS)}
_PHASES = {p: i for i, p in enumerate(PHASE_NAMES)}
_EVENTS = {e: i for i, e in enumerate(EVENTS)}


def _value_in(x: Any, field: str) -> int:
    if x is None:
        return NO_VALUE
    if x == "BLAST_OFF" and isinstance(x, str):
        return BLAST_OFF
    if isinstance(x, bool) or not isinstance(x, int):
        V.fail(field, f"a value is 1..10, \"BLAST_OFF\" or null, not {V._kind(x)}")
    if not 1 <= x <= 10:
        V.fail(field, f"a value is 1..10, \"BLAST_OFF\" or null, not {x}", V.RANGE)
    return x


def _rows(x: Any, field: str, length: int | None = None) -> list[Any]:
    rows = V.seq(x, field)
    for i, r in enumerate(rows):
        V.seq(r, f"{field}[{i}]", length)
    return rows


def from_named(g: BlastOffGame, raw: Any) -> dict[str, Any]:
    """The engine core of a named core; ``StateFormatError`` for anything that is not a name where one belongs.

    A missing key stays missing (the engine's validation names it); only values are translated here.
    """
    if not isinstance(raw, dict):
        V.fail("core", "must be an object")
    core = dict(raw)
    cards_t = g.card_index
    mtable = {m.id: i for i, m in enumerate(g.missions)}
    customs = raw.get("customs")
    if isinstance(customs, list):
        for i, e in enumerate(customs):
            if isinstance(e, list) and e and isinstance(e[0], str):
                mtable.setdefault(e[0], len(g.missions) + i)

    def card(x: Any, f: str) -> int:
        return _name(x, f, cards_t, "a card")

    def mission(x: Any, f: str) -> int:
        return _name(x, f, mtable, "a mission")

    def each(key: str, conv: Callable[[Any, str], int]) -> None:
        if key in raw:
            core[key] = [conv(x, f"core.{key}[{i}]") for i, x in enumerate(V.seq(raw[key], f"core.{key}"))]

    def put(key: str, conv: Callable[[Any, str], Any]) -> None:
        if key in raw:
            core[key] = conv(raw[key], f"core.{key}")

    put("phase", lambda x, f: _name(x, f, _PHASES, "a phase"))
    put("fcol", lambda x, f: _or_none(x, f, _COLOURS, "a colour", -1))
    put("fval", _value_in)
    put("drawn", lambda x, f: _or_none(x, f, cards_t, "a card", -1))
    for k in ("draw", "disc"):
        each(k, card)
    for k in ("mdeck", "mdisc", "inforce", "revealed"):
        each(k, mission)
    each("cd_seq", _value_in)
    for k in ("hands", "known"):
        if k in raw:
            core[k] = [[card(x, f"core.{k}[{s}][{i}]") for i, x in enumerate(V.seq(h, f"core.{k}[{s}]"))]
                       for s, h in enumerate(V.seq(raw[k], f"core.{k}"))]
    if "wface" in raw:
        core["wface"] = [[card(c, f"core.wface[{i}][0]"),
                          _or_none(col, f"core.wface[{i}][1]", _COLOURS, "a colour", -1),
                          _value_in(val, f"core.wface[{i}][2]")]
                         for i, (c, col, val) in enumerate(_rows(raw["wface"], "core.wface", 3))]
    for k, length in (("obls", 5), ("viols", 6)):
        if k in raw:
            core[k] = [[r[0], mission(r[1], f"core.{k}[{i}][1]"), *r[2:]]
                       for i, r in enumerate(_rows(raw[k], f"core.{k}", length))]
    if "cd_slots" in raw:
        core["cd_slots"] = [[_value_in(v, f"core.cd_slots[{i}][0]"), s]
                            for i, (v, s) in enumerate(_rows(raw["cd_slots"], "core.cd_slots", 2))]
    ctx = raw.get("ctx")
    if isinstance(ctx, dict):
        c = dict(ctx)
        conv: dict[str, Callable[[Any, str], Any]] = {
            "ev": lambda x, f: _or_none(x, f, _EVENTS, "an event", -1),
            "c": lambda x, f: _or_none(x, f, cards_t, "a card", -1),
            "k": lambda x, f: _or_none(x, f, _KINDS, "a card kind", -1),
            "bk": lambda x, f: _or_none(x, f, _KINDS, "a card kind", -1),
            "col": lambda x, f: _or_none(x, f, _COLOURS, "a colour", -1),
            "bc": lambda x, f: _or_none(x, f, _COLOURS, "a colour", -1),
            "val": _value_in,
            "bv": _value_in,
            "eff": lambda x, f: None if x is None else [mission(m, f"{f}[{i}]") for i, m in enumerate(V.seq(x, f))],
        }
        for k, fn in conv.items():
            if k in ctx:
                c[k] = fn(ctx[k], f"core.ctx.{k}")
        core["ctx"] = c
    return core
