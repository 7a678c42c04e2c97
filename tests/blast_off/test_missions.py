"""BLO-7, 9, 12: missions, obligations, violations, catches, enforcement (S16-S20)."""

from __future__ import annotations

import json

import pytest

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.games.blast_off.actions import Announce, Author
from tests.blast_off.helpers import finish_responses, game, legal, public, run_countdown, stack, steps, types

FAST_P3 = [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.1, 0.0]]


def _s16(**opts: object) -> object:
    st = stack(steps(reaction_time=FAST_P3, **opts), hands={1: "O7 O1 O3", 2: "O2 G2", 3: "R2 O4", 0: "R5 R6"},
               top="O9", inforce=("M01",))
    ev = st.apply(1, "play O7")
    assert st.view(1)["obligations"][0]["token"] == "HOUSTON" and st.view(2)["obligations"] == []
    ev += finish_responses(st)  # P1 announces nothing
    assert "violation" in types(ev) and all(d["type"] != "violation" for d in public(ev))
    ev += st.apply(2, "play O2")
    return st, ev


def test_BLO_S16_BLO_7_5_BLO_12_6_caught_draws_four_first_catch_counts() -> None:
    st, _ = _s16()
    assert st.phase == 6 and st.to_act == {0, 1, 2, 3}
    ev = finish_responses(st, {3: ["catch 1"], 0: ["catch 1 M01"]})
    caught = [e.data for e in ev if e.type == "caught"]
    assert caught == [{"by": 3, "target": 1, "mission": "M01"}]
    assert [e.data["by"] for e in ev if e.type == "catch_duplicate"] == [0]
    assert len(st.hands[1]) == 6 and st.cur == 3  # 7.6: a catch never changes whose turn it is


def test_BLO_S17_BLO_7_6_not_caught_lapses_silently_then_a_catch_is_false() -> None:
    st, _ = _s16()
    ev = finish_responses(st)
    assert [d["type"] for d in public(ev)] == ["responded"] * 4 + ["response_ended", "turn"]
    assert [e.type for e in ev if e.for_seat(None) is None] == ["violation_lapsed"]
    ev = st.apply(3, "play O4") + finish_responses(st, {2: ["catch 1"]})
    assert [e.type for e in ev if e.type.startswith("catch")] == ["catch_failed"]
    assert len(st.hands[1]) == 2 and len(st.hands[2]) == 1


def test_BLO_S18_BLO_R15_false_catch_is_free_by_default_or_costs_the_option() -> None:
    for penalty, drawn in ((0, 0), (1, 1)):
        st = stack(steps(false_catch_penalty=penalty), hands={1: "G5 O1", 2: "G2 P4", 3: "R2 O4", 0: "R5 R6"},
                   top="G9", inforce=("M05",))
        st.apply(1, "play G5")
        assert {s: st.view(s)["obligations"][0]["token"] for s in (0, 2, 3)} == {0: "ROGER", 2: "ROGER", 3: "ROGER"}
        ev = finish_responses(st, {0: ["announce ROGER"], 2: ["announce ROGER"], 3: ["announce ROGER"]})
        assert "violation" not in types(ev) and st.obls == []
        st.apply(2, "play G2")
        before = len(st.hands[2])
        ev = finish_responses(st, {2: ["catch 3"]})
        assert [d["type"] for d in public(ev) if d["type"].startswith("catch")] == ["catch_failed"]
        assert len(st.hands[2]) == before + drawn and len(st.hands[3]) == 2


def test_BLO_S19_BLO_R11_short_draw_four_reshuffles_and_draws_what_exists() -> None:
    st = stack(steps(), hands={1: "O7 O1", 2: "O2 G2 G3", 3: "R2 O4", 0: "R5 R6"}, discard="P1 P3 O9",
               draw="G8", inforce=("M01",))
    st.apply(1, "play O7")
    finish_responses(st)
    st.apply(2, "play O2")  # discard is now P1 P3 O9 O7 O2: top + 4
    st.disc = st.disc[-3:]  # as in S19: top + 2
    ev = finish_responses(st, {3: ["catch 1"]})
    assert "reshuffled" in types(ev) and len(st.hands[1]) == 1 + 3
    assert st.view(None)["draw_pile"] == 0 and len(st.disc) == 1


