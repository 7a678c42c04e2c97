"""Power cards (P01-P13) that are actions, Open Book's ``show_hand``, and the talk rules.

Passive Powers and Challenges are applied where their rule acts (costs in ``rules_sites``,
draws in ``rules_zones``, volleys in ``rules_volleys``); this module holds ``use_power``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.meteor.actions import EMOTES, SIGNALS, Give, Mechanic, Spot
from cosmodeck.games.meteor.rules_meteors import reveal
from cosmodeck.games.meteor.rules_zones import flip_timer

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState


def spot(st: MeteorState, seat: int, a: Spot) -> list[Event]:
    """P05 Spotter: once per game reveal a face-down meteor (a Stealth one stays hidden)."""
    st.used[seat].append("spotter")
    fm = st.meteor(a.target)
    assert fm is not None
    events = [Event("power", {"seat": seat, "power": "spotter", "target": a.target})]
    events.extend(reveal(st, fm, "spotter"))
    return events


def chronometrist(st: MeteorState, seat: int) -> list[Event]:
    """P12 Chronometrist: once per game flip the active timer, as Mission Control does."""
    st.used[seat].append("chronometrist")
    return [Event("power", {"seat": seat, "power": "chronometrist"}), *flip_timer(st)]


def mechanic(st: MeteorState, seat: int, a: Mechanic) -> list[Event]:
    """P10 Mechanic: once per zone take one card from your own site back (despite MET-8.2)."""
    st.zone_used[seat].append("mechanic")
    st.sites[a.site.seat][a.site.slot].remove(a.card)
    st.give_to_hand(seat, a.card, public=True)
    return [Event("power", {"seat": seat, "power": "mechanic", "site": str(a.site), "card": a.card})]


def courier(st: MeteorState, seat: int, a: Give) -> list[Event]:
    """P13 Courier: once per zone give a card from your hand to another player (privately)."""
    st.zone_used[seat].append("courier")
    card = st.resolve_card(seat, a.card)
    was_known = card in st.known[seat]
    st.take_from_hand(seat, card)
    st.give_to_hand(a.to, card, public=was_known)
    return [Event("power", {"seat": seat, "power": "courier", "to": a.to}, private={"card": card},
                  seats=frozenset({seat, a.to}))]


def show_hand(st: MeteorState, seat: int) -> list[Event]:
    """Open Book (P02) or a first game (R14): the hand is shown to everyone."""
    st.known[seat] = list(st.hands[seat])
    return [Event("hand_shown", {"seat": seat, "cards": list(st.hands[seat])})]


def may_show(st: MeteorState, seat: int) -> bool:
    """MET-7.2: hands are never shown, except Open Book or a first game."""
    return bool(st.game.options["first_game"]) or st.has_power(seat, "open_book")


def may_chat(st: MeteorState, seat: int) -> bool:
    """MET-7.1/7.2/7.3, MET-D1: chat after the Satellite or in a first game; Radio Operator / Silence."""
    if st.has_challenge(seat, "radio_silence"):
        return False
    return (bool(st.game.options["first_game"]) or st.has_tech("allow_talk")
            or st.has_power(seat, "radio_operator"))


def talk_rules(st: MeteorState, seat: int) -> dict[str, Any]:
    """What ``seat`` may say (MET-D1), for the server to enforce chat without knowing the rules."""
    return {"chat": may_chat(st, seat), "signals": list(SIGNALS), "emotes": list(EMOTES),
            "show_hand": may_show(st, seat)}
