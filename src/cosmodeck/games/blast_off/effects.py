"""Mission effects (spec §6.3 "Effects"): automatic, on turns only (R12), in reveal order (R25)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cosmodeck.engine.events import Event
from cosmodeck.games.blast_off.cards import TYPE_NAME
from cosmodeck.games.blast_off.phases import CHOOSE
from cosmodeck.games.blast_off.rules_core import draw_cards, n_active, next_active

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def apply_effect(st: BlastOffState, mi: int, actor: int, may_pause: bool = True) -> list[Event]:
    """Apply one effect for ``actor``; ``swap_hands`` may pause for a ``CHOOSE`` decision."""
    m = st.mission(mi)
    kind = m.effect
    data = {"mission": m.id, "effect": kind, "seat": actor}
    if kind == "reverse":
        if n_active(st) == 2:  # R14
            if st.g.options["two_player_reverse"] == "play_again" and st.hands[actor]:
                st.extra = actor
                return [Event("effect", {**data, "result": "play_again"})]
            return [Event("effect", {**data, "result": "none"})]
        st.dir = -st.dir
        return [Event("effect", {**data, "dir": st.dir})]
    if kind == "skip_next":
        p = next_active(st, actor)
        st.skip[p] += 1
        return [Event("effect", {**data, "target": p})]
    if kind == "next_draws":
        p = next_active(st, actor)
        return [Event("effect", {**data, "target": p}), *draw_cards(st, p, m.effect_n, "effect")]
    if kind == "extra_turn":
        if not st.hands[actor]:
            return [Event("effect", {**data, "result": "void"})]  # 8.3
        st.extra = actor
        return [Event("effect", data)]
    if kind == "pass_hands":
        return pass_hands(st, data)
    # swap_hands
    if not st.hands[actor]:
        return [Event("effect", {**data, "result": "void"})]
    others = [s for s in range(st.players) if s != actor and st.hands[s]]
    if len(others) == 1 or not may_pause:
        return swap(st, actor, next_active(st, actor) if len(others) > 1 else others[0], m.id)
    st.phase = CHOOSE
    st.cur = actor
    if st.rt:
        st.dec_t = st.now + st.g.options["choose_timeout_s"]
    return [Event("choose_needed", {**data, "candidates": others})]


def _hand_events(st: BlastOffState, seats: list[int]) -> list[Event]:
    types = st.g.ctype
    return [Event("hand", {"seat": s, "count": len(st.hands[s])},
                  private={"cards": sorted(TYPE_NAME[types[c]] for c in st.hands[s])},
                  seats=frozenset((s,))) for s in seats]


def pass_hands(st: BlastOffState, data: dict[str, object]) -> list[Event]:
    """R24: every active player at once gives their hand to the next active player on their left."""
    d = 1 if st.g.options["pass_hands_direction"] == "left" else st.dir
    act = [s for s in range(st.players) if st.hands[s]]
    new = {next_active(st, s, d): (s, st.hands[s]) for s in act}
    for s in act:
        st.kby[s], st.hands[s] = new[s]
        st.known[s] = frozenset(st.hands[s])  # the giver saw these cards
    return [Event("effect", {**data, "direction": d}), *_hand_events(st, act)]


def swap(st: BlastOffState, actor: int, target: int, mission_id: str) -> list[Event]:
    st.hands[actor], st.hands[target] = st.hands[target], st.hands[actor]
    st.known[actor] = frozenset(st.hands[actor])
    st.known[target] = frozenset(st.hands[target])
    st.kby[actor], st.kby[target] = target, actor
    return [Event("effect", {"mission": mission_id, "effect": "swap_hands", "seat": actor, "target": target}),
            *_hand_events(st, [actor, target])]