def test_BLO_S20_BLO_9_1_out_of_control_stacking_resolves_in_reveal_order() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "R4 O1", 2: "G1 G2", 3: "O2", 0: "O3 O5"},
               top="G4", inforce=("M02", "M11"))
    ev = st.apply(1, "play R4")
    effects = [(e.data["mission"], e.data.get("target")) for e in ev if e.type == "effect"]
    assert effects == [("M02", None), ("M11", 0)] and st.dir == -1
    finish_responses(st)
    assert len(st.hands[0]) == 3 and st.cur == 0
    st = stack(steps(), hands={1: "R4 O1", 2: "G1 G2", 3: "O2", 0: "O3 O5"}, top="G4", inforce=("M11",),
               mdisc=("M02",))
    st.apply(1, "play R4")
    finish_responses(st)
    assert len(st.hands[2]) == 3 and st.cur == 2 and st.dir == 1


def test_BLO_9_1_BLO_R25_out_of_control_missions_stay_and_latest_countdown_from_applies() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"},
               top="O9", inforce=("M15", "M01"), mdeck=("M07",))
    st.apply(1, "play CD")
    finish_responses(st)
    assert st.cd_seq[0] == 5
    run_countdown(st, {"BO": {2: "BO-G"}})
    assert [m["id"] for m in st.view(None)["missions_in_force"]] == ["M15", "M01", "M07"]


def test_BLO_7_2_a_new_mission_replaces_the_old_one() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9", inforce=("M15",),
               mdeck=("M07",))
    st.apply(1, "play CD")
    finish_responses(st)
    run_countdown(st, {"BO": {2: "BO-G"}})
    v = st.view(None)
    assert [m["id"] for m in v["missions_in_force"]] == ["M07"] and v["missions_discarded"][0]["id"] == "M15"


def test_BLO_7_3_BLO_R21_missions_apply_after_reveal_and_replacement_cancels_nothing_open() -> None:
    st = stack(game(obligation_s=20.0), hands={1: "CD O7 O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9",
               inforce=("M01",),
               mdeck=("M08",))
    st.apply(1, "play CD", at=0.0)
    st.apply(1, "slap O7 7", at=4.9)
    st.apply(2, "slap BO-G BO", at=13.3)  # M08 replaces M01 while P1's obligation is open
    assert st.view(None)["missions_in_force"][0]["id"] == "M08"
    assert st.view(1)["obligations"][0]["mission"] == "M01" and "announce HOUSTON" in legal(st, 1)
    st2 = stack(game(), hands={1: "O2 O3", 2: "O4 G1"}, top="O9")
    st2.apply(1, "play O2", at=0.0)  # orange, but M08 is not in force yet
    assert st2.obls == []


def test_BLO_7_4_BLO_R12_obligations_apply_in_countdowns_effects_do_not() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "R6 O2", 3: "R2", 0: "R3"}, top="O9", inforce=("M02",))
    st.apply(1, "play CD")
    finish_responses(st)
    ev = run_countdown(st, {6: {2: "R6"}})
    assert "effect" not in types(ev) and st.dir == 1
    st = stack(steps(), hands={1: "CD O1", 2: "O7 O2", 3: "R2", 0: "R3"}, top="O9", inforce=("M01",))
    st.apply(1, "play CD")
    finish_responses(st)
    ev = run_countdown(st, {7: {2: "O7"}})
    assert "violation" in types(ev)


def test_BLO_7_7_BLO_R20_empty_mission_deck_recycles_the_discard() -> None:
    st = stack(steps(), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9", inforce=("M01",),
               mdeck=(), mdisc=("M02", "M03"))
    st.apply(1, "play CD")
    finish_responses(st)
    ev = run_countdown(st, {"BO": {2: "BO-G"}})
    assert "missions_recycled" in types(ev)
    assert st.view(None)["missions_in_force"][0]["id"] in ("M02", "M03") and st.census()["M01"] == 1
    st = stack(steps(mission_out_of_control=True), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"},
               top="O9", inforce=("M01",), mdeck=())
    st.apply(1, "play CD")
    finish_responses(st)
    assert "no_mission" in types(run_countdown(st, {"BO": {2: "BO-G"}}))


