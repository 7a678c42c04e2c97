"""Card and layout data: pydantic schema of the §6 JSON block plus invariants I1..I7 (SHS-0.1).

``parse(text_input)`` returns an immutable :class:`ShsData` or raises
``DataError(source, field, problem)`` naming the file, the field (``planets[3].kind``) and the problem.
Every number is bounded by what a table can hold (hit offsets inside the largest grid). Under
lenient design mode (``TextInput.lenient``) two invariants that are design choices become warnings in
``ShsData.warnings``: the priorities 1-8 once each (I3) and 15 missions, 5 of each value (I4); what
the engine needs (card counts, one Shield, 5 missions of every value for 5 players, grids) stays an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cosmodeck.engine.errors import DataError, OptionError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.datafile import Checker, check_text
from cosmodeck.games.shooting_star.cards import (
    KIND_12,
    KIND_34,
    KIND_DARK,
    NEIGHBOURS,
    ORIENTATIONS,
    CardType,
    Cell,
    Faction,
    Mission,
    Planet,
    rotate,
)
from cosmodeck.games.shooting_star.options import OPTION_TABLE

SCHEMA = "cosmodeck/shooting-star-data/1"
NEED_KEYS = ("planets", KIND_12, KIND_34, "moon")
PLAYER_COUNTS = (2, 3, 4, 5)
MAX_G = 30
MAX_PLAYERS = 5


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlanetModel(_Model):
    id: str = Field(min_length=1, pattern=r"^[^\s:,]+$")
    kind: Literal["12", "34", "dark"]
    name: str | None = None
    moons: int = Field(ge=0, le=9)


class CardModel(_Model):
    id: str = Field(min_length=1, pattern=r"^[^\s:,]+$")
    priority: int | None = Field(ge=1, le=99)
    shield: bool = False
    hits: list[tuple[int, int]] = Field(max_length=MAX_G)


class FactionModel(_Model):
    id: str = Field(min_length=1, pattern=r"^[^\s:,]+$")
    name: str
    colour: str
    proposed: bool = False


class MissionModel(_Model):
    id: str = Field(min_length=1)
    points: int = Field(ge=0, le=100)
    need: dict[str, int] | None = None
    named: list[str] | None = Field(default=None, max_length=15)
    score_by_found: list[int] | None = None
    # what players read, {"en": ..., "es": ...}: English required, other languages optional
    name: dict[str, str] | None = Field(default=None, max_length=20)
    text: dict[str, str] | None = Field(default=None, max_length=20)


class SetupModel(_Model):
    set_aside_names: int = Field(ge=0, le=MAX_G)
    set_aside_dark: int = Field(ge=0, le=4)
    custom_planets_per_player: int = Field(ge=1, le=MAX_G)


class RulesModel(_Model):
    hand_size: int = Field(ge=1, le=MAX_G)
    max_cards_played: int = Field(ge=1, le=MAX_G)
    debris_bonus: int = Field(ge=0, le=100)


class DataModel(_Model):
    schema_: Literal["cosmodeck/shooting-star-data/1"] = Field(alias="schema")
    proposed: list[str] = []
    grids: dict[str, list[str]] = Field(max_length=4)
    setup: SetupModel
    rules: RulesModel
    shared_planet: str
    default_options: dict[str, Any] = {}
    planets: list[PlanetModel] = Field(max_length=100)
    destruction_set: list[CardModel] = Field(max_length=20)
    factions: list[FactionModel] = Field(max_length=20)
    missions: list[MissionModel] = Field(max_length=60)


@dataclass(frozen=True, slots=True)
class ShsData:
    """Validated, immutable game data with lookups precomputed for speed."""

    source: str
    planets: Mapping[str, Planet]
    planet_order: tuple[str, ...]
    names: tuple[str, ...]  # distinct 3/4 names, in data order
    copies: Mapping[str, tuple[str, ...]]  # planet ids per name
    darks: tuple[str, ...]
    shared_planet: str
    cards: Mapping[str, CardType]
    card_order: tuple[str, ...]
    card_index: Mapping[str, int]
    factions: tuple[Faction, ...]
    faction_by_id: Mapping[str, Faction]
    missions: Mapping[str, Mission]
    mission_values: tuple[int, ...]  # distinct point values, ascending
    grids: Mapping[int, tuple[Cell, ...]]  # row-major cells per player count
    set_aside_names: int
    set_aside_dark: int
    custom_planets_per_player: int
    hand_size: int
    max_cards_played: int
    debris_bonus: int
    default_options: Mapping[str, Any]
    # lookups of the setup (``rules_setup``), made once: each planet's faces, the Dark Planets as a set, the
    # names that may join the shared planet among the set-aside ones, and the missions of each point value
    # (ascending, as ``mission_values``) sorted by id
    faces: Mapping[str, tuple[int, ...]]
    dark_set: frozenset[str]
    set_aside_others: tuple[str, ...]
    mission_stacks: tuple[tuple[str, ...], ...]
    warnings: tuple[str, ...] = ()


def _field(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def parse(data: TextInput) -> ShsData:
    """Parse and validate ``data``; raise ``DataError`` on the first problem."""
    src = data.source
    check_text(src, data.text)
    try:
        model = DataModel.model_validate_json(data.text)
    except ValidationError as e:
        err = e.errors()[0]
        if err["type"] == "json_invalid":
            raise DataError(src, "(file)", f"not valid JSON: {err['msg']}") from None
        loc = tuple("schema" if p == "schema_" else p for p in err["loc"])
        raise DataError(src, _field(loc), err["msg"]) from None
    return _build(Checker(src, data.lenient), model)


def _fail(src: str, field: str, problem: str) -> DataError:
    return DataError(src, field, problem)


def _build(chk: Checker, m: DataModel) -> ShsData:
    src = chk.source
    planets = _planets(src, m)
    names = tuple(dict.fromkeys(p.name for p in planets.values() if p.name is not None))
    _names(src, m, names)
    grids = _grids(src, m)
    cards = _cards(chk, m, grids)
    missions = _missions(chk, m)
    factions = _factions(src, m)
    if m.rules.hand_size != len(cards):
        raise _fail(src, "rules.hand_size", f"must equal the Destruction set size {len(cards)}")
    if m.rules.max_cards_played > m.rules.hand_size:
        raise _fail(src, "rules.max_cards_played", "cannot exceed rules.hand_size")
    _default_options(src, m.default_options)
    order = tuple(c.id for c in m.destruction_set)
    return ShsData(
        source=src,
        planets=MappingProxyType(planets),
        planet_order=tuple(planets),
        names=names,
        copies=MappingProxyType({n: tuple(p.id for p in planets.values() if p.name == n) for n in names}),
        darks=tuple(p.id for p in planets.values() if p.kind == KIND_DARK),
        shared_planet=m.shared_planet,
        cards=MappingProxyType(cards),
        card_order=order,
        card_index=MappingProxyType({c: i for i, c in enumerate(order)}),
        factions=factions,
        faction_by_id=MappingProxyType({f.id: f for f in factions}),
        missions=MappingProxyType(missions),
        mission_values=tuple(sorted({x.points for x in missions.values()})),
        grids=MappingProxyType(grids),
        set_aside_names=m.setup.set_aside_names,
        set_aside_dark=m.setup.set_aside_dark,
        custom_planets_per_player=m.setup.custom_planets_per_player,
        hand_size=m.rules.hand_size,
        max_cards_played=m.rules.max_cards_played,
        debris_bonus=m.rules.debris_bonus,
        default_options=MappingProxyType(dict(m.default_options)),
        faces=MappingProxyType({p.id: p.faces for p in planets.values()}),
        dark_set=frozenset(p.id for p in planets.values() if p.kind == KIND_DARK),
        set_aside_others=tuple(n for n in names if n != m.shared_planet),
        mission_stacks=tuple(tuple(sorted(x.id for x in missions.values() if x.points == v))
                             for v in sorted({x.points for x in missions.values()})),
        warnings=tuple(chk.warnings),
    )


def _planets(src: str, m: DataModel) -> dict[str, Planet]:
    """I1: 49 = 30 "12" + 15 "34" + 4 "dark"; unique ids; names exactly on "34" cards."""
    out: dict[str, Planet] = {}
    for i, p in enumerate(m.planets):
        if p.id in out:
            raise _fail(src, f"planets[{i}].id", f"duplicate planet id {p.id!r} (I1)")
        if p.kind == KIND_34 and not p.name:
            raise _fail(src, f"planets[{i}].name", "a 3/4 planet must have a name (I1)")
        if p.kind != KIND_34 and p.name is not None:
            raise _fail(src, f"planets[{i}].name", f"only 3/4 planets have names, this is kind {p.kind!r} (I1)")
        out[p.id] = Planet(p.id, p.kind, p.name, p.moons)
    want = {KIND_12: 30, KIND_34: 15, KIND_DARK: 4}
    for kind, n in want.items():
        got = sum(1 for p in out.values() if p.kind == kind)
        if got != n:
            raise _fail(src, "planets", f"needs {n} planets of kind {kind!r}, found {got} (I1)")
    return out


def _names(src: str, m: DataModel, names: tuple[str, ...]) -> None:
    """I2: enough distinct names; the shared planet and mission names exist."""
    if len(names) < m.setup.set_aside_names:
        raise _fail(src, "planets", f"needs at least {m.setup.set_aside_names} distinct 3/4 names, "
                    f"found {len(names)} (I2)")
    if m.shared_planet not in names:
        raise _fail(src, "shared_planet", f"{m.shared_planet!r} is not the name of any 3/4 planet (I2)")
    for i, mi in enumerate(m.missions):
        for j, name in enumerate(mi.named or ()):
            if name not in names:
                raise _fail(src, f"missions[{i}].named[{j}]", f"{name!r} is not the name of any 3/4 planet (I2)")


def _cards(chk: Checker, m: DataModel, grids: Mapping[int, tuple[Cell, ...]]) -> dict[str, CardType]:
    """I3: one card per priority 1..8 plus one Shield; only P7 hits (0,0), the only repeat; hits on a grid."""
    src = chk.source
    reach = max(max(x for x, _ in cells) + 1 for cells in grids.values())
    reach = max(reach, *(max(y for _, y in cells) + 1 for cells in grids.values())) - 1
    out: dict[str, CardType] = {}
    for i, c in enumerate(m.destruction_set):
        f = f"destruction_set[{i}]"
        if c.id in out:
            raise _fail(src, f"{f}.id", f"duplicate card id {c.id!r} (I3)")
        if c.shield and c.priority is not None:
            raise _fail(src, f"{f}.priority", "a Space Shield has no priority (I3)")
        if c.shield and c.hits:
            raise _fail(src, f"{f}.hits", "a Space Shield hits nothing (I3)")
        if not c.shield and c.priority is None:
            raise _fail(src, f"{f}.priority", "a card that is not a Shield needs a priority (I3)")
        if not c.shield and not c.hits:
            raise _fail(src, f"{f}.hits", "a card that is not a Shield must hit something (I3)")
        hits = tuple((int(dx), int(dy)) for dx, dy in c.hits)
        far = [h for h in hits if max(abs(h[0]), abs(h[1])) > reach]
        if far:
            raise _fail(src, f"{f}.hits", f"offset {list(far[0])} lies outside every grid (at most {reach} cells "
                                          "away in each direction)")
        if (0, 0) in hits and c.priority != 7:
            raise _fail(src, f"{f}.hits", "only priority 7 may hit its own cell (0,0) (I3)")
        repeats = {h for h in hits if hits.count(h) > 1}
        if repeats - {(0, 0)}:
            raise _fail(src, f"{f}.hits", f"offsets other than (0,0) repeat: {sorted(repeats)} (I3)")
        rotated = MappingProxyType({a: tuple(rotate(h, a) for h in hits) for a in ORIENTATIONS})
        out[c.id] = CardType(c.id, c.priority, c.shield, hits, rotated)
    prios = sorted(c.priority for c in out.values() if c.priority is not None)
    if prios != list(range(1, 9)):  # a design choice: resolution orders ties by placement (SHS-6.2)
        chk.design("destruction_set", f"needs priorities 1-8 once each, found {prios} (I3)")
    if sum(1 for c in out.values() if c.shield) != 1 or len(out) != 9:
        raise _fail(src, "destruction_set", "needs exactly 9 cards: priorities 1-8 and one Shield (I3)")
    return out


def _missions(chk: Checker, m: DataModel) -> dict[str, Mission]:
    """I4: 15 missions, 5 of each value 1, 2 and 3 (a design choice); every value dealt to 5 players."""
    src = chk.source
    out: dict[str, Mission] = {}
    for i, mi in enumerate(m.missions):
        f = f"missions[{i}]"
        if mi.id in out:
            raise _fail(src, f"{f}.id", f"duplicate mission id {mi.id!r} (I4)")
        if (mi.need is None) == (mi.named is None):
            raise _fail(src, f, "a mission needs exactly one of 'need' or 'named'")
        for k, v in (mi.need or {}).items():
            if k not in NEED_KEYS:
                raise _fail(src, f"{f}.need.{k}", f"unknown requirement; known: {', '.join(NEED_KEYS)}")
            if not 1 <= v <= 100:
                raise _fail(src, f"{f}.need.{k}", "a threshold must be between 1 and 100")
        named = tuple(mi.named or ())
        sbf = tuple(mi.score_by_found or ())
        if mi.named is not None and len(sbf) != len(named) + 1:
            raise _fail(src, f"{f}.score_by_found", f"needs {len(named) + 1} entries (0..{len(named)} found)")
        if mi.named is None and mi.score_by_found is not None:
            raise _fail(src, f"{f}.score_by_found", "only missions with 'named' have score_by_found")
        if any(not -100 <= x <= 100 for x in sbf):
            raise _fail(src, f"{f}.score_by_found", "scores must be between -100 and 100")
        for key, words in (("name", mi.name), ("text", mi.text)):
            if words is not None and not words.get("en", "").strip():
                raise _fail(src, f"{f}.{key}", "needs an English text under 'en' (other languages are optional)")
            if words is not None and any(len(x) > 500 or len(lang) > 10 for lang, x in words.items()):
                raise _fail(src, f"{f}.{key}", "language codes up to 10 characters, texts up to 500")
        out[mi.id] = Mission(mi.id, mi.points, MappingProxyType(dict(mi.need or {})), named, sbf,
                             MappingProxyType(dict(mi.name or {})), MappingProxyType(dict(mi.text or {})))
    for v in sorted({x.points for x in out.values()}):  # SHS-3.7: each player gets one mission of each value
        n = sum(1 for x in out.values() if x.points == v)
        if n < MAX_PLAYERS:
            raise _fail(src, "missions",
                        f"only {n} missions worth {v}; {MAX_PLAYERS} players need one each (SHS-3.7, I4)")
    for v in (1, 2, 3):
        n = sum(1 for x in out.values() if x.points == v)
        if n != 5:
            chk.design("missions", f"needs 5 missions worth {v}, found {n} (I4)")
    if len(out) != 15:
        chk.design("missions", f"needs 15 missions, found {len(out)} (I4)")
    return out


def _factions(src: str, m: DataModel) -> tuple[Faction, ...]:
    """I7: at least 5 factions with distinct ids and colours."""
    if len(m.factions) < 5:
        raise _fail(src, "factions", f"needs at least 5 factions, found {len(m.factions)} (I7)")
    seen_ids: set[str] = set()
    seen_colours: set[str] = set()
    for i, fa in enumerate(m.factions):
        if fa.id in seen_ids:
            raise _fail(src, f"factions[{i}].id", f"duplicate faction id {fa.id!r} (I7)")
        if fa.colour in seen_colours:
            raise _fail(src, f"factions[{i}].colour", f"colour {fa.colour!r} is used twice (I7)")
        seen_ids.add(fa.id)
        seen_colours.add(fa.colour)
    return tuple(Faction(f.id, f.name, f.colour, f.proposed) for f in m.factions)


def _grids(src: str, m: DataModel) -> dict[int, tuple[Cell, ...]]:
    """I5 and I6: a grid per N = 2..5 with N < G, 7 <= G <= 30, room for 4 apart Dark Planets."""
    out: dict[int, tuple[Cell, ...]] = {}
    need = m.setup.set_aside_names + m.setup.set_aside_dark
    for key in m.grids:
        if key not in {str(n) for n in PLAYER_COUNTS}:
            raise _fail(src, f"grids.{key}", "grid keys are player counts 2..5 (I5)")
    for n in PLAYER_COUNTS:
        rows = m.grids.get(str(n))
        if rows is None:
            raise _fail(src, f"grids.{n}", f"no grid for {n} players (I5)")
        if len(rows) > MAX_G or any(len(row) > MAX_G for row in rows):
            raise _fail(src, f"grids.{n}", f"a grid is at most {MAX_G} rows of {MAX_G} cells (I5)")
        cells: list[Cell] = []
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch == "#":
                    cells.append((x, y))
                elif ch != ".":
                    raise _fail(src, f"grids.{n}[{y}]", f"unexpected {ch!r}: use '#' for a cell, '.' for none")
        g = len(cells)
        if not (n < g and max(7, need) <= g <= MAX_G):
            raise _fail(src, f"grids.{n}", f"has {g} cells; needs more than {n} and {max(7, need)}..{MAX_G} (I5)")
        if not has_apart_cells(frozenset(cells), 4):
            raise _fail(src, f"grids.{n}", "has no 4 pairwise non-adjacent cells for the Dark Planets (I6)")
        out[n] = tuple(cells)
        per = m.setup.custom_planets_per_player * n
        if not max(7, need) <= per <= MAX_G:
            raise _fail(src, "setup.custom_planets_per_player",
                        f"{per} planets for {n} players; needs {max(7, need)}..{MAX_G} (I5)")
    return out


def has_apart_cells(cells: frozenset[Cell], k: int) -> bool:
    """Whether ``cells`` holds ``k`` pairwise non-adjacent cells (small backtracking search)."""
    order = sorted(cells, key=lambda c: (c[1], c[0]))

    def search(start: int, chosen: list[Cell]) -> bool:
        if len(chosen) == k:
            return True
        for i in range(start, len(order)):
            c = order[i]
            if all(abs(c[0] - d[0]) + abs(c[1] - d[1]) != 1 for d in chosen):
                chosen.append(c)
                if search(i + 1, chosen):
                    return True
                chosen.pop()
        return False

    return search(0, [])


def _default_options(src: str, opts: Mapping[str, Any]) -> None:
    for key, value in opts.items():
        spec = OPTION_TABLE.get(key)
        if spec is None:
            raise _fail(src, f"default_options.{key}", f"unknown option; known: {', '.join(sorted(OPTION_TABLE))}")
        try:
            spec.validate(value)
        except OptionError as e:
            raise _fail(src, f"default_options.{key}", e.message) from None


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    x, y = cell
    return tuple((x + dx, y + dy) for dx, dy in NEIGHBOURS)
