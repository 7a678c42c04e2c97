"""Set-up (MET-2), the Meteor Mulligan (R15) and the start of play (MET-2.9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.meteor.rules_meteors import enter_field
from cosmodeck.games.meteor.rules_zones import deal

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game
    from cosmodeck.games.meteor.state import MeteorState


def new_state(game: Game[Any], players: int, seed: int) -> MeteorState:
    """A fresh, seeded game in the set-up phase: field dealt, hands dealt, no timer yet."""
    from cosmodeck.games.meteor.state import MeteorState

    st = MeteorState(game, players, seed)
    data = st.data
    rng = st.rng
    level = data.difficulty[str(game.options["difficulty"])]
    st.meteor_deck = list(data.standard_ids)  # MET-2.1
    rng.shuffle(st.meteor_deck)
    st.boss_box = list(data.boss_ids)
    rng.shuffle(st.boss_box)
    _deal_field(st, level.bosses)
    if level.powers:  # MET-2.8: one Power and one Challenge each, face up
        st.power_box = sorted(data.powers)
        rng.shuffle(st.power_box)
        st.powers = [st.power_box.pop() for _ in range(players)]
    else:
        st.power_box = sorted(data.powers)
    if level.challenges:
        st.challenge_box = sorted(data.challenges)
        rng.shuffle(st.challenge_box)
        st.challenges = [st.challenge_box.pop() for _ in range(players)]
    else:
        st.challenge_box = sorted(data.challenges)
    for s in range(players):
        if st.has_power(s, "twin_pads"):  # P04: a second slot
            st.sites[s].append([])
            st.built[s].append(False)
    st.deck = list(data.resource_order)  # MET-2.7
    rng.shuffle(st.deck)
    hand = data.chart[players].start_hand
    quotas = {s: max(1, hand - 2) if st.has_challenge(s, "short_rations") else hand for s in range(players)}
    deal(st, list(range(players)), quotas, "start")
    return st


def _deal_field(st: MeteorState, bosses: int) -> None:
    """MET-2.2 / R16: the chart's meteors, plus the level's bosses, spread out face down."""
    for _ in range(st.data.chart[st.players].meteors):
        enter_field(st, st.meteor_deck.pop())
    for _ in range(bosses):
        enter_field(st, st.boss_box.pop())


def mulligan(st: MeteorState) -> list[Event]:
    """R15: reshuffle every standard meteor and redeal; bosses likewise among themselves."""
    st.mulligan_used = True
    bosses = sum(1 for fm in st.field if st.data.meteors[fm.id].kind == "boss")
    st.meteor_deck = list(st.data.standard_ids)
    st.rng.shuffle(st.meteor_deck)
    st.boss_box = list(st.data.boss_ids)
    st.rng.shuffle(st.boss_box)
    st.field = []
    _deal_field(st, bosses)
    return [Event("meteor_mulligan", {"field": [fm.ref for fm in st.field]})]


def start(st: MeteorState) -> list[Event]:
    """MET-2.9: play starts, the Zone 5 timer runs."""
    st.phase = "play"
    st.timer_end = st.now + float(st.game.options["zone_timer_s"])
    return [Event("started", {"zone": st.zone, "deadline": st.timer_end})]
