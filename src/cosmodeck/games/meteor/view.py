"""What a seat may see (MET-D4), JSON-ready.

Everyone sees: hand sizes, Power and Challenge cards, sites and project status, techs,
meteor backs, the discard pile, Cracked stores, the zone and timer, Pass flags, open volleys
and the talk rules. Hand faces: the owner only (Backwards: only the others), plus cards
shown by Open Book. Face-down meteors show only their back and kind. Decks: counts only.

A Power entry lists the powers its holder has used: ``used_game`` (once per game: Spotter,
Chronometrist, Demolition Expert, Sharpshooter) and ``used_zone`` (once per zone: Mechanic,
Courier; cleared at each zone change), each in order of use; ``used`` is their sorted union
(kept for older consumers; a Challenge entry carries the same ``used``).
A site's ``missing`` is the energy still missing from its rocket or technology, counting the
controller's Fuel Chemist and Solar Engineer substitutions.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import TYPE_CHECKING, Any

from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.rules_meteors import public
from cosmodeck.games.meteor.rules_powers import talk_rules
from cosmodeck.games.meteor.rules_sites import CostRules, classify, cost_rules

if TYPE_CHECKING:
    from cosmodeck.games.meteor.cards import MeteorData
    from cosmodeck.games.meteor.state import MeteorState

NO_TALK: dict[str, Any] = {"chat": False, "signals": [], "emotes": [], "show_hand": False}
# the shared entries kept (``_public``; one dict per game object, ``state.view_entries``): past it they are
# dropped and built again as needed
LIMIT = 16384


def sees_hand(st: MeteorState, viewer: int | None, owner: int) -> bool:
    if viewer is None:
        return False
    if st.has_challenge(owner, "backwards"):
        return viewer != owner
    return viewer == owner


def build_view(st: MeteorState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat``: the hands it may see and its talk rules, around the public part.

    The public part (everything but the hands' faces and the seat's own talk rules) is the same for
    every seat: it is built once per state version (``MeteorState.memo``) and shared by the views.
    """
    memo = st.memo()
    pub: dict[str, Any] | None = memo.get("public")
    if pub is None:
        pub = memo["public"] = _public(st)
    hands = _hands(st, seat, pub)
    return {
        "phase": pub["phase"],
        "difficulty": pub["difficulty"],
        "first_game": pub["first_game"],
        "zone": pub["zone"],
        "zone_name": pub["zone_name"],
        "zones_left": pub["zones_left"],
        "timer": pub["timer"],
        "time_out": pub["time_out"],
        "field": pub["field"],
        "removed": pub["removed"],
        "meteor_deck": pub["meteor_deck"],
        "resource_deck": pub["resource_deck"],
        "discard": pub["discard"],
        "hands": hands,
        "sites": pub["sites"],
        "techs": pub["techs"],
        "passes": pub["passes"],
        "volley": pub["volley"],
        "countdowns": pub["countdowns"],
        "powers": pub["powers"],
        "challenges": pub["challenges"],
        "last_place": pub["last_place"],
        "mulligan_used": pub["mulligan_used"],
        "talk": NO_TALK if seat is None else pub["talk_by_seat"][seat],
        "talk_by_seat": pub["talk_by_seat"],
        "options": pub["options"],
        "outcome": pub["outcome"],
    }


def _hands(st: MeteorState, seat: int | None, pub: dict[str, Any]) -> list[dict[str, Any]]:
    hidden: list[dict[str, Any]] = pub["hidden_hands"]  # the entries without faces, shared by this version's views
    if seat is None:  # a spectator sees no hand
        return list(hidden)
    if all(c is None for c in st.challenges):  # no Challenge (no Backwards): a seat sees its own hand only
        hands = list(hidden)
        hands[seat] = {"seat": seat, "count": len(st.hands[seat]), "known": list(st.known[seat]),
                       "cards": list(st.hands[seat])}
        return hands
    hands = []
    for s in range(st.players):
        if sees_hand(st, seat, s):
            hands.append({"seat": s, "count": len(st.hands[s]), "known": list(st.known[s]), "cards": list(st.hands[s])})
        else:
            hands.append(hidden[s])
    return hands


