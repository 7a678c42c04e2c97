"""Parse and validate a Meteor card-data file (spec 6.9) with its invariants (6.10).

Errors are ``DataError(source, field, problem)``: the file, the field path (``rockets.3.cost``)
and the problem. A broken *sourced* invariant is an error; a broken *proposed* invariant is a
warning, kept in ``MeteorData.warnings`` (the engine does no logging). Every number is bounded by
what a table can hold (``ENGINE`` limits, always errors). Under lenient design mode
(``TextInput.lenient``) the sourced invariants that are design choices (card counts, scarcity,
retrofit coverage, the retrofit draw total) become warnings; docs/data-files.md lists them.

>>> from cosmodeck.engine.options import TextInput
>>> parse_data(TextInput("x.json", "{"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cosmodeck.engine.errors.DataError: [bad_data] x.json: (file): not valid JSON: ...
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cosmodeck.engine.options import TextInput
from cosmodeck.games.datafile import Checker, check_texts, load_json
from cosmodeck.games.meteor.cards import (
    ChartRow,
    Difficulty,
    EnergyType,
    MeteorCard,
    MeteorData,
    ResourceCard,
)

TRAITS = frozenset({"shielded", "fracturing", "fracturing_2", "brittle", "cracked", "burn_up", "volatile",
                    "evasive", "evasive_3", "stealth", "scorching", "ablating", "dense"})
TECH_EFFECTS = frozenset({"allow_talk", "reveal_all_meteors", "overkill_by_one_is_safe",
                          "retrofit_with_3_on_demand", "extra_draw_per_zone_change", "flip_active_timer_once"})
POWER_KEYS = frozenset({"radio_operator", "open_book", "quartermaster", "twin_pads", "spotter", "salvager",
                        "sharpshooter", "fuel_chemist", "solar_engineer", "mechanic", "demolition_expert",
                        "chronometrist", "courier"})
CHALLENGE_KEYS = frozenset({"radio_silence", "leaky_hold", "one_handed", "backwards", "short_rations",
                            "closed_site", "homebody", "stubborn", "light_payloads", "power_fault", "countdown"})
SOURCED_COUNTS = {"energy": 39, "rockets": 31, "technologies": 6, "standard_meteors": 26, "boss_meteors": 10,
                  "power_cards": 13, "challenge_cards": 11, "launch_sites": 5, "altitude_zones": 5}
ZONES = (5, 4, 3, 2, 1)
MAX_COST = 6  # cards in one cost: costs are matched by permutations (rules_sites.CostRules.fits)
MAX_SIZE = 30  # a meteor's size, and the high end of its back range
MAX_DEAL = 30  # cards dealt at once: a starting hand, a zone-change draw, a retrofit draw
MAX_RESOURCES = 400  # Resource cards in all
MIN_SITES = 5  # one Launch Site per player, up to 5 players


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EnergyModel(_M):
    key: str = Field(min_length=1)
    code: str = Field(pattern=r"^[A-Z]$")
    colour: str = Field(min_length=1)
    value: int = Field(ge=0, le=10)
    count: int = Field(ge=0, le=100)


class RocketModel(_M):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    damage: int = Field(ge=1, le=20)
    cost: str = Field(pattern=r"^[A-Z]+$", max_length=MAX_COST)
    copies: int = Field(ge=0, le=20)


class TechModel(_M):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    key: str = Field(min_length=1)
    cost: str = Field(pattern=r"^[A-Z]+$", max_length=MAX_COST)
    effect: str


class MeteorModel(_M):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    name: str = ""
    back: list[int] = Field(min_length=2, max_length=2)
    size: int | None = Field(default=None, ge=1, le=MAX_SIZE)
    size_by_zone: dict[str, int] | None = None
    trait: str | None = None


class ChartModel(_M):
    meteors: int = Field(ge=1)
    start_hand: int = Field(ge=0, le=MAX_DEAL)
    draw_per_change: int = Field(ge=0, le=MAX_DEAL)
    retrofit_split: list[int] = Field(max_length=5)


class DifficultyModel(_M):
    bosses: int = Field(ge=0, le=50)
    powers: int = Field(ge=0, le=1)
    challenges: int = Field(ge=0, le=1)


class ConstantsModel(_M):
    retrofit_cards: int = Field(ge=2, le=MAX_COST)
    retrofit_draw: int = Field(ge=0, le=MAX_DEAL)
    max_cost_cards: int = Field(ge=1, le=MAX_COST)


class FileModel(_M):
    format: Literal["cosmodeck-meteor-cards/1"]
    provenance: str = ""
    energy: list[EnergyModel] = Field(max_length=8)
    rockets: list[RocketModel] = Field(max_length=64)
    technologies: list[TechModel] = Field(max_length=16)
    meteor_traits: list[str] = Field(max_length=32)
    standard_meteors: list[MeteorModel] = Field(max_length=100)
    boss_meteors: list[MeteorModel] = Field(max_length=50)
    power_cards: dict[str, str]
    challenge_cards: dict[str, str]
    launch_sites: list[str] = Field(max_length=10)
    altitude_zones: dict[str, str]
    setup_chart: dict[str, ChartModel]
    difficulty: dict[str, DifficultyModel] = Field(max_length=10)
    constants: ConstantsModel
    default_options: dict[str, Any] | None = None
    # what players read, by key ("zone.5", "tech.T01", "tech.T01.text", "power.P04", "trait.dense", ...):
    # {"en": ..., "es": ...}; English required, other languages optional (a page falls back to English).
    # Checked by datafile.check_texts (known keys, languages, sizes); not part of the data hash.
    texts: Any = None


def _loc(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(file)"


def parse_data(data: TextInput) -> MeteorData:
    """Validate ``data`` (schema 6.9 + invariants 6.10) and build the card tables."""
    chk = Checker(data.source, data.lenient)
    raw = load_json(data)
    try:
        model = FileModel.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise chk.fail(_loc(tuple(err["loc"])), err["msg"]) from None
    return _build(model, chk)


def _unique(chk: Checker, field: str, ids: list[str]) -> None:
    dup = [i for i, n in Counter(ids).items() if n > 1]
    if dup:
        raise chk.fail(field, f"duplicate id {dup[0]!r}")


def _build(m: FileModel, chk: Checker) -> MeteorData:
    _check_counts(m, chk)
    letters = {e.code for e in m.energy}
    _unique(chk, "energy", [e.key for e in m.energy])
    _unique(chk, "energy", [e.code for e in m.energy])
    resources: dict[str, ResourceCard] = {}
    order: list[str] = []
    for e in m.energy:
        for k in range(1, e.count + 1):
            cid = f"{e.code}#{k}"
            resources[cid] = ResourceCard(cid, e.code, "energy", code=e.code, key=e.key)
            order.append(cid)
    _unique(chk, "rockets/technologies", [r.id for r in m.rockets] + [t.id for t in m.technologies]
            + [e.code for e in m.energy])
    value = {e.code: e.value for e in m.energy}
    costs: set[tuple[str, ...]] = set()
    for i, r in enumerate(m.rockets):
        cost = _cost(chk, f"rockets.{i}.cost", r.cost, letters)
        costs.add(cost)
        if sum(value[c] for c in cost) != r.damage:
            chk.warn(f"rockets.{i}.damage", f"{r.id}: damage {r.damage} is not the sum of its energy values")
        if len(cost) > m.constants.max_cost_cards:
            chk.warn(f"rockets.{i}.cost", f"{r.id}: more than {m.constants.max_cost_cards} energy cards")
        for k in range(1, r.copies + 1):
            cid = f"{r.id}#{k}"
            resources[cid] = ResourceCard(cid, r.id, "rocket", damage=r.damage, cost=cost)
            order.append(cid)
    for i, t in enumerate(m.technologies):
        cost = _cost(chk, f"technologies.{i}.cost", t.cost, letters)
        costs.add(cost)
        if t.effect not in TECH_EFFECTS:
            raise chk.fail(f"technologies.{i}.effect", f"unknown effect {t.effect!r}; known: {sorted(TECH_EFFECTS)}")
        if len(cost) > m.constants.max_cost_cards:
            chk.warn(f"technologies.{i}.cost", f"{t.id}: more than {m.constants.max_cost_cards} energy cards")
        cid = f"{t.id}#1"
        resources[cid] = ResourceCard(cid, t.id, "tech", cost=cost, key=t.key, effect=t.effect)
        order.append(cid)
    _unique(chk, "technologies", [t.effect for t in m.technologies])
    if sum(1 for t in m.technologies if t.key == "communications_satellite") != 1:
        chk.warn("technologies", "there should be exactly one communications_satellite")
    meteors = _meteors(m, chk)
    chart = _chart(m, chk)
    zones = _zones(m, chk)
    difficulty = {name: Difficulty(d.bosses, d.powers, d.challenges) for name, d in m.difficulty.items()}
    for name, d in difficulty.items():
        if d.bosses > len(m.boss_meteors):
            raise chk.fail(f"difficulty.{name}.bosses", f"{d.bosses} bosses, but the data has {len(m.boss_meteors)}")
        if d.powers * 5 > len(m.power_cards) or d.challenges * 5 > len(m.challenge_cards):
            raise chk.fail(f"difficulty.{name}", "not enough Power or Challenge cards for 5 players")
    for group, keys, known in (("power_cards", m.power_cards, POWER_KEYS),
                               ("challenge_cards", m.challenge_cards, CHALLENGE_KEYS)):
        for cid, key in keys.items():
            if key not in known:
                raise chk.fail(f"{group}.{cid}", f"unknown {group[:-6]} {key!r}; known: {sorted(known)}")
        _unique(chk, group, list(keys.values()))
    if not m.difficulty:
        raise chk.fail("difficulty", "at least one difficulty level is needed")
    return MeteorData(
        energy=tuple(EnergyType(e.key, e.code, e.colour, e.value, e.count) for e in m.energy),
        resources=resources,
        resource_order=tuple(order),
        meteors=meteors,
        standard_ids=tuple(x.id for x in m.standard_meteors),
        boss_ids=tuple(x.id for x in m.boss_meteors),
        powers=dict(m.power_cards),
        challenges=dict(m.challenge_cards),
        sites=tuple(m.launch_sites),
        zones=zones,
        chart=chart,
        difficulty=difficulty,
        retrofit_cards=m.constants.retrofit_cards,
        retrofit_draw=m.constants.retrofit_draw,
        costs=tuple(sorted(costs)),
        energy_by_key={e.key: e.code for e in m.energy},
        warnings=tuple(chk.warnings),
        default_options=m.default_options,
        texts=_texts(m, chk),
    )


PROJECT_TYPES = ("tech", "rocket", "retrofit", "open", "dead")


def _texts(m: FileModel, chk: Checker) -> dict[str, dict[str, str]]:
    """The texts section: every key names a card, zone, site or trait of this file."""
    named: dict[str, set[str]] = {
        "zone": set(m.altitude_zones), "energy": {e.key for e in m.energy}, "project": set(PROJECT_TYPES),
        "tech": {t.id for t in m.technologies}, "trait": set(m.meteor_traits), "power": set(m.power_cards),
        "challenge": set(m.challenge_cards), "site": {str(i) for i in range(len(m.launch_sites))},
        "boss": {b.id for b in m.boss_meteors},
    }
    with_text = ("tech", "trait", "power", "challenge")  # these also have a card text: "tech.T01.text"

    def known(key: str) -> str | None:
        kind, _, rest = key.partition(".")
        ident, _, suffix = rest.partition(".")
        if kind not in named:
            return f"unknown kind of text {kind!r}; a key is KIND.ID with KIND one of {', '.join(named)}"
        if ident not in named[kind]:
            return f"no {kind} {ident!r} in this file; known: {', '.join(sorted(named[kind]))}"
        if suffix and not (suffix == "text" and kind in with_text):
            return (f"{kind}.ID takes only the suffix '.text'" if kind in with_text
                    else f"a {kind} has only a name ({kind}.{ident})")
        return None

    return check_texts(chk, m.texts, known)


def _cost(chk: Checker, field: str, text: str, letters: set[str]) -> tuple[str, ...]:
    for ch in text:
        if ch not in letters:
            raise chk.fail(field, f"unknown energy letter {ch!r}; known: {''.join(sorted(letters))}")
    return tuple(sorted(text))


def _check_counts(m: FileModel, chk: Checker) -> None:
    counts = {
        "energy": sum(e.count for e in m.energy), "rockets": sum(r.copies for r in m.rockets),
        "technologies": len(m.technologies), "standard_meteors": len(m.standard_meteors),
        "boss_meteors": len(m.boss_meteors), "power_cards": len(m.power_cards),
        "challenge_cards": len(m.challenge_cards), "launch_sites": len(m.launch_sites),
        "altitude_zones": len(m.altitude_zones),
    }
    # engine needs (always errors): a table the engine can deal from, a site per player
    total = counts["energy"] + counts["rockets"] + counts["technologies"]
    if total > MAX_RESOURCES:
        raise chk.fail("energy/rockets/technologies", f"{total} Resource cards; at most {MAX_RESOURCES}")
    if counts["launch_sites"] < MIN_SITES:
        raise chk.fail("launch_sites", f"{counts['launch_sites']} sites; one per player needs {MIN_SITES}")
    # design choices (errors, or warnings in lenient mode)
    for field, want in SOURCED_COUNTS.items():
        if counts[field] != want:
            chk.design(field, f"MET-1.1 needs {want} cards, the file has {counts[field]}")
    by_colour = {e.colour: e.count for e in m.energy}
    for scarce in ("green", "blue"):
        for common in ("red", "yellow"):
            if scarce in by_colour and common in by_colour and by_colour[scarce] >= by_colour[common]:
                chk.design("energy", f"MET-1.2: {scarce} must be scarcer than {common}")
    for i, e in enumerate(m.energy):
        if e.count < m.constants.retrofit_cards:
            chk.design(f"energy.{i}.count", f"each colour needs at least {m.constants.retrofit_cards} cards")
    per_damage: Counter[int] = Counter()
    for r in m.rockets:
        per_damage[r.damage] += r.copies
    for d in range(1, 6):
        if per_damage[d] < m.constants.retrofit_cards:
            chk.design("rockets", f"damage {d} has {per_damage[d]} copies; every damage 1-5 needs at least "
                                  f"{m.constants.retrofit_cards} for the retrofit patterns")


def _meteors(m: FileModel, chk: Checker) -> dict[str, MeteorCard]:
    traits = set(m.meteor_traits)
    for i, t in enumerate(m.meteor_traits):
        if t not in TRAITS:
            raise chk.fail(f"meteor_traits.{i}", f"unknown trait {t!r}; known: {sorted(TRAITS)}")
    _unique(chk, "meteors", [x.id for x in m.standard_meteors + m.boss_meteors])
    out: dict[str, MeteorCard] = {}
    for group, kind in (("standard_meteors", "standard"), ("boss_meteors", "boss")):
        for i, x in enumerate(getattr(m, group)):
            f = f"{group}.{i}"
            lo, hi = x.back
            if not 1 <= lo <= hi <= MAX_SIZE:
                raise chk.fail(f"{f}.back", f"bad size range {list(x.back)}: needs 1 <= low <= high <= {MAX_SIZE}")
            if (x.size is None) == (x.size_by_zone is None):
                raise chk.fail(f, "give exactly one of 'size' and 'size_by_zone'")
            by_zone: dict[int, int] | None = None
            if x.size_by_zone is not None:
                if sorted(x.size_by_zone) != ["1", "2", "3", "4", "5"]:
                    raise chk.fail(f"{f}.size_by_zone", "needs the zones 1-5")
                by_zone = {int(z): s for z, s in x.size_by_zone.items()}
            # the back is printed: bots and the RL encoder plan from it, so the size must lie inside
            for where, size in ([(f"{f}.size", x.size)] if x.size is not None else
                                [(f"{f}.size_by_zone.{z}", v) for z, v in sorted((by_zone or {}).items())]):
                if not lo <= size <= hi:
                    raise chk.fail(where, f"size {size} is outside the back's range {lo}-{hi}")
            if x.trait is not None and x.trait not in traits:
                raise chk.fail(f"{f}.trait", f"{x.trait!r} is not in meteor_traits")
            if (x.trait == "ablating") != (by_zone is not None):
                raise chk.fail(f, "size_by_zone goes with the ablating trait, and only with it")
            card = MeteorCard(x.id, "standard" if kind == "standard" else "boss", (lo, hi), x.size, by_zone,
                              x.trait, x.name)
            if kind == "boss" and min(card.size_in(z) for z in ZONES) < 6:
                chk.warn(f, f"boss {x.id} has a size below 6")
            out[x.id] = card
    return out


def _chart(m: FileModel, chk: Checker) -> dict[int, ChartRow]:
    if sorted(m.setup_chart) != ["1", "2", "3", "4", "5"]:
        raise chk.fail("setup_chart", "needs one row for each player count 1-5")
    out: dict[int, ChartRow] = {}
    for key, row in m.setup_chart.items():
        n = int(key)
        f = f"setup_chart.{key}"
        if len(row.retrofit_split) != n:
            raise chk.fail(f"{f}.retrofit_split", f"needs one entry per player ({n}) (MET-9.2.3)")
        if not all(0 <= k <= MAX_DEAL for k in row.retrofit_split):
            raise chk.fail(f"{f}.retrofit_split", f"entries must be between 0 and {MAX_DEAL}")
        if sum(row.retrofit_split) != m.constants.retrofit_draw:
            chk.design(f"{f}.retrofit_split", f"the entries should sum to {m.constants.retrofit_draw} (MET-9.2.3)")
        if row.meteors > len(m.standard_meteors):
            raise chk.fail(f"{f}.meteors", f"more than the {len(m.standard_meteors)} standard meteors")
        out[n] = ChartRow(row.meteors, row.start_hand, row.draw_per_change, tuple(row.retrofit_split))
    return out


def _zones(m: FileModel, chk: Checker) -> dict[int, str]:
    if sorted(m.altitude_zones) != ["1", "2", "3", "4", "5"]:
        raise chk.fail("altitude_zones", "needs the zones 1-5")
    return {int(k): v for k, v in m.altitude_zones.items()}
