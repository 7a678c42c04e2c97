"""Meteor determinization: a full state from one seat's view, secrets re-drawn (MET-D4).

Everything public is copied from the view exactly: phase, zone, timer and Time Out, the
field's public marks (handles, backs, hits, shields, Cracked stores and tucked rockets), the
faces of revealed meteors, removed meteors, sites and built rockets, technologies, the
discard pile, the open volley window, Countdown launches, Pass flags, Powers and
Challenges with the powers used per game and per zone, One-Handed times, the Mulligan flag,
the outcome, and every hand the seat sees (its own; any Backwards hand of another seat).

What the seat cannot see is re-drawn uniformly among the possibilities its view allows:

- hidden hands (the others' hands; the seat's own hand under Backwards): each keeps the
  cards everyone knows (``known``: shown by Open Book or a first game, returned by Mechanic or
  Salvager) and gets the rest of its public count from the unseen Resource cards, in a random
  order (hand positions are not public either);
- the Resource Deck: the unseen cards left over, in a random order;
- face-down meteors: each takes an unseen meteor of the same kind and back (as
  ``games/meteor/hidden.py`` resamples them); one known to be Stealth (face down although
  hit, or face down in a first game or under the Tracking Station) takes an unseen Stealth
  meteor of that kind and back;
- the Meteor Deck (the unseen standard meteors) and the boss box (the unseen bosses), each
  in a random order;
- the undealt Power and Challenge cards: their set is public, their order is shuffled when
  the level deals them (it is the sorted list when it does not, as at set-up);
- the game's random generator (future Scorching and Leaky Hold picks), drawn afresh.

Left out, because the view carries no memory of past events: what the seat saw happen but
the view no longer shows, e.g. the card it gave by Courier (still secret in the receiver's
hand), a Stealth meteor it learnt about from a Spotter use that revealed nothing, or cards
it saw drawn before they were played. The log is empty and the seed 0 (neither is public
nor used by the rules). A Backwards seat's legal actions never depend on the faces it cannot
see (R21), so they match the real state's too.

The state is rebuilt through the game's own JSON format (``game.load_state``), so it is a
genuine ``MeteorState`` whatever the game's internals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cosmodeck.bots.determinize import load_core
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.cards import MeteorData
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.state import MeteorState


def _site(text: str) -> list[int]:
    """``"s2"`` -> ``[2, 0]``; ``"s2.1"`` -> ``[2, 1]``."""
    seat, _, slot = text[1:].partition(".")
    return [int(seat), int(slot or 0)]


def _resources(data: MeteorData, view: Mapping[str, Any], seat: int, rng: Rng,
               sites: list[list[list[str]]]) -> tuple[list[list[str]], list[str]]:
    """Every hand (visible ones copied, hidden ones drawn) and the Resource Deck."""
    seen: Counter[str] = Counter(view["discard"])
    seen.update(t["id"] for t in view["techs"])
    for slots in sites:
        for cards in slots:
            seen.update(cards)
    for m in view["field"]:
        seen.update(m["tucked"])
    if view["volley"] is not None:
        for e in view["volley"]["launches"]:
            seen.update(e["cards"])
    hands: list[list[str]] = [[] for _ in view["hands"]]
    hidden: list[int] = []
    for h in view["hands"]:
        if h["cards"] is not None:
            hands[h["seat"]] = list(h["cards"])
            seen.update(h["cards"])
        else:
            hidden.append(h["seat"])
            seen.update(h["known"])
    pool = [c for c in data.resource_order if not seen[c]]
    if len(pool) != len(data.resource_order) - sum(seen.values()):
        raise ValueError(f"meteor determinization: seat {seat}'s view shows a card twice or an unknown card")
    rng.shuffle(pool)
    for s in hidden:
        h = view["hands"][s]
        fresh = int(h["count"]) - len(h["known"])
        if fresh < 0 or fresh > len(pool):
            raise ValueError(f"meteor determinization: hand {s} cannot hold {h['count']} cards")
        hand = list(h["known"]) + [pool.pop() for _ in range(fresh)]
        rng.shuffle(hand)
        hands[s] = hand
    if len(pool) != int(view["resource_deck"]):
        raise ValueError(f"meteor determinization: {len(pool)} unseen cards for a deck of {view['resource_deck']}")
    return hands, pool


def _meteors(data: MeteorData, view: Mapping[str, Any], all_up: bool,
             rng: Rng) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The field (face-down identities drawn), the Meteor Deck and the boss box."""
    seen = {m["id"] for m in view["field"] if m["face_up"]} | {r["id"] for r in view["removed"]}
    groups: dict[tuple[str, tuple[int, int]], list[str]] = {}
    for mid, card in data.meteors.items():
        if mid not in seen:
            groups.setdefault((card.kind, card.back), []).append(mid)
    for ids in groups.values():
        ids.sort()
        rng.shuffle(ids)
    picks: dict[str, str] = {}
    down = [m for m in view["field"] if not m["face_up"]]
    # Known Stealth meteors first (a hit leaves only a Stealth meteor face down; so does a
    # first game or the Tracking Station), then the others among what is left of their group.
    for stealth_only in (True, False):
        for m in down:
            if bool(m["hit"] or all_up) != stealth_only:
                continue
            ids = groups.get((m["kind"], (int(m["back"][0]), int(m["back"][1]))), [])
            fits = [i for i in ids if not stealth_only or data.meteors[i].trait == "stealth"]
            if not fits:
                raise ValueError(f"meteor determinization: no unseen meteor fits face-down {m['ref']}")
            ids.remove(fits[-1])
            picks[m["ref"]] = fits[-1]
    field = [{"ref": m["ref"], "id": m["id"] if m["face_up"] else picks[m["ref"]], "up": m["face_up"],
              "shield_spent": m["shield_spent"], "store": m["store"], "tucked": list(m["tucked"]), "hit": m["hit"]}
             for m in view["field"]]
    rest = sorted(i for ids in groups.values() for i in ids)
    deck = [i for i in rest if data.meteors[i].kind == "standard"]
    box = [i for i in rest if data.meteors[i].kind == "boss"]
    rng.shuffle(deck)
    rng.shuffle(box)
    if len(deck) != int(view["meteor_deck"]):
        raise ValueError(f"meteor determinization: {len(deck)} unseen standard meteors for a Meteor Deck "
                         f"of {view['meteor_deck']}")
    return field, deck, box