def test_BLO_12_1_resolution_order_move_out_restriction_effects_obligations() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "R7 O1", 2: "G2 O2", 3: "O3", 0: "O4"}, top="R9",
               inforce=("M02", "M01"))
    ev = st.apply(1, "play R7")
    assert [t for t in types(ev) if t in ("played", "effect", "obligation")] == ["played", "effect", "obligation"]
    st = stack(steps(mission_out_of_control=True), hands={1: "R7", 2: "G2 O2", 3: "O3", 0: "O4"}, top="R9",
               inforce=("M02", "M01"))
    ev = st.apply(1, "play R7")
    assert st.is_over and "effect" not in types(ev) and "obligation" not in types(ev)


def test_BLO_12_2_wrong_arg_does_not_fulfil_a_correct_retry_does() -> None:
    st = stack(game(), hands={1: "O3 O1 G5", 2: "G2 O2", 3: "O4", 0: "O5"}, top="O9", inforce=("M06",))
    st.apply(1, "play O3", at=0.0)
    assert st.view(1)["obligations"][0]["expect"] == "2"
    ev = st.apply(1, "announce COUNT 3", at=0.5)
    assert ev[0].for_seat(1) == {"type": "announced", "seat": 1, "token": "COUNT", "arg": "3", "fulfilled": False}
    assert ev[0].for_seat(2) == {"type": "announced", "seat": 1, "token": "COUNT", "arg": "3"}
    assert "announce COUNT 10" in legal(st, 1) and "announce COUNT 11" not in legal(st, 1)
    st.apply(1, "announce COUNT 2", at=1.0)
    assert st.obls == [] and "violation" not in types(st.advance(10.0))


def test_BLO_12_2_realtime_deadline_is_obligation_s_or_the_next_action() -> None:
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4 O6", 0: "O5 O8"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    assert st.next_deadline() == pytest.approx(3.0)
    assert "violation" in types(st.advance(3.0))
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4 O6", 0: "O5 O8"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    for seat, card, at in ((2, "O2", 0.5), (3, "O4", 1.0), (0, "O5", 1.5)):
        st.apply(seat, f"play {card}", at=at)
    assert "violation" in types(st.apply(1, "play O1", at=2.0))  # P1's next turn action came first


