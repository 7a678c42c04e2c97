"""Launch sites and projects: MET-8 to MET-10, rulings R1-R6.

A site's cards decide its project (R1). Completion is automatic on the placement that
completes it (R2); a project that no further cards could complete is ``dead``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event
from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.cards import ResourceCard

if TYPE_CHECKING:
    from cosmodeck.games.meteor.cards import MeteorData
    from cosmodeck.games.meteor.state import MeteorState

# Project statuses (R1), as shown in views.
EMPTY, OPEN, ROCKET, TECH, RETROFIT, BUILT, DEAD = "empty", "open", "rocket", "tech", "rocket_retrofit", "built", "dead"


class CostRules:
    """Which energy may pay which cost letter on one site (Fuel Chemist, Solar Engineer)."""

    __slots__ = ("canon", "completion", "fa", "solar", "status")

    def __init__(self, fa: frozenset[str], solar: str, canon: dict[str, str] | None = None) -> None:
        self.fa = fa  # letters interchangeable in costs (Fuel Chemist), else empty
        self.solar = solar  # the Solar letter that may once be any type (Solar Engineer), else ""
        # each Resource card id of the data -> the first id of its data with the same kind, code, damage and cost
        # (what a project's status and completion read of a card: see ``classify``)
        self.canon: dict[str, str] = canon or {}
        # a project's status and completion under these rules by its cards' canonical ids (``classify``)
        self.status: dict[tuple[str, ...], str] = {}
        self.completion: dict[tuple[str, ...], str] = {}

    def fits(self, energy: list[str], cost: tuple[str, ...], exact: bool) -> bool:
        """Can ``energy`` pay part of ``cost`` (or all of it, exactly, if ``exact``)?"""
        if len(energy) > len(cost) or (exact and len(energy) != len(cost)):
            return False
        if Counter(energy) <= Counter(cost):
            return True
        if not self.fa and not self.solar:
            return False
        for slots in permutations(range(len(cost)), len(energy)):
            wild = 0
            for e, i in zip(energy, slots, strict=True):
                c = cost[i]
                if e == c or (e in self.fa and c in self.fa):
                    continue
                if e == self.solar and wild == 0:
                    wild = 1
                    continue
                break
            else:
                return True
        return False


def cost_rules(st: MeteorState, controller: int) -> CostRules:
    """The cost rules of the sites ``controller`` controls: its Power (Fuel Chemist, Solar Engineer) read anew at
    each call, the rules themselves made once per data object (``_rules_of``; a Power is one card, so at most one
    of the two applies)."""
    data = st.data
    rules = _rules_of(data)
    pid = st.powers[controller]
    if pid is None:
        return rules[0]
    key = data.powers[pid]
    return rules[2] if key == "fuel_chemist" else rules[1] if key == "solar_engineer" else rules[0]


_RULES: dict[int, tuple[MeteorData, tuple[CostRules, CostRules, CostRules]]] = {}


def _rules_of(data: MeteorData) -> tuple[CostRules, CostRules, CostRules]:
    """(no Power, Solar Engineer, Fuel Chemist) cost rules of ``data``, kept by the data object's identity (the
    object kept with them, so its id is never reused while they are; at most 64 data objects, then afresh)."""
    got = _RULES.get(id(data))
    if got is None or got[0] is not data:
        fa = frozenset({data.code_of("fuel"), data.code_of("atomic")}) - {""}
        first: dict[tuple[str, str, int, tuple[str, ...]], str] = {}
        canon = {cid: first.setdefault((c.kind, c.code, c.damage, c.cost), cid) for cid, c in data.resources.items()}
        rules = (CostRules(frozenset(), "", canon), CostRules(frozenset(), data.code_of("solar"), canon),
                 CostRules(fa, "", canon))
        if len(_RULES) >= 64:
            _RULES.clear()
        got = _RULES[id(data)] = (data, rules)
    return got[1]


def energy_pattern(codes: list[str], n: int) -> bool:
    """``codes`` can grow into (or, at ``n`` cards, is) an energy retrofit: all one type or all different."""
    return len(codes) <= n and (len(set(codes)) <= 1 or len(set(codes)) == len(codes))


def rocket_pattern(damages: list[int], n: int) -> bool:
    """Rocket retrofit pattern (MET-9.2.5): the same damage, or all different damages."""
    return len(damages) <= n and (len(set(damages)) <= 1 or len(set(damages)) == len(damages))


def split(cards: list[ResourceCard]) -> tuple[list[ResourceCard], list[ResourceCard], list[ResourceCard]]:
    return ([c for c in cards if c.is_energy], [c for c in cards if c.is_rocket], [c for c in cards if c.is_tech])


def classify_reference(st: MeteorState, site: Site) -> str:
    """The project on ``site`` (R1), or ``built`` / ``dead`` / ``empty`` (the definition ``classify`` keeps)."""
    if st.built[site.seat][site.slot]:
        return BUILT
    ids = st.sites[site.seat][site.slot]
    if not ids:
        return EMPTY
    energy, rockets, techs = split([st.data.resources[i] for i in ids])
    codes = [c.code for c in energy]
    rules = cost_rules(st, site.seat)
    n = st.data.retrofit_cards
    if techs:
        if len(techs) > 1 or rockets:
            return DEAD
        return TECH if rules.fits(codes, techs[0].cost, exact=False) else DEAD
    if len(rockets) == 1:
        return ROCKET if rules.fits(codes, rockets[0].cost, exact=False) else DEAD
    if rockets:
        ok = not energy and len(rockets) < n and rocket_pattern([r.damage for r in rockets], n)
        return RETROFIT if ok else DEAD
    if len(codes) < n and energy_pattern(codes, n):
        return OPEN
    if any(rules.fits(codes, cost, exact=False) for cost in st.data.costs):
        return OPEN
    return DEAD


# A site's project status and completion (issue 15) read only its cards, in order (of each card: its kind, code,
# damage and cost), and its controller's cost rules (``cost_rules``: one object per data object and Power, which
# also fixes the cards' data, the costs and the retrofit size), so they are kept by the rules object and each
# card's canonical id: copies and cards alike in those four fields share an entry. The tables are the rules
# object's (``CostRules.status`` and ``.completion``: two data objects never share a rules object, and its tables
# go with it); emptied when large.
_CACHE_MAX = 20_000


def classify(st: MeteorState, site: Site) -> str:
    """The project on ``site`` (R1), or ``built`` / ``dead`` / ``empty``: ``classify_reference``, kept per
    cards and cost rules."""
    if st.built[site.seat][site.slot]:
        return BUILT
    ids = st.sites[site.seat][site.slot]
    if not ids:
        return EMPTY
    rules = cost_rules(st, site.seat)
    return _kept(rules.status, rules.canon, ids, classify_reference, st, site)


def _kept(table: dict[tuple[str, ...], str], canon: dict[str, str], ids: Sequence[str],
          compute: Callable[[MeteorState, Site], str], st: MeteorState, site: Site) -> str:
    """``compute(st, site)`` kept in ``table`` under the canonical ids of the site's cards (emptied when large)."""
    key = tuple([canon[i] for i in ids])
    got = table.get(key)
    if got is None:
        if len(table) >= _CACHE_MAX:
            table.clear()
        got = table[key] = compute(st, site)
    return got


