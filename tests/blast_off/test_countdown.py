"""BLO-5, 6, 10, 11: the countdown race, in real time and as turn-based steps (S8-S15)."""

from __future__ import annotations

from collections import Counter

import pytest

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.games.blast_off.phases import COUNTDOWN
from tests.blast_off.helpers import finish_responses, game, hand, legal, public, run_countdown, stack, steps, types

TICK = 1.2


def call(v: int | str, start: float = 0.0, frm: int = 10) -> float:
    """Game time at which value ``v`` is called (real time, default tick)."""
    idx = frm if v == "BO" else frm - int(v)
    return start + TICK * (idx + 1)


def test_BLO_5_1_BLO_10_2_countdown_started_then_one_call_per_tick() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "G1"}, top="G4")
    ev = st.apply(1, "play CD", at=0.0)
    assert [e.data for e in ev if e.type == "countdown_started"] == [{"seat": 1, "from": 10}]
    assert st.next_deadline() == pytest.approx(TICK)
    called = []
    while st.phase == COUNTDOWN:
        for e in st.advance(st.next_deadline() or 0.0):
            if e.type == "countdown_called":
                called.append(e.data["value"])
    assert called == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, "BO"]
    assert st.now == pytest.approx(call("BO") + TICK)


def test_BLO_5_2_M15_launch_hold_starts_the_count_lower() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "G1"}, top="G4", inforce=("M15",))
    ev = finish_responses(st) + st.apply(1, "play CD") + finish_responses(st)
    assert [e.data["from"] for e in ev if e.type == "countdown_started"] == [5]
    assert st.cd_seq == (5, 4, 3, 2, 1, 11)


def test_BLO_S8_BLO_5_7_BLO_6_3_BLO_6_5_skipped_numbers_no_blast_off() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "R9 G3 O10", 3: "O8 P2 R10", 0: "G5 P10"}, top="O7",
               inforce=("M07",))
    st.apply(1, "play CD")
    finish_responses(st)
    ev = run_countdown(st, {9: {2: "R9"}, 8: {3: "O8"}, 3: {2: "G3"}, 2: {3: "P2"}})
    skipped = [e.data["value"] for e in ev if e.type == "value_skipped"]
    assert skipped == [10, 7, 6, 5, 4, 1, "BO"]
    assert st.view(None)["top"]["card"] == "P2" and "mission_revealed" not in types(ev)
    assert st.view(None)["missions_in_force"][0]["id"] == "M07" and st.cur == 0
    assert hand(st, 0) == ["G5", "P10"]  # R6: P0 did not slap its 5


def test_BLO_S10_BLO_5_9_BLO_R7_play_resumes_left_of_the_last_countdown_player() -> None:
    st = stack(steps(), hands={2: "CD O1", 1: "O6 G1", 3: "R2", 0: "R3"}, top="O7", cur=2)
    st.apply(2, "play CD")
    run_countdown(st, {6: {1: "O6"}})
    assert st.cur == 2 and st.view(None)["top"]["card"] == "O6"


def test_BLO_S9_BLO_R7_BLO_5_9_nobody_slaps_resume_left_of_the_rocket_player() -> None:
    st = stack(steps(), hands={2: "CD O1", 1: "O6 G1", 3: "R2", 0: "R3"}, top="O7", cur=2)
    st.apply(2, "play CD")
    run_countdown(st, {})
    assert st.cur == 3 and st.view(None)["top"]["face"] == "--"


def test_BLO_S11_BLO_5_4_BLO_10_3_first_valid_slap_wins_later_ones_bounce() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O6 O2", 3: "G6 G2", 0: "W O3"}, top="G4")
    st.apply(1, "play CD", at=0.0)
    t6 = call(6)
    st.apply(2, "slap O6 6", at=t6 + 0.30)
    ev = st.apply(3, "slap G6 6", at=t6 + 0.32)
    assert public(ev) == [{"type": "slap_bounced", "seat": 3, "value": 6}]
    assert hand(st, 3) == ["G2", "G6"] and hand(st, 2) == ["O2"]
    ev = st.apply(0, "slap W 6", at=t6 + 0.9)
    assert types(ev) == ["slap_bounced"] and "W" in hand(st, 0)
    assert st.view(None)["countdown"]["slots"] == {"6": 2}


def test_BLO_S11_BLO_11_2_turn_based_collision_is_a_fair_chance() -> None:
    wins: Counter[int] = Counter()
    for seed in range(300):
        st = stack(steps(), hands={1: "CD O1", 2: "O6 O2", 3: "G6 G2", 0: "O3"}, top="G4", seed=seed)
        st.apply(1, "play CD")
        ev = run_countdown(st, {6: {2: "O6", 3: "G6"}})
        bounced = [e.data["seat"] for e in ev if e.type == "slap_bounced"]
        winner = {2, 3} - set(bounced)
        assert len(bounced) == 1 and len(winner) == 1
        wins[winner.pop()] += 1
    assert 110 <= wins[2] <= 190