def test_BLO_12_3_response_steps_only_while_a_mission_is_in_force_choices_hidden() -> None:
    st = stack(steps(), hands={1: "O7 O1", 2: "O2 G2"}, top="O9")
    st.apply(1, "play O7")
    assert st.view(None)["phase"] == "TURN"
    st = stack(steps(), hands={1: "O7 O1", 2: "O2 G2", 3: "O3", 0: "O4"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7")
    assert st.view(None)["phase"] == "RESPONSE" and st.to_act == {0, 1, 2, 3}
    ev = st.apply(1, "announce HOUSTON")
    assert [e.for_seat(s) for e in ev for s in (0, 2, None)] == [None, None, None]
    assert st.view(1)["pending"] == ["announce HOUSTON"] and st.view(2)["pending"] == []
    assert "announce HOUSTON" not in legal(st, 1)  # each token once per step
    ev = finish_responses(st)
    assert [d for d in public(ev) if d["type"] == "announced"] == [
        {"type": "announced", "seat": 1, "token": "HOUSTON", "arg": None}]


def test_BLO_12_4_violations_never_appear_in_views_or_public_events() -> None:
    st, ev = _s16()
    assert st.viols and all(d["type"] != "violation" for s in (None, 0, 1, 2, 3) for d in
                            [x for x in (e.for_seat(s) for e in ev) if x])
    for s in (None, 0, 1, 2, 3):
        assert "viol" not in str(st.view(s))


def test_BLO_12_5_catch_windows_realtime_and_steps() -> None:
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4 O6", 0: "O5 O8"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    st.advance(3.0)  # violation at t=3
    st.apply(2, "play O2", at=20.0)  # 5 s passed and the next turn action ended: closed
    assert next(e.type for e in st.apply(3, "catch 1", at=20.5)) == "catch_failed"
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4 O6", 0: "O5 O8"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    st.advance(3.0)
    assert st.apply(3, "catch 1", at=20.0)[0].type == "caught"  # no turn action yet: still open
    st = stack(steps(catch_window_steps=2), hands={1: "O7 O1 O3", 2: "O2 G2", 3: "R2 O4", 0: "R5 O6"},
               top="O9", inforce=("M01",))
    st.apply(1, "play O7")
    finish_responses(st)
    st.apply(2, "play O2")
    finish_responses(st)
    st.apply(3, "play O4")
    assert "caught" in types(finish_responses(st, {0: ["catch 1"]}))


def test_BLO_12_5_restriction_violation_is_catchable_right_after_the_play() -> None:
    st = stack(steps(), hands={1: "P4 O1", 2: "O2 G2", 3: "O4", 0: "O5"}, top="G4", inforce=("M10",))
    assert "play P4" in legal(st, 1)  # catch mode: the play stands (12.4)
    st.apply(1, "play P4")
    ev = finish_responses(st, {2: ["catch 1 M10"]})
    assert [e.data for e in ev if e.type == "caught"] == [{"by": 2, "target": 1, "mission": "M10"}]


def test_BLO_12_6_valid_duplicate_false() -> None:
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4 O6", 0: "O5 O8"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    st.advance(3.1)
    assert st.apply(2, "catch 1 M01", at=3.2)[0].type == "caught"
    assert st.apply(3, "catch 1", at=3.3)[0].type == "catch_duplicate"
    assert st.apply(0, "catch 2", at=3.4)[0].type == "catch_failed"
    assert len(st.hands[1]) == 6
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "catch 1", at=3.5)
    assert e.value.code == "bad_target"


def test_BLO_12_7_referee_penalizes_publicly_and_disables_catches() -> None:
    st = stack(game(mission_enforcement="referee"), hands={1: "O7 O1 G5", 2: "O2 G2"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    assert not any(a.startswith("catch") for a in legal(st, 2))
    ev = st.advance(3.0)
    assert [d["type"] for d in public(ev)][:2] == ["penalized", "drew"] and len(st.hands[1]) == 6
    with pytest.raises(IllegalActionError) as e:
        st.apply(2, "catch 1", at=3.1)
    assert e.value.code == "catch_disabled"


def test_BLO_12_7_assist_makes_restricted_plays_illegal() -> None:
    st = stack(game(mission_enforcement="assist"), hands={1: "P4 O1 W", 2: "O2"}, top="G4", inforce=("M10",))
    assert "play P4" not in legal(st, 1) and "play W[P3]" not in legal(st, 1) and "play W[G3]" in legal(st, 1)
    assert "draw" in legal(st, 1)
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "play P4")
    assert e.value.code == "restricted"


def test_BLO_12_8_drawn_restricted_card_is_not_playable_but_may_be_played_in_catch_mode() -> None:
    st = stack(steps(), hands={1: "O1 R3", 2: "O2", 3: "O3", 0: "O5"}, top="G4", draw="P4", inforce=("M10",))
    st.apply(1, "draw")
    assert sorted(legal(st, 1)) == ["keep", "play P4"]
    st = stack(steps(mission_enforcement="assist"), hands={1: "O1 R3", 2: "O2", 3: "O3", 0: "O5"}, top="G4",
               draw="P4", inforce=("M10",))
    assert "kept" in types(st.apply(1, "draw"))


def test_BLO_12_9_unowed_or_late_announcement_has_no_effect() -> None:
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2"}, top="O9", inforce=("M01",))
    ev = st.apply(2, "announce HOUSTON", at=0.1)
    assert ev[0].for_seat(2)["fulfilled"] is False  # type: ignore[index]
    st.apply(1, "play O7", at=0.2)
    st.advance(3.5)
    assert st.apply(1, "announce HOUSTON", at=3.6)[0].for_seat(1)["fulfilled"] is False  # type: ignore[index]
    assert len(st.viols) == 1


def test_BLO_R16_one_violation_costs_one_draw_four() -> None:
    st = stack(game(), hands={1: "O7 O1 G5", 2: "O2 G2", 3: "O4"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    st.advance(3.1)
    st.apply(2, "catch 1", at=3.2)
    st.apply(3, "catch 1", at=3.3)
    assert len(st.hands[1]) == 6


def test_BLO_R26_kind_reads_the_card_colour_reads_the_face() -> None:
    st = stack(steps(mission_out_of_control=True), hands={1: "W O1", 2: "O2 G2", 3: "O3", 0: "O4"}, top="O9",
               inforce=("M03", "M02"))
    ev = st.apply(1, "play W[R5]")
    assert [e.data["mission"] for e in ev if e.type == "effect"] == ["M03", "M02"]


def test_BLO_9_2_X1_X2_X3_custom_missions_authored_from_the_pool() -> None:
    st = stack(steps(custom_missions=True), hands={1: "CD O1", 2: "BO-G O2 W", 3: "R2", 0: "R3"}, top="O9",
               cur=1)
    st.apply(1, "play CD")
    run_countdown(st, {"BO": {2: "BO-G"}})
    assert st.view(None)["phase"] == "AUTHOR" and st.to_act == {2}
    pool = legal(st, 2)
    assert len(pool) == 3 and "skip_next" in pool[0] and "reverse" in pool[1] and "pass_hands" in pool[2]
    before = st.census()
    ev = st.apply(2, pool[0])
    assert [e.data["mission"] for e in ev if e.type == "mission_revealed"] == ["C1"] and st.census() == before
    finish_responses(st)
    assert st.cur == 3 and st.mission(st.inforce[0]).effect == "skip_next"
    with pytest.raises(IllegalActionError) as e:
        st2 = stack(steps(custom_missions=True), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9")
        st2.apply(1, "play CD")
        run_countdown(st2, {"BO": {2: "BO-G"}})
        st2.apply(2, 'author {"name":"Me","text":"Seat 2 wins","seat":2,"modifier":{"countdown_from":3}}')
    assert e.value.code == "bad_mission"


def test_BLO_9_2_realtime_author_timeout_turns_the_mission_card() -> None:
    st = stack(game(custom_missions=True), hands={1: "CD O1", 2: "BO-G O2", 3: "R2", 0: "R3"}, top="O9",
               mdeck=("M05",))
    st.apply(1, "play CD", at=0.0)
    st.apply(2, "slap BO-G BO", at=13.3)
    assert st.view(None)["decision"] == {"kind": "author", "seat": 2, "deadline": pytest.approx(73.3)}
    ev = st.advance(73.3)
    assert [e.data["mission"] for e in ev if e.type == "mission_revealed"] == ["M05"]


def test_BLO_12_2_steps_a_corrected_announcement_in_the_same_step_fulfils() -> None:
    st = stack(steps(), hands={1: "O3 O1 G5", 2: "G2 O2", 3: "O4", 0: "O5"}, top="O9", inforce=("M06",))
    st.apply(1, "play O3")
    assert st.view(1)["obligations"][0]["expect"] == "2"
    st.apply(1, "announce COUNT 4")
    assert "announce COUNT 4" not in legal(st, 1) and "announce COUNT 2" in legal(st, 1)
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "announce COUNT 4")
    assert e.value.code == "duplicate_in_step"
    for arg in ("02", "²", "9" * 5000):  # hand-built actions: one spelling per count, no crash on odd digits
        with pytest.raises(IllegalActionError) as e:
            st.apply(1, Announce("COUNT", arg))
        assert e.value.code == "bad_arg"
    ev = finish_responses(st, {1: ["announce COUNT 2"]})
    assert [e.for_seat(1)["fulfilled"] for e in ev if e.type == "announced"] == [False, True]  # type: ignore[index]
    assert "violation" not in types(ev) and st.obls == [] and st.viols == []


def test_BLO_9_2_authoring_is_the_one_place_apply_accepts_more_than_legal_actions_lists() -> None:
    st = stack(steps(custom_missions=True), hands={1: "CD O1", 2: "BO-G O2 W", 3: "R2", 0: "R3"}, top="O9")
    st.apply(1, "play CD")
    run_countdown(st, {"BO": {2: "BO-G"}})
    listed = st.legal_actions(2)
    assert all(isinstance(a, Author) for a in listed) and all(st.is_legal(2, a) for a in listed)
    own = Author(json.dumps({"name": "Quiet", "text": "No purple on red.", "phase": "turn", "restriction": {
        "forbid": {"card": {"colour": ["PURPLE"]}, "onto": {"colour": ["RED"]}}}}))
    assert own not in listed and st.is_legal(2, own)  # accepted though not listed: any valid MDL mission
    for bad in ('{"name":"Me"}', "[1]", "{" * 5000, "[" * 100_000 + "]" * 100_000, '{"name":"' + "x" * 9000 + '"}'):
        assert not st.is_legal(2, Author(bad))
        with pytest.raises(IllegalActionError) as e:
            st.apply(2, Author(bad))
        assert e.value.code == "bad_mission"
    for seat in (0, 1, 3):  # everywhere else the list and the check agree: nobody else may author
        assert st.legal_actions(seat) == [] and not st.is_legal(seat, own)
    st.apply(2, own)
    assert st.mission(st.inforce[0]).kind == "restriction"
    assert "No purple on red." in st.view(None)["missions"][-1]["source"]
