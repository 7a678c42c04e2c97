"""BLO-12.8 with BLO-13: a kept drawn card reveals nothing the other seats could not see at the table.

Under ``drawn_card_play=must`` with a restriction in force (catch mode), a drawn card that matches but
breaks the restriction may be played (a violation) or kept, so the engine asks. A card that is not
playable at all must wait for the same public decision, or the pause itself would tell everyone which
kind of card was kept.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.phases import DRAWN
from cosmodeck.games.blast_off.state import BlastOffState
from tests.blast_off.helpers import game, hand, legal, stack, steps, types

SMALL = ["O2 R3", "O5 R6", "O8 R2", "O10 R10", "O6 R5", "O3 R8"]
HANDS = {1: "R2 O9", 2: "O1 O3", 3: "R1 R5", 0: "O4 O6"}


def _draw_and_keep(st: BlastOffState, at: float | None) -> list[str]:
    """Seat ``st.cur`` draws; a DRAWN decision that allows it is answered with keep. Event types."""
    seat = st.cur
    ev = st.apply(seat, "draw", at=at)
    if st.phase == DRAWN and "keep" in legal(st, seat):
        ev += st.apply(seat, "keep", at=at)
    return types(ev)


def _others(st: BlastOffState, seat: int) -> list[dict[str, Any]]:
    return [st.view(s) for s in [None, *range(st.players)] if s != seat]


def test_BLO_12_8_BLO_13_kept_r9_and_kept_p7_look_the_same_to_everyone_else() -> None:
    for make, at in ((steps, None), (game, 0.5)):
        seen = []
        for card in ("R9", "P7"):
            st = stack(make(), hands=HANDS, top="G7", draw=f"{card} O8", inforce=("M10",))
            st.apply(1, "draw", at=at)
            assert st.view(None)["decision"] == {"kind": "drawn", "seat": 1, "deadline": None}
            assert st.view(2)["drawn"] is None and st.view(1)["drawn"] == card
            choices = sorted(a for a in legal(st, 1) if not a.startswith("catch"))
            assert choices == (["keep", "play P7"] if card == "P7" else ["keep"])
            st.apply(1, "keep", at=at)
            assert card in hand(st, 1) and st.view(None)["top"]["face"] == "G7"
            seen.append(_others(st, 1))
        assert seen[0] == seen[1]


def test_BLO_12_8_without_a_restriction_or_in_assist_mode_an_unplayable_card_is_kept_at_once() -> None:
    st = stack(steps(), hands=HANDS, top="G7", draw="R9")
    assert "kept" in types(st.apply(1, "draw")) and st.cur == 2
    st = stack(steps(mission_enforcement="assist"), hands=HANDS, top="G7", draw="P7", inforce=("M10",))
    assert "kept" in types(st.apply(1, "draw"))


def test_BLO_13_resampling_a_drawn_decision_redraws_the_drawn_card_among_cards_that_would_wait() -> None:
    st = stack(steps(), hands=HANDS, top="G7", draw="R9 O5 R6 P2 P3 P7 O8 R10 P10 G1 G3", inforce=("M10",))
    st.apply(1, "draw")
    drawn = set()
    for r in range(40):
        twin = st.resample_hidden(1, Rng(r))
        assert twin.drawn == twin.hands[1][-1] and twin.census() == st.census()
        assert twin.phase == DRAWN and "keep" in legal(twin, 1)  # never a card the engine plays at once
        assert [twin.view(s) for s in (None, 0, 2, 3)] == [st.view(s) for s in (None, 0, 2, 3)]
        drawn.add(twin.g.ctype[twin.drawn])
    assert len(drawn) > 5


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**31), players=hs.integers(2, 6), realtime=hs.booleans(),
       top=hs.sampled_from(["G1", "G4", "G7", "G10", "BO-G", "P3", "O7"]))
def test_BLO_13_histories_that_differ_only_in_the_kept_card_give_identical_views(
        seed: int, players: int, realtime: bool, top: str) -> None:
    """No-leak over a trajectory: the draw pile is resampled (so the card drawn and kept differs), the
    same public actions follow (draw, then keep), and every seat but the drawer sees the same thing."""
    g = game(voluntary_draw=True) if realtime else steps(voluntary_draw=True)
    start = stack(g, players, hands={s: SMALL[s] for s in range(players)}, top=top, inforce=("M10",), cur=1,
                  seed=seed)
    at = 1.0 if realtime else None
    kept: list[list[dict[str, Any]]] = []
    for r in range(24):
        twin = start.resample_hidden(None, Rng(seed + r))
        if "kept" in _draw_and_keep(twin, at):
            kept.append(_others(twin, 1))
    assert kept
    assert all(k == kept[0] for k in kept[1:])