def test_BLO_11_2_reaction_time_option_favours_the_faster_seat() -> None:
    wins: Counter[int] = Counter()
    for seed in range(60):
        g = steps(reaction_time=[[1.0, 0.3], [1.0, 0.3], [1.0, 0.3], [0.2, 0.3]])
        st = stack(g, hands={1: "CD O1", 2: "O6 O2", 3: "G6 G2", 0: "O3"}, top="G4", seed=seed)
        st.apply(1, "play CD")
        ev = run_countdown(st, {6: {2: "O6", 3: "G6"}})
        wins[2 if 2 not in [e.data["seat"] for e in ev if e.type == "slap_bounced"] else 3] += 1
    assert wins[3] > 50


def test_BLO_S12_BLO_6_2_BLO_R3_wild_mid_countdown_stands_for_the_called_number() -> None:
    st = stack(steps(), hands={1: "W O1", 2: "CD O9", 3: "G4 P9 W CD", 0: "R3"}, top="O7", cur=2)
    st.apply(2, "play CD")
    run_countdown(st, {4: {1: "W"}})
    v = st.view(None)
    assert v["top"]["face"] == "-4" and st.cur == 2 and v["discard"][-1] == {"card": "W", "face": "-4"}
    st2 = stack(game(), hands={3: "G4 P9 W CD"}, discard="O7 W[-4]", cur=3)
    opts = legal(st2, 3)
    assert "play G4" in opts and "play CD" in opts and "play W[R1]" in opts and "play P9" not in opts


def test_BLO_S12_BLO_10_3_realtime_wild_for_a_wrong_value_is_rejected_privately() -> None:
    st = stack(game(), hands={1: "W O1", 2: "CD O9"}, top="O7", cur=2)
    st.apply(2, "play CD", at=0.0)
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "slap W 5", at=call(4) + 0.1)
    assert e.value.code == "wrong_value" and hand(st, 1) == ["O1", "W"]
    st.apply(1, "slap W 4", at=call(4) + 0.2)
    assert st.view(None)["top"]["face"] == "-4"


def test_BLO_S13_BLO_6_4_BLO_R4_BLO_7_1_wild_in_the_blast_off_slot_reveals_and_declares() -> None:
    st = stack(steps(), hands={1: "CD O1", 3: "W G3 R7", 0: "R2 O5", 2: "O4"}, top="O9", cur=1,
               inforce=("M01",), mdeck=("M05", "M06"))
    st.apply(1, "play CD")
    finish_responses(st)
    run_countdown(st, {3: {3: "G3"}, "BO": {3: "W"}})
    assert st.view(None)["phase"] == "DECLARE" and st.to_act == {3}
    assert len(legal(st, 3)) == 44
    ev = st.apply(3, "declare R2")
    revealed = [e.data for e in ev if e.type == "mission_revealed"]
    assert revealed[0]["mission"] == "M05" and revealed[0]["replaced"] == ["M01"]
    finish_responses(st)
    assert st.cur == 0 and st.view(None)["top"]["face"] == "R2"
    assert [m["id"] for m in st.view(None)["missions_discarded"]] == ["M01"]


def test_BLO_S13_BLO_10_7_BLO_R27_undeclared_wild_defaults_to_colour_beneath_and_the_word() -> None:
    st = stack(game(), hands={1: "CD O1", 3: "W G3 R7", 0: "R2 O5", 2: "O4"}, top="O9", cur=1,
               mdeck=("M05",))
    st.apply(1, "play CD", at=0.0)
    st.apply(3, "slap G3 3", at=call(3) + 0.1)
    ev = st.apply(3, "slap W BO", at=call("BO") + 0.1)
    assert "mission_revealed" not in types(ev)  # 10.7: the reveal waits for the declaration
    assert st.next_deadline() == pytest.approx(call("BO") + 0.1 + 5.0)
    ev = st.advance(call("BO") + 6.0)
    assert "mission_revealed" in types(ev) and st.view(None)["top"]["face"] == "GBO"
    assert st.cur == 0


