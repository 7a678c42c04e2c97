"""BLO-4 turns: matching, Wilds, draws, reshuffles (scenarios S1-S5, S7, S23)."""

from __future__ import annotations

import pytest

from cosmodeck.engine.errors import IllegalActionError
from tests.blast_off.helpers import game, hand, legal, stack, steps, types


def test_BLO_S1_BLO_4_1_2_match_by_colour_number_or_word() -> None:
    st = stack(game(), hands={1: "G7 O2 R9 BO-P"}, top="O7")
    assert sorted(legal(st, 1)) == ["play G7", "play O2"]
    for text, code in (("play R9", "no_match"), ("play BO-P", "no_match"), ("draw", "has_match")):
        with pytest.raises(IllegalActionError) as e:
            st.apply(1, text)
        assert e.value.code == code
    st = stack(game(), hands={1: "BO-R P4"}, top="BO-G")
    assert legal(st, 1) == ["play BO-R"]
    assert not st.is_legal(1, "play P4")


def test_BLO_4_1_1_BLO_4_0_2_a_match_ends_the_turn_one_card_only() -> None:
    st = stack(game(), hands={1: "G7 O2 R9", 2: "G1 G2"}, top="O7")
    st.apply(1, "play G7")
    assert hand(st, 1) == ["O2", "R9"] and st.cur == 2 and st.to_act == {2}
    assert st.view(None)["top"]["face"] == "G7"


def test_BLO_4_0_1_left_of_the_dealer_starts_and_play_passes_left() -> None:
    g = game(dealer=2)
    st = g.new_game(4, seed=3)
    if st.phase == 3:  # a Wild starter: the dealer declares first (3.7)
        st.apply(2, "declare R4")
    assert st.cur == 3
    st2 = stack(game(), hands={1: "O1 O9", 2: "O2 O8"}, top="O7", cur=1)
    st2.apply(1, "play O1")
    assert st2.cur == 2


def test_BLO_S2_BLO_4_2_wild_takes_its_declared_face() -> None:
    st = stack(game(), hands={1: "W O1", 2: "R3 P9 G7"}, top="O7")
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "play W")
    assert e.value.code == "declaration_required"
    st.apply(1, "play W[P3]")
    v = st.view(None)
    assert v["top"] == {"card": "W", "face": "P3", "colour": "PURPLE", "value": 3}
    assert sorted(legal(st, 2)) == ["play P9", "play R3"]


def test_BLO_4_2_wild_can_declare_the_word_and_plays_on_anything() -> None:
    st = stack(game(), hands={1: "W G2"}, top="R4")
    assert "play W[GBO]" in legal(st, 1) and "draw" in legal(st, 1)
    st.apply(1, "play W[GBO]")
    assert (st.fcol, st.fval) == (1, 11)


def test_BLO_S3_BLO_4_4_2_drawn_playable_card_must_be_played() -> None:
    st = stack(game(), hands={1: "G2 O9", 2: "O1"}, top="R4", draw="R8 P6")
    assert legal(st, 1) == ["draw"]
    ev = st.apply(1, "draw")
    assert "played" in types(ev) and hand(st, 1) == ["G2", "O9"]
    assert st.view(None)["top"]["card"] == "R8" and st.cur == 2


def test_BLO_S3_BLO_4_4_2_BLO_R18_drawn_card_play_may_keeps_a_choice() -> None:
    st = stack(game(drawn_card_play="may"), hands={1: "G2 O9", 2: "O1"}, top="R4", draw="R8 P6")
    st.apply(1, "draw")
    assert st.view(1)["drawn"] == "R8" and st.view(2)["drawn"] is None
    assert sorted(legal(st, 1)) == ["keep", "play R8"]
    st.apply(1, "keep")
    assert hand(st, 1) == ["G2", "O9", "R8"] and st.cur == 2


def test_BLO_S4_BLO_4_4_2_unplayable_drawn_card_is_kept() -> None:
    st = stack(game(), hands={1: "G2 O9", 2: "O1"}, top="R4", draw="P6")
    ev = st.apply(1, "draw")
    assert "kept" in types(ev) and hand(st, 1) == ["G2", "O9", "P6"]
    assert st.view(None)["top"]["face"] == "R4" and st.cur == 2


def test_BLO_S4_BLO_4_4_2_drawn_wild_must_be_declared_and_drawn_countdown_starts() -> None:
    st = stack(game(), hands={1: "G2 O9", 2: "O1"}, top="R4", draw="W")
    st.apply(1, "draw")
    opts = legal(st, 1)
    assert "keep" not in opts and len(opts) == 44 and st.view(None)["phase"] == "DRAWN"
    st.apply(1, "play W[G9]")
    assert (st.fcol, st.fval) == (1, 9) and st.cur == 2
    st = stack(game(), hands={1: "G2 O9", 2: "O1"}, top="R4", draw="CD")
    ev = st.apply(1, "draw")
    assert "countdown_started" in types(ev) and st.view(None)["phase"] == "COUNTDOWN"