def seat_parts(st: MeteorState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The parts of ``build_view(st, seat)`` that depend on the viewer: its ``hands`` and its ``talk``."""
    memo = st.memo()
    pub: dict[str, Any] | None = memo.get("public")
    if pub is None:
        pub = memo["public"] = _public(st)
    return _hands(st, seat, pub), pub["talk_by_seat"][seat]


def _public_py(st: MeteorState) -> dict[str, Any]:
    """The part of every seat's view that is the same for all. Its sites, field meteors, removed meteors,
    talk rules, Powers, Challenges, technologies and options are entries shared by the views of every
    version where what they depend on is the same (``st.site_entries``, keyed by that: views are
    read-only; one dict for every state of the game object, which fixes the data and options), so an
    unchanged piece is not rebuilt. The reference of ``view_fast.pyx:public`` (``_public`` is that one when
    it is built)."""
    data = st.data
    opts = st.game.options
    res = data.resources
    entries = st.site_entries
    if len(entries) > LIMIT:
        entries.clear()
    sites = _site_list(st, entries)
    field = _field_list(st, entries)
    # the talk rules depend on the techs, Powers and Challenges only (and the game's options)
    talk_key = ("talk", tuple(st.techs), tuple(st.powers), tuple(st.challenges))
    talk = entries.get(talk_key)
    if talk is None:
        talk = entries[talk_key] = {"by_seat": [talk_rules(st, s) for s in range(st.players)]}
    options = entries.get(("options",))
    if options is None:
        options = entries[("options",)] = {
            "volley_window_s": opts["volley_window_s"], "zone_timer_s": opts["zone_timer_s"],
            "countdown_s": opts["countdown_s"], "one_handed_interval_s": opts["one_handed_interval_s"],
            "allow_any_timeout": opts["allow_any_timeout"], "allow_meteor_mulligan": opts["allow_meteor_mulligan"]}
    # the Powers, Challenges and technologies depend on these only
    skey = ("specials", tuple(st.powers), tuple(st.challenges), tuple(map(tuple, st.used)),
            tuple(map(tuple, st.zone_used)), tuple(st.techs))
    specials = entries.get(skey)
    if specials is None:
        specials = entries[skey] = {
            "powers": [_power(st, p, s) for s, p in enumerate(st.powers)],
            "challenges": [_special(st, c, s, data.challenges) for s, c in enumerate(st.challenges)],
            "techs": [{"id": t, "key": res[t].key, "effect": res[t].effect} for t in st.techs]}
    removed = []
    for r in st.removed:  # {ref, id, cause, zone} (codec and validate): an entry per record
        rkey = ("removed", *r.items())
        entry = entries.get(rkey)
        if entry is None:
            entry = entries[rkey] = {**r, **data.meteors[r["id"]].face(r["zone"])}
        removed.append(entry)
    window = _window(st)
    return {
        "phase": st.phase,
        "difficulty": opts["difficulty"],
        "first_game": opts["first_game"],
        "zone": st.zone,
        "zone_name": data.zones[st.zone],
        "zones_left": list(range(st.zone, 0, -1)),
        "timer": _timer(st),
        "time_out": None if st.paused is None else dict(st.paused),
        "field": field,
        "removed": removed,
        "meteor_deck": len(st.meteor_deck),
        "resource_deck": len(st.deck),
        "discard": list(st.discard),
        "sites": sites,
        "techs": specials["techs"],
        "passes": list(st.passes),
        "volley": window,
        "countdowns": [dict(cd, site=_site_str(cd["site"])) for cd in st.countdowns],
        "powers": specials["powers"],
        "challenges": specials["challenges"],
        "last_place": list(st.last_place),
        "mulligan_used": st.mulligan_used,
        "talk_by_seat": talk["by_seat"],
        "options": options,
        "outcome": None if st.outcome is None else dict(st.outcome),
        "hidden_hands": _hidden_hands(st),
    }


def _site_list(st: MeteorState, entries: dict[Any, Any]) -> list[dict[str, Any]]:
    """The view's ``sites``: an entry per site, shared through ``entries`` (``st.site_entries``)."""
    data = st.data
    sites = []
    countdowns = st.countdowns
    for seat, slots in enumerate(st.sites):
        # a site's entry depends on these only (its project reads the controller's cost Powers)
        fuel, solar = st.has_power(seat, "fuel_chemist"), st.has_power(seat, "solar_engineer")
        for slot, cards in enumerate(slots):
            due = [cd["due"] for cd in countdowns if cd["site"] == [seat, slot]] if countdowns else None
            built = st.built[seat][slot]
            key = (seat, slot, tuple(cards), built, due[0] if due else None, fuel, solar)
            entry = entries.get(key)
            if entry is None:
                site = Site(seat, slot)
                facts = _site_facts(st, site, cards, built, fuel, solar, entries)
                entry = entries[key] = {"site": str(site), "seat": seat, "slot": slot, "name": data.sites[seat],
                                        "cards": list(cards), "status": facts["status"], "built": built,
                                        "countdown": due[0] if due else None, "project": facts["project"],
                                        "damage": facts["damage"], "cost": facts["cost"],
                                        "missing": facts["missing"]}
            sites.append(entry)
    return sites


def _field_list(st: MeteorState, entries: dict[Any, Any]) -> list[dict[str, Any]]:
    """The view's ``field``: an entry per field meteor, shared through ``entries``."""
    field = []
    for fm in st.field:  # an entry depends on these only (its face on the zone, once face up)
        mkey = ("meteor", fm.ref, fm.id, fm.up, fm.hit, fm.shield_spent, fm.store, tuple(fm.tucked),
                st.zone if fm.up else None)
        entry = entries.get(mkey)
        if entry is None:
            entry = entries[mkey] = public(st, fm)
        field.append(entry)
    return field


def _timer(st: MeteorState) -> dict[str, Any]:
    return {"deadline": st.timer_end, "remaining": st.remaining(), "length": float(st.game.options["zone_timer_s"]),
            "running": st.phase == "play" and st.paused is None and st.outcome is None}


def _window(st: MeteorState) -> dict[str, Any] | None:
    if st.window is None:
        return None
    return {"opened": st.window["opened"], "closes": st.window["closes"],
            "launches": [_launch(st, e) for e in st.window["launches"]]}


def _hidden_hands(st: MeteorState) -> list[dict[str, Any]]:
    return [{"seat": s, "count": len(st.hands[s]), "known": list(st.known[s]), "cards": None}
            for s in range(st.players)]


def _site_facts(st: MeteorState, site: Site, cards: list[str], built: bool, fuel: bool, solar: bool,
                entries: dict[Any, Any]) -> dict[str, Any]:
    """A site entry's ``status`` (``classify``) and project (``_project``). Both read only the site's printed
    cards, whether it is built and its controller's cost Powers (``fuel``, ``solar``) besides the game's data,
    so they are kept in ``entries`` by those: a site holding other copies of the same printed cards (another
    game, seat or turn) reuses them. A printed card is its base id when every copy of it has the same faces
    (as the data loader makes them), else the copy's own id (``_printed``)."""
    printed: dict[str, str] | None = entries.get(("printed",))
    if printed is None:
        printed = entries[("printed",)] = _printed(st.data)
    fkey = ("facts", tuple([printed[c] for c in cards]), built, fuel, solar)
    got: dict[str, Any] | None = entries.get(fkey)
    if got is None:
        got = entries[fkey] = {"status": classify(st, site), **_project(st, site, cards)}
    return got


def _printed(data: MeteorData) -> dict[str, str]:
    """Each resource card's printed card: its base id when all copies of that base have the same fields but
    their ids, else its own id."""
    faces: dict[str, set[tuple[Any, ...]]] = {}
    for card in data.resources.values():
        faces.setdefault(card.base, set()).add((card.kind, card.code, card.damage, card.cost, card.key, card.effect))
    return {cid: card.base if len(faces[card.base]) == 1 else cid for cid, card in data.resources.items()}


def catalogue(data: MeteorData) -> dict[str, Any]:
    """The printed faces of the data file, public: what a board draws a card from (energy colours,
    rocket costs and damage, technology names and effects) and the data file's texts per language.

    It is the game's catalogue (``MeteorGame.build_catalogue``, built once per game and sent once per
    room), not part of a view: every text of the file is in it (all boss names, so the list never tells
    which bosses lie face down; every Power and Challenge, whichever were dealt, MET-D4).
    """
    cards: dict[str, dict[str, Any]] = {}
    for card in data.resources.values():
        if card.base in cards:
            continue
        face: dict[str, Any] = {"kind": card.kind}
        if card.is_energy:
            face["key"] = card.key
        else:
            face["cost"] = "".join(card.cost)
        if card.is_rocket:
            face["damage"] = card.damage
        if card.is_tech:
            face["key"] = card.key
        cards[card.base] = face
    return {"energy": [{"key": e.key, "code": e.code, "colour": e.colour, "value": e.value} for e in data.energy],
            "cards": cards, "powers": dict(data.powers), "challenges": dict(data.challenges),
            "texts": {k: dict(v) for k, v in data.texts.items()}}


def _project(st: MeteorState, site: Site, cards: list[str]) -> dict[str, Any]:
    """The rocket or tech on a site, its cost and the energy letters still missing.

    ``missing`` counts the controller's substitutions (Fuel Chemist, Solar Engineer): the
    energy on the site is matched to the cost with as many exact matches as possible, and the
    unmatched cost letters are missing. A site whose energy cannot be matched (a dead project)
    shows the plain difference.
    """
    res = st.data.resources
    heads = [res[c] for c in cards if not res[c].is_energy]
    if len(heads) != 1:
        return {"project": None, "damage": None, "cost": None, "missing": None}
    head = heads[0]
    codes = [res[c].code for c in cards if res[c].is_energy]
    missing = _missing(codes, head.cost, cost_rules(st, site.seat))
    if missing is None:
        plain = list(head.cost)
        for code in codes:
            if code in plain:
                plain.remove(code)
        missing = "".join(plain)
    return {"project": head.base, "damage": head.damage if head.is_rocket else None, "cost": "".join(head.cost),
            "missing": missing}


def _missing(codes: list[str], cost: tuple[str, ...], rules: CostRules) -> str | None:
    """The cost letters left unpaid by ``codes`` under ``rules`` (most exact matches), or ``None``."""
    best: tuple[int, tuple[int, ...]] | None = None
    for slots in permutations(range(len(cost)), len(codes)):
        wild = exact = 0
        for e, i in zip(codes, slots, strict=True):
            c = cost[i]
            if e == c:
                exact += 1
            elif e in rules.fa and c in rules.fa:
                pass
            elif e == rules.solar and wild == 0:
                wild = 1
            else:
                break
        else:
            if best is None or exact > best[0]:
                best = (exact, slots)
    if best is None:
        return None
    paid = set(best[1])
    return "".join(c for i, c in enumerate(cost) if i not in paid)


def _site_str(site: list[int]) -> str:
    return f"s{site[0]}" if site[1] == 0 else f"s{site[0]}.{site[1]}"


def _launch(st: MeteorState, e: dict[str, Any]) -> dict[str, Any]:
    rocket = st.data.resources[e["cards"][0]]
    return {"seat": e["seat"], "site": _site_str(e["site"]), "rocket": rocket.base, "damage": rocket.damage,
            "cards": list(e["cards"]), "target": e["target"], "demolition": e["demolition"],
            "sharpshooter": e["sharpshooter"], "at": e["at"]}


def _special(st: MeteorState, card: str | None, seat: int, table: Any) -> dict[str, Any] | None:
    if card is None:
        return None
    return {"id": card, "key": table[card], "used": sorted(set(st.used[seat]) | set(st.zone_used[seat]))}


def _power(st: MeteorState, card: str | None, seat: int) -> dict[str, Any] | None:
    entry = _special(st, card, seat, st.data.powers)
    if entry is not None:
        entry["used_game"] = list(st.used[seat])
        entry["used_zone"] = list(st.zone_used[seat])
    return entry


_public: Callable[[MeteorState], dict[str, Any]]
try:  # the same function compiled (games/meteor/view_fast.pyx), when built: it reads the helpers above
    from cosmodeck.games.meteor.view_fast import public as _public
except ImportError:  # not built (a source tree without a C compiler): the readable function, the same views
    _public = _public_py
