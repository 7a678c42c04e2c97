"""The Meteor Field: meteors entering, being revealed and leaving (MET-2.2, MET-12.1, 6.4).

A meteor in the field is named by its handle ``m<n>``, given in order of entry, so that a
face-down meteor's identity never appears in views, legal actions or public events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.games.meteor.cards import ResourceCard

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState


class FieldMeteor:
    """A meteor card in the field with its public marks."""

    __slots__ = ("hit", "id", "ref", "shield_spent", "store", "tucked", "up")

    def __init__(self, ref: str, card_id: str, up: bool = False, shield_spent: bool = False, store: int = 0,
                 tucked: list[str] | None = None, hit: bool = False) -> None:
        self.ref = ref
        self.id = card_id
        self.up = up
        self.shield_spent = shield_spent
        self.store = store  # Cracked: stored damage
        self.tucked: list[str] = tucked if tucked is not None else []  # Cracked: rockets under it
        self.hit = hit

    def copy(self) -> FieldMeteor:
        return FieldMeteor(self.ref, self.id, self.up, self.shield_spent, self.store, self.tucked[:], self.hit)

    def to_json(self) -> dict[str, Any]:
        return {"ref": self.ref, "id": self.id, "up": self.up, "shield_spent": self.shield_spent,
                "store": self.store, "tucked": self.tucked, "hit": self.hit}

    @staticmethod
    def from_json(d: dict[str, Any]) -> FieldMeteor:
        return FieldMeteor(str(d["ref"]), str(d["id"]), bool(d["up"]), bool(d["shield_spent"]), int(d["store"]),
                           [str(x) for x in d["tucked"]], bool(d["hit"]))


def enters_face_up(st: MeteorState, meteor_id: str) -> bool:
    """First game (R14) and Tracking Station deal face up; Stealth never (6.4)."""
    if st.data.meteors[meteor_id].trait == "stealth":
        return False
    return bool(st.game.options["first_game"]) or st.has_tech("reveal_all_meteors")


def public(st: MeteorState, fm: FieldMeteor) -> dict[str, Any]:
    """What everyone sees of a field meteor (MET-D4)."""
    card = st.data.meteors[fm.id]
    out: dict[str, Any] = {"ref": fm.ref, "kind": card.kind, "back": list(card.back), "face_up": fm.up,
                           "hit": fm.hit, "shield_spent": fm.shield_spent, "store": fm.store,
                           "tucked": list(fm.tucked)}
    if fm.up:
        out.update(card.face(st.zone))
    return out


def enter_field(st: MeteorState, meteor_id: str) -> list[Event]:
    ref = f"m{st.next_ref}"
    st.next_ref += 1
    fm = FieldMeteor(ref, meteor_id, up=enters_face_up(st, meteor_id))
    st.field.append(fm)
    return [Event("meteor_entered", public(st, fm))]


def reveal(st: MeteorState, fm: FieldMeteor, why: str) -> list[Event]:
    """Turn a face-down meteor face up (not Stealth); Scorching acts on reveal (6.4)."""
    card = st.data.meteors[fm.id]
    if fm.up or card.trait == "stealth":
        return []
    fm.up = True
    events = [Event("revealed", {"why": why, **public(st, fm)})]
    if card.trait == "scorching":
        for s in range(st.players):
            if st.hands[s]:
                lost = st.hands[s][st.rng.randbelow(len(st.hands[s]))]
                st.take_from_hand(s, lost)
                st.discard.append(lost)
                events.append(Event("scorched", {"seat": s, "card": lost}))
    return events


def remove_meteor(st: MeteorState, fm: FieldMeteor, cause: str) -> list[Event]:
    """Remove from play (destroyed or burnt up); its tucked rockets are discarded (Cracked)."""
    st.field.remove(fm)
    st.discard.extend(fm.tucked)
    tucked, fm.tucked = fm.tucked, []
    card = st.data.meteors[fm.id]
    st.removed.append({"ref": fm.ref, "id": fm.id, "cause": cause, "zone": st.zone})
    return [Event("meteor_removed", {"ref": fm.ref, "cause": cause, "discarded": tucked, **card.face(st.zone)})]


def tech_effect(st: MeteorState, tech: ResourceCard) -> list[Event]:
    """R17: a technology acts as soon as it is completed."""
    from cosmodeck.games.meteor.rules_zones import flip_timer

    events: list[Event] = []
    if tech.effect == "reveal_all_meteors":
        for fm in list(st.field):
            if fm in st.field:
                events.extend(reveal(st, fm, "tracking_station"))
    elif tech.effect == "flip_active_timer_once" and st.timer_end is not None:
        events.extend(flip_timer(st))
    return events
