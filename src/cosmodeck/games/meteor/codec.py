"""Exact JSON dump/load of the Meteor state core, and the fast copy used by ``clone``."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from cosmodeck.games.meteor.rules_meteors import FieldMeteor

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState

_PLAIN = ("phase", "deck", "hands", "known", "sites", "built", "discard", "techs", "meteor_deck", "boss_box",
          "removed", "next_ref", "zone", "timer_end", "paused", "window", "countdowns", "passes", "powers",
          "challenges", "power_box", "challenge_box", "used", "zone_used", "last_place", "mulligan_used", "outcome")


def dump(st: MeteorState) -> dict[str, Any]:
    out = {name: copy.deepcopy(getattr(st, name)) for name in _PLAIN}
    out["field"] = [fm.to_json() for fm in st.field]
    return out


def load(st: MeteorState, core: dict[str, Any]) -> None:
    for name in _PLAIN:
        setattr(st, name, copy.deepcopy(core[name]))
    st.field = [FieldMeteor.from_json(d) for d in core["field"]]
    for name in ("timer_end",):
        v = getattr(st, name)
        setattr(st, name, None if v is None else float(v))
    st.last_place = [None if t is None else float(t) for t in st.last_place]


def copy_into(st: MeteorState, other: MeteorState) -> None:
    """``other`` is a shallow copy of ``st``: give it its own mutable containers."""
    other.deck = st.deck[:]
    other.hands = [h[:] for h in st.hands]
    other.known = [k[:] for k in st.known]
    other.sites = [[slot[:] for slot in seat] for seat in st.sites]
    other.built = [b[:] for b in st.built]
    other.discard = st.discard[:]
    other.techs = st.techs[:]
    other.meteor_deck = st.meteor_deck[:]
    other.boss_box = st.boss_box[:]
    other.field = [fm.copy() for fm in st.field]
    other.removed = [dict(r) for r in st.removed]
    other.paused = None if st.paused is None else dict(st.paused)
    other.window = None if st.window is None else copy.deepcopy(st.window)
    other.countdowns = [dict(cd, site=list(cd["site"])) for cd in st.countdowns]
    other.passes = st.passes[:]
    other.powers = st.powers[:]
    other.challenges = st.challenges[:]
    other.power_box = st.power_box[:]
    other.challenge_box = st.challenge_box[:]
    other.used = [u[:] for u in st.used]
    other.zone_used = [u[:] for u in st.zone_used]
    other.last_place = st.last_place[:]
    other.outcome = None if st.outcome is None else dict(st.outcome)