def three_card_retrofit(st: MeteorState, site: Site) -> bool:
    """Exactly 3 energy or 3 rockets in a valid pattern (Recycling Plant, T04)."""
    if st.built[site.seat][site.slot]:
        return False
    cards = [st.data.resources[i] for i in st.sites[site.seat][site.slot]]
    if len(cards) != 3:
        return False
    energy, rockets, _ = split(cards)
    if len(energy) == 3:
        return energy_pattern([c.code for c in energy], 3)
    if len(rockets) == 3:
        return rocket_pattern([c.damage for c in rockets], 3)
    return False


def challenge_forbids(st: MeteorState, card_id: str, site: Site) -> tuple[str, str] | None:
    """The Challenge of ``site``'s controller that forbids this card there (C09, C10), or ``None``."""
    card = st.data.resources[card_id]
    if card.is_rocket and card.damage >= 4 and st.has_challenge(site.seat, "light_payloads"):
        return "light_payloads", "Light Payloads: no rockets of damage 4 or 5 on that site"
    if card.is_energy and card.key == "electric" and st.has_challenge(site.seat, "power_fault"):
        return "power_fault", "Power Fault: no Electric energy on that site"
    return None


def place(st: MeteorState, seat: int, card_id: str, site: Site) -> list[Event]:
    """Move ``card_id`` from ``seat``'s hand to ``site`` (MET-8.3), then complete what it completes."""
    st.take_from_hand(seat, card_id)
    st.last_place[seat] = st.now
    if st.has_challenge(seat, "backwards"):
        forbidden = challenge_forbids(st, card_id, site)
        if forbidden is not None:  # R21: placed blind by position, the card is shown to all and discarded
            st.discard.append(card_id)
            return [Event("challenge_discard", {"seat": seat, "card": card_id, "site": str(site),
                                                "challenge": forbidden[0], "why": forbidden[1]})]
    st.sites[site.seat][site.slot].append(card_id)
    events = [Event("placed", {"seat": seat, "card": card_id, "site": str(site)})]
    events.extend(_complete(st, site))
    status = classify(st, site)
    if status == DEAD:
        events.append(Event("project_dead", {"site": str(site)}))
    return events


