"""The default missions' effects and obligations (§6.2, §6.3), in both timings."""

from __future__ import annotations

import pytest

from tests.blast_off.helpers import finish_responses, game, hand, legal, stack, steps, types


def test_M03_wild_makes_the_next_player_skip() -> None:
    st = stack(steps(), hands={1: "W O1", 2: "G2 O2", 3: "O3 O4", 0: "O5"}, top="O9", inforce=("M03",))
    st.apply(1, "play W[O4]")
    ev = finish_responses(st)
    assert "turn_skipped" in types(ev) and st.cur == 3 and st.skip == [0, 0, 0, 0]


def test_M14_wormhole_choose_in_steps_and_timeout_in_real_time() -> None:
    st = stack(steps(), hands={1: "O9 O1", 2: "G2 G3 G4", 3: "P3", 0: "R5 R6"}, top="O7", inforce=("M14",))
    st.apply(1, "play O9")
    assert st.view(None)["phase"] == "CHOOSE" and legal(st, 1) == ["choose 0", "choose 2", "choose 3"]
    st.apply(1, "choose 2")
    assert hand(st, 1) == ["G2", "G3", "G4"] and hand(st, 2) == ["O1"]
    finish_responses(st)
    assert st.cur == 2
    st = stack(game(), hands={1: "O9 O1", 2: "G2 G3 G4", 3: "P3", 0: "R5 R6"}, top="O7", inforce=("M14",))
    st.apply(1, "play O9", at=0.0)
    assert st.next_deadline() == pytest.approx(10.0) and st.to_act == {0, 1, 2, 3}
    ev = st.advance(10.0)
    assert "timeout" in types(ev) and hand(st, 2) == ["O1"] and st.cur == 2


def test_M16_gravity_assist_extra_turn_then_skip_marks() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "W O1 O2", 2: "G2", 3: "P3", 0: "R5"}, top="O7",
               inforce=("M16", "M03"))
    st.apply(1, "play W[O1]")  # M16: a 1 (the face) gives another turn; M03 marks P2 after it
    finish_responses(st)
    assert st.cur == 1 and st.skip[2] == 1
    st.apply(1, "play O2")
    ev = finish_responses(st)
    assert "turn_skipped" in types(ev) and st.cur == 3 and st.skip[2] == 0


def test_M07_refuel_is_owed_by_a_drawing_player() -> None:
    st = stack(steps(), hands={1: "G2 G3", 2: "O2", 3: "O3", 0: "O4"}, top="R9", draw="P5", inforce=("M07",))
    st.apply(1, "draw")
    assert st.view(1)["obligations"][0]["token"] == "REFUEL"
    ev = finish_responses(st, {1: ["announce REFUEL"]})
    assert "violation" not in types(ev)


def test_M09_salute_every_other_player_gestures() -> None:
    st = stack(steps(), hands={1: "BO-R O1", 2: "O2", 3: "O3", 0: "O4"}, top="R9", inforce=("M09",))
    st.apply(1, "play BO-R")
    assert [st.view(s)["obligations"][0]["token"] for s in (0, 2, 3)] == ["SALUTE"] * 3
    ev = finish_responses(st, {0: ["gesture SALUTE"], 2: ["gesture SALUTE"]})
    assert [e.data["seat"] for e in ev if e.type == "violation"] == [3]


def test_M12_last_stage_and_M13_colour_call() -> None:
    st = stack(steps(), hands={1: "R2 O1", 2: "O2", 3: "O3", 0: "O4"}, top="R9", inforce=("M12",))
    st.apply(1, "play R2")
    assert st.view(1)["obligations"][0]["token"] == "LAST_STAGE"
    st = stack(steps(), hands={1: "R2 O1", 2: "O2", 3: "O3", 0: "O4"}, top="R9", inforce=("M13",))
    st.apply(1, "play R2")
    assert st.view(1)["obligations"][0]["expect"] == "RED"
    assert {"announce COLOUR RED", "announce COLOUR GREEN"} <= set(legal(st, 1))
    assert "violation" in types(finish_responses(st, {1: ["announce COLOUR GREEN"]}))


def test_M06_count_after_out_of_control_pass_hands() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "O6 O1", 2: "G2 G3 G4", 3: "P3", 0: "R5 R6"},
               top="O9", inforce=("M04", "M06"))
    st.apply(1, "play O6")  # M06 is on 3s: nothing; M04 passes hands
    assert hand(st, 1) == ["R5", "R6"] and st.view(1)["obligations"] == []
    st = stack(steps(mission_out_of_control=True), hands={1: "W O1", 2: "G2 G3 G4", 3: "P3", 0: "R5 R6"},
               top="O9", inforce=("M04", "M06"))
    st.apply(1, "play W[G3]")  # odd 3: no pass; M06: say the count left (1)
    assert st.view(1)["obligations"][0]["expect"] == "1" and hand(st, 1) == ["O1"]


def test_M10_restriction_applies_to_turns_not_countdowns() -> None:
    st = stack(steps(mission_enforcement="assist"), hands={1: "CD O1", 2: "P10 G1", 3: "O3", 0: "O4"},
               discard="O9 G10", inforce=("M10",))
    st.apply(1, "play CD")
    finish_responses(st)
    assert "slap P10 10" in legal(st, 2)