def _box(table: Mapping[str, str], dealt: list[str | None], shuffled: bool, rng: Rng) -> list[str]:
    box = [c for c in sorted(table) if c not in dealt]
    if shuffled:
        rng.shuffle(box)
    return box


def determinize(game: MeteorGame, view: Mapping[str, Any], seat: int, rng: Rng) -> MeteorState:
    """A ``MeteorState`` that shows ``seat`` exactly ``view``, its hidden parts drawn with ``rng``."""
    data = game.data
    opts = game.options
    players = int(view["players"])
    level = data.difficulty[str(opts["difficulty"])]

    sites: list[list[list[str]]] = [[] for _ in range(players)]
    built: list[list[bool]] = [[] for _ in range(players)]
    for s in sorted(view["sites"], key=lambda x: (x["seat"], x["slot"])):
        sites[s["seat"]].append(list(s["cards"]))
        built[s["seat"]].append(bool(s["built"]))
    hands, deck = _resources(data, view, seat, rng, sites)

    techs = [t["id"] for t in view["techs"]]
    all_up = bool(opts["first_game"]) or any(t["effect"] == "reveal_all_meteors" for t in view["techs"])
    field, meteor_deck, boss_box = _meteors(data, view, all_up, rng)
    removed = [{"ref": r["ref"], "id": r["id"], "cause": r["cause"], "zone": r["zone"]} for r in view["removed"]]
    refs = [int(m["ref"][1:]) for m in view["field"]] + [int(r["ref"][1:]) for r in view["removed"]]

    powers: list[str | None] = [None if p is None else p["id"] for p in view["powers"]]
    challenges: list[str | None] = [None if c is None else c["id"] for c in view["challenges"]]
    window = view["volley"]
    if window is not None:
        window = {"opened": window["opened"], "closes": window["closes"],
                  "launches": [{"seat": e["seat"], "site": _site(e["site"]), "cards": list(e["cards"]),
                                "target": e["target"], "demolition": e["demolition"],
                                "sharpshooter": e["sharpshooter"], "at": e["at"]} for e in window["launches"]]}
    core = {
        "phase": view["phase"],
        "deck": deck,
        "hands": hands,
        "known": [list(h["known"]) for h in view["hands"]],
        "sites": sites,
        "built": built,
        "discard": list(view["discard"]),
        "techs": techs,
        "meteor_deck": meteor_deck,
        "boss_box": boss_box,
        "field": field,
        "removed": removed,
        "next_ref": max(refs, default=0) + 1,
        "zone": view["zone"],
        "timer_end": view["timer"]["deadline"],
        "paused": None if view["time_out"] is None else dict(view["time_out"]),
        "window": window,
        "countdowns": [dict(cd, site=_site(cd["site"])) for cd in view["countdowns"]],
        "passes": list(view["passes"]),
        "powers": powers,
        "challenges": challenges,
        "power_box": _box(data.powers, powers, level.powers > 0, rng),
        "challenge_box": _box(data.challenges, challenges, level.challenges > 0, rng),
        "used": [[] if p is None else list(p["used_game"]) for p in view["powers"]],
        "zone_used": [[] if p is None else list(p["used_zone"]) for p in view["powers"]],
        "last_place": list(view["last_place"]),
        "mulligan_used": view["mulligan_used"],
        "outcome": None if view["outcome"] is None else dict(view["outcome"]),
    }
    state = load_core(game, players, view["now"], rng.fork().state, core)
    assert isinstance(state, MeteorState)
    return state
