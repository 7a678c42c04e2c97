"""Card census (conservation) and resampling of hidden information (MET-D4).

Hidden: the order of the Resource Deck, the Meteor Deck and the unused bosses; the
identity of face-down meteors (only their back is public); the hands, except cards
everyone knows (shown by Open Book, returned from a site) and Backwards hands, which the
others see.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from cosmodeck.engine.rng import Rng

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState


def census(st: MeteorState) -> Counter[str]:
    """Every card id in every zone; constant over a game."""
    c: Counter[str] = Counter(st.deck)
    for h in st.hands:
        c.update(h)
    for seat in st.sites:
        for slot in seat:
            c.update(slot)
    c.update(st.discard)
    c.update(st.techs)
    c.update(st.meteor_deck)
    c.update(st.boss_box)
    for fm in st.field:
        c[fm.id] += 1
        c.update(fm.tucked)
    c.update(r["id"] for r in st.removed)
    if st.window is not None:
        for entry in st.window["launches"]:
            c.update(entry["cards"])
    c.update(p for p in st.powers if p is not None)
    c.update(p for p in st.challenges if p is not None)
    c.update(st.power_box)
    c.update(st.challenge_box)
    return c


def resample(st: MeteorState, owner: int | None, rng: Rng) -> MeteorState:
    """A clone whose secrets are re-drawn consistently with what the others know."""
    other = st.clone()
    if owner is None:
        rng.shuffle(other.deck)
        _resample_meteors(other, rng)
        return other
    if other.has_challenge(owner, "backwards"):
        return other  # the others see a Backwards hand: nothing of it is secret from them
    hand = other.hands[owner]
    known = Counter(other.known[owner])
    keep: list[str] = []
    pool = list(other.deck)
    for card in hand:
        if known[card]:
            known[card] -= 1
            keep.append(card)
        else:
            pool.append(card)
    rng.shuffle(pool)
    fresh = [pool.pop() for _ in range(len(hand) - len(keep))]
    # Keep the known cards where they were; fill the other positions with fresh cards.
    it = iter(fresh)
    kept = Counter(keep)
    new_hand: list[str] = []
    for card in hand:
        if kept[card]:
            kept[card] -= 1
            new_hand.append(card)
        else:
            new_hand.append(next(it))
    other.hands[owner] = new_hand
    other.deck = pool
    return other


def _resample_meteors(st: MeteorState, rng: Rng) -> None:
    """Face-down meteors swap identities with unseen meteors of the same back and kind.

    A face-down meteor that was hit, or that stays face down in a first game or under the
    Tracking Station, is known to be Stealth and keeps its identity.
    """
    data = st.data
    all_up = bool(st.game.options["first_game"]) or st.has_tech("reveal_all_meteors")
    slots = [] if all_up else [fm for fm in st.field if not fm.up and not fm.hit]
    groups: dict[tuple[str, tuple[int, int]], list[str]] = {}
    for mid in [fm.id for fm in slots] + st.meteor_deck + st.boss_box:
        card = data.meteors[mid]
        groups.setdefault((card.kind, card.back), []).append(mid)
    for ids in groups.values():
        rng.shuffle(ids)
    for fm in slots:
        card = data.meteors[fm.id]
        fm.id = groups[(card.kind, card.back)].pop()
    rest = [mid for ids in groups.values() for mid in ids]
    st.meteor_deck = [m for m in rest if data.meteors[m].kind == "standard"]
    st.boss_box = [m for m in rest if data.meteors[m].kind == "boss"]
    rng.shuffle(st.meteor_deck)
    rng.shuffle(st.boss_box)
