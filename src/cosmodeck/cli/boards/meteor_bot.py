"""A light Meteor helper for the terminal board's bot seats: random, but preferring useful moves.

It sees only what a bot may see: the seat's view, its legal actions and the public card data of
the game definition (costs and damages printed on the cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import (
    DiscardProject,
    Launch,
    Pass,
    PlaceCard,
    Start,
)
from cosmodeck.games.meteor.cards import MeteorData


def _target_score(view: Mapping[str, Any], meteor: Mapping[str, Any], damage: int) -> float:
    """How good a hit of ``damage`` on ``meteor`` looks (negative: better not)."""
    zone = int(view["zone"])
    if meteor.get("face_up"):
        size = int(meteor["size"]) - int(meteor.get("store") or 0)
        if damage == size:
            return 10.0
        if damage > size:
            return -5.0 if meteor.get("trait") != "brittle" else 6.0
        return 1.0 if meteor.get("trait") == "cracked" else -1.0
    lo, hi = int(meteor["back"][0]), int(meteor["back"][1])
    if damage < lo:
        return 0.5  # reveals it, harmless
    if damage > hi:
        return -5.0 if zone <= 2 else -2.0
    return 4.0 / (hi - lo + 1)


def choose(view: Mapping[str, Any], legal: Sequence[Any], rng: Rng, data: MeteorData) -> Any | None:
    """A useful legal action for this seat, or ``None`` to wait."""
    seat = view["seat"]
    by_kind: dict[type, list[Any]] = {}
    for a in legal:
        by_kind.setdefault(type(a), []).append(a)
    if Start in by_kind:
        return by_kind[Start][0]
    field = {m["ref"]: m for m in view["field"]}
    sites = {s["site"]: s for s in view["sites"]}
    launches = [a for a in by_kind.get(Launch, []) if not a.demolition and not a.sharpshooter]
    if launches:
        scored = [(_target_score(view, field[a.target], int(sites[str(a.site)]["damage"] or 0)), a) for a in launches]
        best = max(s for s, _ in scored)
        if best > 0:
            return rng.choice([a for s, a in scored if s == best])
    own = [s for s in view["sites"] if s["seat"] == seat]
    for s in own:
        if s["status"] == "dead":
            return DiscardProject(_site(s))
    places = by_kind.get(PlaceCard, [])
    hand = view["hands"][seat]["cards"] or []
    good = _useful_places(view, places, hand, data)
    if good:
        return rng.choice(good)
    passes = by_kind.get(Pass, [])
    if passes and int(view["zone"]) > 1 and rng.random() < 0.3:
        return passes[0]
    return None


def _site(s: Mapping[str, Any]) -> Any:
    from cosmodeck.games.meteor.actions import Site

    return Site(int(s["seat"]), int(s["slot"]))


def _useful_places(view: Mapping[str, Any], places: list[PlaceCard], hand: list[str], data: MeteorData) -> list[Any]:
    seat = view["seat"]
    res = data.resources
    energy = Counter(res[c].code for c in hand if c in res and res[c].is_energy)
    out: list[Any] = []
    for a in places:
        if a.card.startswith("@") or a.card not in res:
            continue
        card = res[a.card]
        site = next(s for s in view["sites"] if s["site"] == str(a.site))
        if site["status"] in ("rocket", "tech") and card.is_energy and card.code in (site["missing"] or ""):
            out.append(a)  # feeds a project (ours or a teammate's)
        elif card.effect == "flip_active_timer_once" and _flip_hurts(view):
            continue
        elif site["status"] == "empty" and a.site.seat == seat and not card.is_energy:
            need = Counter(card.cost)
            if all(energy[k] >= n for k, n in need.items()):
                out.append(a)  # a rocket or tech we can pay for ourselves
        elif a.site.seat == seat and card.is_energy and _same_kind(site, card.code, energy[card.code], data):
            out.append(a)  # four of a kind: an energy retrofit
    return out


def _same_kind(site: Mapping[str, Any], code: str, in_hand: int, data: MeteorData) -> bool:
    """Placing ``code`` here keeps an all-``code`` energy pile that we can bring to four."""
    if site["status"] not in ("open", "empty"):
        return False
    codes = [data.resources[c].code for c in site["cards"]]
    return all(c == code for c in codes) and len(codes) + in_hand >= data.retrofit_cards


def _flip_hurts(view: Mapping[str, Any]) -> bool:
    left = view["timer"]["remaining"]
    return left is None or float(left) > float(view["timer"]["length"]) / 2