def test_BLO_4_4_1_BLO_R18_draw_only_without_a_match_voluntary_draw_option() -> None:
    st = stack(game(), hands={1: "W CD G5"}, top="R4")
    assert "draw" in legal(st, 1)  # a Wild or a Countdown card does not prevent drawing
    st = stack(game(), hands={1: "R5"}, top="R4")
    assert legal(st, 1) == ["play R5"]
    st = stack(game(voluntary_draw=True), hands={1: "R5"}, top="R4")
    assert legal(st, 1) == ["play R5", "draw"]


def test_BLO_S5_BLO_4_5_1_reshuffle_keeps_the_top_and_clears_declarations() -> None:
    st = stack(game(drawn_card_play="may"), hands={2: "R2 P5"}, discard="O3 W[G3] G8 G1", draw="", cur=2)
    ev = st.apply(2, "draw")
    assert types(ev)[:2] == ["reshuffled", "drew"]
    v = st.view(None)
    assert v["draw_pile"] == 2 and v["discard"] == [{"card": "G1", "face": "G1"}]
    assert v["top"]["face"] == "G1" and st.wface == {}
    assert len(st.hands[2]) == 3


def test_BLO_4_5_1_BLO_R19_the_reshuffle_is_lazy() -> None:
    st = stack(game(), hands={1: "O1 O2", 2: "O3 O4"}, discard="G5 O7", draw="", cur=1)
    st.apply(1, "play O1")
    assert st.view(None)["draw_pile"] == 0 and len(st.disc) == 3  # no card needed, no reshuffle


def test_BLO_4_5_2_BLO_R10_nothing_to_reshuffle_draw_becomes_pass() -> None:
    st = stack(game(), hands={1: "G2", 2: "R3"}, top="O1", draw="", cur=1)
    assert legal(st, 1) == ["pass"]
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "draw")
    assert e.value.code == "nothing_to_draw"
    st.apply(1, "pass")
    assert st.cur == 2 and st.passes == 1


def test_BLO_S23_BLO_8_4_BLO_R10_stalemate_ranks_by_fewest_cards() -> None:
    st = stack(game(), 3, hands={0: "G2 G3", 1: "R5 P6 G9", 2: "P7 P8"}, top="O1", draw="", cur=1)
    for seat in (1, 2, 0):
        st.apply(seat, "pass")
    assert st.is_over and st.result is not None
    assert st.result.reason == "stalemate"
    assert st.result.ranking == ((0, 2), (1,)) and st.result.winners == {0, 2}


def test_BLO_4_5_3_BLO_R11_short_effect_draw_takes_what_exists() -> None:
    st = stack(game(), hands={1: "R4 O1", 2: "G1 G2"}, discard="G4", draw="", cur=1, inforce=("M11",))
    st.apply(1, "play R4")  # M11 Docking: same number, different colour: next draws 1
    assert len(st.hands[2]) == 3 and st.view(None)["draw_pile"] == 0


def test_BLO_S7_BLO_R13_BLO_7_1_blast_off_card_outside_a_countdown_is_ordinary() -> None:
    st = stack(game(), hands={1: "BO-G O1", 2: "BO-R G9 R1"}, top="G4", inforce=("M01",))
    before = list(st.mdeck)
    ev = st.apply(1, "play BO-G")
    assert "mission_revealed" not in types(ev) and st.mdeck == before
    assert {"play BO-R", "play G9"} <= set(legal(st, 2)) and "play R1" not in legal(st, 2)


def test_BLO_S9_BLO_4_1_3_BLO_R1_countdown_card_on_top_is_a_free_lead() -> None:
    st = stack(steps(), hands={2: "CD O1", 3: "R9 P2 W", 0: "G1", 1: "G2"}, top="O7", cur=2)
    st.apply(2, "play CD")
    from tests.blast_off.helpers import run_countdown

    run_countdown(st, {})
    assert st.view(None)["top"]["face"] == "--" and st.cur == 3
    opts = legal(st, 3)
    assert "play R9" in opts and "play P2" in opts and "draw" not in opts


def test_BLO_4_3_1_countdown_card_plays_on_anything_and_starts_a_countdown() -> None:
    st = stack(game(), hands={1: "CD O1"}, top="G4")
    assert "play CD" in legal(st, 1)
    ev = st.apply(1, "play CD")
    assert types(ev)[:2] == ["played", "countdown_started"]


def test_BLO_4_3_2_BLO_R9_countdown_card_as_last_card_goes_out_at_once() -> None:
    st = stack(game(), hands={1: "CD", 2: "O1"}, top="G4")
    ev = st.apply(1, "play CD")
    assert st.is_over and "countdown_started" not in types(ev) and st.result is not None
    assert st.result.winners == {1}
    st = stack(game(play_for_places=True), 3, hands={1: "CD", 2: "O1 O2", 0: "O3"}, top="G4")
    ev = st.apply(1, "play CD")
    assert not st.is_over and "countdown_started" in types(ev) and st.placings == [1]