def completion_reference(st: MeteorState, site: Site) -> str:
    """What the cards on ``site`` complete now (R2): ``tech``, ``built`` (a rocket), ``energy`` or ``rocket`` (a
    retrofit), or ``""`` (nothing)."""
    ids = st.sites[site.seat][site.slot]
    energy, rockets, techs = split([st.data.resources[i] for i in ids])
    codes = [c.code for c in energy]
    rules = cost_rules(st, site.seat)
    n = st.data.retrofit_cards
    if len(techs) == 1 and not rockets and rules.fits(codes, techs[0].cost, exact=True):
        return "tech"
    if len(rockets) == 1 and not techs and rules.fits(codes, rockets[0].cost, exact=True):
        return "built"
    if not rockets and not techs and len(codes) == n and energy_pattern(codes, n):
        return "energy"
    if not energy and not techs and len(rockets) == n and rocket_pattern([r.damage for r in rockets], n):
        return "rocket"
    return ""


def completion(st: MeteorState, site: Site) -> str:
    """``completion_reference``, kept per cards and cost rules (see ``classify``)."""
    rules = cost_rules(st, site.seat)
    return _kept(rules.completion, rules.canon, st.sites[site.seat][site.slot], completion_reference, st, site)


def _complete(st: MeteorState, site: Site) -> list[Event]:
    """Complete what the cards on ``site`` complete (R2, ``completion``)."""
    kind = completion(st, site)
    if not kind:
        return []
    ids = st.sites[site.seat][site.slot]
    if kind == "tech":
        energy, _, techs = split([st.data.resources[i] for i in ids])
        return _complete_tech(st, site, techs[0], [c.id for c in energy])
    if kind == "built":
        st.built[site.seat][site.slot] = True  # MET-9.3.1; the site is locked (R5)
        r = next(c for c in (st.data.resources[i] for i in ids) if c.is_rocket)
        return [Event("rocket_built", {"site": str(site), "rocket": r.base, "card": r.id, "damage": r.damage})]
    return retrofit(st, site, kind)


def _complete_tech(st: MeteorState, site: Site, tech: ResourceCard, energy: list[str]) -> list[Event]:
    """MET-9.1.2: discard the energy, the tech goes next to the field and acts at once (R17)."""
    from cosmodeck.games.meteor.rules_meteors import tech_effect

    st.sites[site.seat][site.slot] = []
    st.discard.extend(energy)
    st.techs.append(tech.id)
    events = [Event("tech_built", {"site": str(site), "tech": tech.base, "card": tech.id, "key": tech.key,
                                   "effect": tech.effect,
                                   "discarded": energy})]
    events.extend(tech_effect(st, tech))
    return events


def retrofit(st: MeteorState, site: Site, kind: str) -> list[Event]:
    """MET-9.2.3: discard the cards; the team draws ``retrofit_draw`` by the chart's split (R6, R18)."""
    from cosmodeck.games.meteor.rules_zones import deal

    cards = st.sites[site.seat][site.slot]
    st.sites[site.seat][site.slot] = []
    st.discard.extend(cards)
    builder = site.seat
    split_row = st.data.chart[st.players].retrofit_split
    order = [(builder + k) % st.players for k in range(st.players)]
    quotas = {s: split_row[k] for k, s in enumerate(order)}
    events = [Event("retrofit", {"site": str(site), "kind": kind, "builder": builder, "cards": cards})]
    events.extend(deal(st, order, quotas, "retrofit"))
    return events


def discard_project(st: MeteorState, site: Site) -> list[Event]:
    """R3: the controller discards every card on the site."""
    cards = st.sites[site.seat][site.slot]
    st.sites[site.seat][site.slot] = []
    st.discard.extend(cards)
    return [Event("project_discarded", {"site": str(site), "cards": cards})]