def test_BLO_10_7_declaration_can_come_with_the_slap() -> None:
    st = stack(game(), hands={1: "CD O1", 3: "W G3 R7", 0: "R2 O5", 2: "O4"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    assert "slap W[R2] BO" not in legal(st, 3)
    st.advance(call("BO") + 0.01)
    assert "slap W[R2] BO" in legal(st, 3)
    ev = st.apply(3, "slap W[R2] BO", at=call("BO") + 0.1)
    assert "mission_revealed" in types(ev) and st.view(None)["top"]["face"] == "R2" and st.cur == 0


def test_BLO_S14_BLO_6_1_BLO_R5_countdown_card_and_wrong_cards_are_rejected_privately() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "CD BO-R O7 O2", 3: "G1"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    t = call(7) + 0.1
    st.advance(t)
    for text, code in (("slap CD 7", "countdown_in_countdown"), ("slap BO-R 7", "not_eligible")):
        with pytest.raises(IllegalActionError) as e:
            st.apply(2, text, at=t)
        assert e.value.code == code and e.value.events == []
    assert len(st.hands[2]) == 4
    st.apply(2, "slap O7 7", at=t + 0.1)
    assert hand(st, 2) == ["BO-R", "CD", "O2"]
    with pytest.raises(IllegalActionError) as e:
        st.apply(2, "slap O2 7", at=t + 0.2)
    assert e.value.code == "not_your_turn" and 2 not in st.to_act  # R5: one card per value


def test_BLO_S15_BLO_R8_BLO_8_1_going_out_in_a_countdown_ends_the_game_at_once() -> None:
    st = stack(game(), hands={1: "CD O1", 3: "O5", 0: "R2", 2: "O4"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    ev = st.apply(3, "slap O5 5", at=call(5) + 0.1)
    assert st.is_over and st.result is not None and st.result.winners == {3}
    assert st.next_deadline() is None and "mission_revealed" not in types(ev)


def test_BLO_S15_BLO_8_2_with_places_the_countdown_continues() -> None:
    st = stack(game(play_for_places=True), hands={1: "CD O1", 3: "O5", 0: "R2 R3", 2: "O4 O3"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    st.apply(3, "slap O5 5", at=call(5) + 0.1)
    assert not st.is_over and st.placings == [3] and st.phase == COUNTDOWN
    st.apply(2, "slap O4 4", at=call(4) + 0.1)
    assert 3 not in st.to_act and st.view(None)["countdown"]["slots"] == {"5": 3, "4": 2}


def test_BLO_5_3_BLO_R5_BLO_R6_every_active_player_incl_rocket_may_slap_once_per_value() -> None:
    st = stack(game(), hands={1: "CD O6 G6", 2: "R6"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    st.advance(call(6) + 0.01)
    assert st.to_act == {1, 2} and "slap O6 6" in legal(st, 1) and "pass" in legal(st, 1)
    st.apply(1, "slap O6 6", at=call(6) + 0.1)
    assert 1 not in st.to_act and legal(st, 1) == []
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "slap G6 5", at=call(6) + 0.2)
    assert e.value.code in ("not_your_turn", "wrong_value")


def test_BLO_5_5_one_player_may_fill_any_number_of_values() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "O9 G8 R7 P1", 3: "R2", 0: "R3"}, top="O9", cur=1)
    st.apply(1, "play CD")
    run_countdown(st, {9: {2: "O9"}, 8: {2: "G8"}, 7: {2: "R7"}})
    assert hand(st, 2) == ["P1"] and st.cur == 3


def test_BLO_5_6_BLO_10_4_any_colour_in_sequence_top_face_ignored() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "P10 W BO-G CD"}, top="O9", cur=1)
    st.apply(1, "play CD")
    assert legal(st, 2) == ["pass", "slap P10 10", "slap W 10"]
    st.apply(2, "slap P10 10")
    for s in sorted(st.to_act):
        st.apply(s, "pass")
    while st.cd_seq[st.cd_idx] != 11:
        for s in sorted(st.to_act):
            st.apply(s, "pass")
    assert set(legal(st, 2)) == {"pass", "slap W BO", "slap BO-G BO"}


def test_BLO_5_8_BLO_7_1_blast_off_card_in_the_slot_turns_a_mission() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9", cur=1, mdeck=("M07", "M01"))
    st.apply(1, "play CD")
    ev = run_countdown(st, {"BO": {2: "BO-G"}})
    assert [e.data["mission"] for e in ev if e.type == "mission_revealed"] == ["M07"]
    assert st.view(None)["missions_in_force"][0]["id"] == "M07" and st.cur == 3


def test_BLO_5_10_after_the_countdown_the_top_face_is_the_last_card_played() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "G8 R3", 3: "P5 O7", 0: "R2"}, top="O9", cur=1)
    st.apply(1, "play CD")
    run_countdown(st, {8: {2: "G8"}, 5: {3: "P5"}})
    assert st.view(None)["top"]["face"] == "P5" and st.cur == 0


def test_BLO_6_1_no_countdown_card_during_a_countdown_steps() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "CD O2"}, top="O9", cur=1)
    st.apply(1, "play CD")
    assert all("CD" not in a for a in legal(st, 2))
    with pytest.raises(IllegalActionError) as e:
        st.apply(2, "slap CD 10")
    assert e.value.code == "countdown_in_countdown"


