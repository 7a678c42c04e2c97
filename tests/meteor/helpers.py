"""Stack the deck: build Meteor states in exact situations for the rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from cosmodeck.engine.events import Event
from cosmodeck.engine.options import TextInput
from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.rules_meteors import FieldMeteor
from cosmodeck.games.meteor.rules_sites import cost_rules, split
from cosmodeck.games.meteor.state import MeteorState


def load(**options: Any) -> MeteorGame:
    """The Meteor game with its default data (built directly: independent of other game packages)."""
    text = resources.files("cosmodeck.games.meteor.data").joinpath("default.json").read_text(encoding="utf-8")
    return MeteorGame(TextInput("cosmodeck.games.meteor.data/default.json", text, default=True), options)


def _take(st: MeteorState, base: str) -> str:
    """The lowest free copy of ``base`` (``"F"``, ``"R10"``, ``"T01"``) still in the Resource Deck."""
    for cid in st.data.resource_order:
        if cid.split("#")[0] == base and cid in st.deck:
            st.deck.remove(cid)
            return cid
    raise AssertionError(f"no free copy of {base}")


def make(
    players: int = 3,
    *,
    zone: int = 5,
    now: float | None = None,
    deadline: float | None = None,
    field: Iterable[str] = (),
    up: Iterable[str] = (),
    hands: Mapping[int, Iterable[str]] | None = None,
    sites: Mapping[Any, Iterable[str]] | None = None,
    powers: Mapping[int, str] | None = None,
    challenges: Mapping[int, str] | None = None,
    techs: Iterable[str] = (),
    deck_left: int | None = None,
    meteor_deck: Iterable[str] | None = None,
    started: bool = True,
    seed: int = 7,
    **options: Any,
) -> MeteorState:
    """A state with exactly these hands, sites, field, zone and clock.

    ``now`` defaults to the start of ``zone`` (zone 5 at 0, zone 4 at 60, ...); ``deadline``
    to 60 s after that. ``sites`` maps a seat (or ``(seat, slot)``) to base ids; a complete
    rocket is built. ``meteor_deck`` lists the Meteor Deck from the top.
    """
    st: MeteorState = load(**options).new_game(players=players, seed=seed)
    # every resource card back to the deck, every meteor back to its box
    st.deck = list(st.data.resource_order)
    st.hands = [[] for _ in range(players)]
    st.known = [[] for _ in range(players)]
    st.meteor_deck = list(st.data.standard_ids)
    st.boss_box = list(st.data.boss_ids)
    st.field = []
    st.next_ref = 1
    st.powers = [None] * players
    st.challenges = [None] * players
    st.power_box = sorted(st.data.powers)
    st.challenge_box = sorted(st.data.challenges)
    st.sites = [[[]] for _ in range(players)]
    st.built = [[False] for _ in range(players)]
    for seat, pid in (powers or {}).items():
        st.powers[seat] = pid
        st.power_box.remove(pid)
        if st.data.powers[pid] == "twin_pads":
            st.sites[seat].append([])
            st.built[seat].append(False)
    for seat, cid in (challenges or {}).items():
        st.challenges[seat] = cid
        st.challenge_box.remove(cid)
    for t in techs:
        st.techs.append(_take(st, t))
    for mid in field:
        box = st.meteor_deck if mid in st.meteor_deck else st.boss_box
        box.remove(mid)
        st.field.append(FieldMeteor(f"m{st.next_ref}", mid, up=mid in set(up)))
        st.next_ref += 1
    if meteor_deck is not None:
        top = list(meteor_deck)
        for mid in top:
            st.meteor_deck.remove(mid)
        st.meteor_deck = st.meteor_deck + list(reversed(top))
    for seat, bases in (hands or {}).items():
        st.hands[seat] = [_take(st, b) for b in bases]
    for key, bases in (sites or {}).items():
        seat, slot = key if isinstance(key, tuple) else (key, 0)
        cards = [_take(st, b) for b in bases]
        st.sites[seat][slot] = cards
        energy, rockets, techs_ = split([st.data.resources[c] for c in cards])
        if len(rockets) == 1 and not techs_:
            rules = cost_rules(st, seat)
            st.built[seat][slot] = rules.fits([e.code for e in energy], rockets[0].cost, exact=True)
    if deck_left is not None:
        st.discard.extend(st.deck[: len(st.deck) - deck_left])
        st.deck = st.deck[len(st.deck) - deck_left:]
    st.zone = zone
    if started:
        st.phase = "play"
        st.now = float((5 - zone) * 60 if now is None else now)
        st.timer_end = float((6 - zone) * 60 if deadline is None else deadline)
    st.touch()  # fields were edited directly: forget any memoised view or legal list
    return st


def ref(st: MeteorState, meteor_id: str) -> str:
    for fm in st.field:
        if fm.id == meteor_id:
            return fm.ref
    raise AssertionError(f"{meteor_id} is not in the field")


def fm(st: MeteorState, meteor_id: str) -> FieldMeteor:
    for m in st.field:
        if m.id == meteor_id:
            return m
    raise AssertionError(f"{meteor_id} is not in the field")


def card(st: MeteorState, seat: int, base: str) -> str:
    """The first card of ``base`` in ``seat``'s hand."""
    for cid in st.hands[seat]:
        if cid.split("#")[0] == base:
            return cid
    raise AssertionError(f"seat {seat} holds no {base}")


def place(st: MeteorState, seat: int, base: str, site: int | str, at: float | None = None) -> list[Event]:
    where = f"s{site}" if isinstance(site, int) else site
    return st.apply(seat, f"place_card {card(st, seat, base)} {where}", at=at)


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def of(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.type == kind]


def field_ids(st: MeteorState) -> list[str]:
    return [m.id for m in st.field]


def draw_order(events: Iterable[Event]) -> list[int]:
    out: list[int] = []
    for e in events:
        if e.type == "deal":
            out.extend(e.data["order"])
    return out


def site(seat: int, slot: int = 0) -> Site:
    return Site(seat, slot)