def test_BLO_10_3_a_b_c_accepted_bounced_rejected() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O9 R9 O8", 3: "G9 G1"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    with pytest.raises(IllegalActionError) as e:  # (c) early: no value called yet
        st.apply(2, "slap O9 9", at=0.5)
    assert e.value.code == "not_your_turn" and st.to_act == frozenset()
    st.advance(call(10) + 0.5)
    with pytest.raises(IllegalActionError) as e:  # (c) early value
        st.apply(2, "slap O9 9", at=call(10) + 0.6)
    assert e.value.code == "wrong_value"
    st.advance(call(9) + 0.05)
    assert types(st.apply(2, "slap O9 9", at=call(9) + 0.1)) == ["slap_accepted"]  # (a)
    assert types(st.apply(3, "slap G9 9", at=call(9) + 0.2)) == ["slap_bounced"]  # (b)
    with pytest.raises(IllegalActionError) as e:  # (c) a skipped slot / passed value
        st.apply(2, "slap R9 9", at=call(7) + 0.1)
    assert e.value.code == "wrong_value"


def test_BLO_10_5_fast_pace_ends_a_value_once_filled() -> None:
    st = stack(game(countdown_pace="fast"), hands={1: "CD O1", 2: "O9 R8"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    ev = st.apply(2, "slap O9 9", at=call(9) + 0.1)
    after = types(ev)[types(ev).index("slap_accepted"):]
    assert after == ["slap_accepted", "countdown_called"] and ev[-1].data["value"] == 8
    assert st.next_deadline() == pytest.approx(call(9) + 0.1 + TICK)
    st2 = stack(game(), hands={1: "CD O1", 2: "O9 R8"}, top="O9", cur=1)
    st2.apply(1, "play CD", at=0.0)
    ev = st2.apply(2, "slap O9 9", at=call(9) + 0.1)
    assert types(ev)[-1] == "slap_accepted" and st2.next_deadline() == pytest.approx(call(8))


def test_BLO_10_6_the_countdown_ends_when_the_blast_off_call_expires() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O9 R8"}, top="O9", cur=1)
    st.apply(1, "play CD", at=0.0)
    ev = st.advance(call("BO") + TICK)
    assert types(ev)[-3:] == ["value_skipped", "countdown_ended", "turn"] and st.cur == 2


def test_BLO_10_1_inputs_apply_in_order_of_arrival() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O6 O2", 3: "G6 G2"}, top="G4")
    st.apply(1, "play CD", at=0.0)
    st.apply(3, "slap G6 6", at=call(6) + 0.5)
    assert types(st.apply(2, "slap O6 6", at=call(6) + 0.5)) == ["slap_bounced"]
    assert st.cd_slots == {6: 3}


def test_BLO_10_8_penalty_cards_are_drawn_at_once_and_may_then_be_slapped() -> None:
    st = stack(game(), hands={1: "CD O1 R7", 2: "O2 P2", 0: "G1"}, top="O9", cur=1, inforce=("M01",),
               draw="O6 G5 G6 O8 R1")
    st.apply(1, "play CD", at=0.0)
    st.apply(1, "slap R7 7", at=call(7) + 0.1)  # M01 applies in countdowns too (7.4)
    ev = st.advance(call(7) + 3.2)  # obligation_s passes: an uncaught violation
    assert "violation" in types(ev) and all(d["type"] != "violation" for d in public(ev))
    ev = st.apply(2, "catch 1", at=call(5) + 0.9)
    assert "caught" in types(ev) and hand(st, 1) == ["G5", "G6", "O1", "O6", "O8"]
    st.apply(1, "slap G5 5", at=call(5) + 1.0)
    assert st.cd_slots == {7: 1, 5: 1}


def test_BLO_11_1_decision_nodes_and_play_wild_options() -> None:
    st = stack(steps(), hands={1: "W O1"}, top="G2")
    assert sum(a.startswith("play W[") for a in legal(st, 1)) == 44  # 4 colours x 11 values
    assert st.view(None)["phase"] == "TURN" and st.next_deadline() is None


def test_BLO_11_3_steps_have_no_clock() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "O9"}, top="O9", cur=1)
    st.apply(1, "play CD")
    assert st.next_deadline() is None and st.view(None)["countdown"]["called"] == "10"
    assert st.to_act == {1, 2}
    st.apply(1, "pass")
    assert st.to_act == {2} and st.view(2)["countdown"]["acted"] == [1]
    assert st.view(1)["pending"] == "pass" and st.view(2)["pending"] is None
