"""Real time: MET-3 (timekeeper), MET-4 (zone change), MET-5 (Pass), MET-14 (end), R8-R13, MET-D2."""

from __future__ import annotations

import pytest

from cosmodeck.engine import IllegalActionError
from tests.meteor.helpers import draw_order, field_ids, make, of, place, ref, types


def test_MET_3_1_real_time_every_seat_may_act_at_any_moment() -> None:
    st = make(3, field=["M01"], hands={0: ["F"], 1: ["A"], 2: ["S"]})
    assert st.to_act == frozenset({0, 1, 2})
    place(st, 0, "F", 0, at=1.0)
    place(st, 1, "A", 1, at=1.0)
    place(st, 2, "S", 2, at=1.0)
    assert [len(s[0]) for s in st.sites] == [1, 1, 1]


def test_MET_3_2_a_timer_is_always_running() -> None:
    st = make(3, field=["M01", "M02"])
    for zone in (5, 4, 3, 2):
        assert st.zone == zone and st.next_deadline() == (6 - zone) * 60.0
        st.advance((6 - zone) * 60)
    assert st.zone == 1 and st.next_deadline() == 300.0


def test_MET_3_3_R13_time_out_freezes_and_resume_restarts() -> None:
    st = make(3, field=["M01"], hands={1: ["F"]})
    st.apply(0, "time_out", at=10)
    assert st.view(1)["time_out"] == {"by": 0, "at": 10.0}
    assert st.view(1)["timer"]["remaining"] == 50.0 and not st.view(1)["timer"]["running"]
    with pytest.raises(IllegalActionError) as err:
        place(st, 1, "F", 1)
    assert err.value.code == "timed_out"
    st.apply(1, "signal launch")  # talk rules still apply
    st.advance(500)
    assert st.zone == 5
    st.apply(0, "resume", at=500)
    assert st.next_deadline() == 550.0


def test_MET_3_4_timer_expiry_changes_the_zone() -> None:
    st = make(3, field=["M01"])
    events = st.advance(60)
    assert "timer_expired" in types(events) and of(events, "zone_change")[0]["cause"] == "timer"
    assert st.zone == 4


def test_MET_3_5_R13_the_host_is_the_timekeeper() -> None:
    st = make(3, field=["M01"])
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "time_out")
    assert err.value.code == "host_only"
    st.apply(1, "signal time_out")  # only a request
    anyone = make(3, field=["M01"], allow_any_timeout=True)
    anyone.apply(2, "time_out", at=5)
    with pytest.raises(IllegalActionError) as err:
        anyone.apply(1, "resume")
    assert err.value.code == "not_your_time_out"
    anyone.apply(0, "resume", at=7)  # the host may always resume
    assert anyone.paused is None and anyone.next_deadline() == 62.0


def test_MET_4_1_zone_change_steps() -> None:
    st = make(4, zone=5, field=["M01"])
    events = st.advance(60)
    change = of(events, "zone_change")[0]
    assert (change["from"], change["to"], change["deadline"]) == (5, 4, 120.0)
    assert st.view(0)["zones_left"] == [4, 3, 2, 1]
    assert draw_order(events) == [0, 1, 2, 3] * 2 and [len(h) for h in st.hands] == [2] * 4


def test_MET_4_2_no_change_below_zone_1_the_meteors_hit() -> None:
    st = make(3, zone=1, field=["M01"])
    events = st.advance(300)
    assert "zone_change" not in types(events) and st.zone == 1
    assert st.result is not None and st.result.team_win is False


def test_MET_4_3_after_the_draws_flags_abilities_burn_up_leaky_hold_victory() -> None:
    st = make(2, zone=3, field=["M02", "M01"], powers={0: "P10"}, challenges={1: "C02"},
              sites={0: ["F", "A"]}, difficulty="advanced")
    st.apply(0, f"use_power mechanic s0 {st.sites[0][0][0]}", at=121)
    st.apply(1, "pass", at=122)
    events = st.advance(180)
    kinds = types(events)
    assert kinds.index("deal") < kinds.index("meteor_removed") < kinds.index("leaky_hold")
    assert st.passes == [False, False] and st.zone_used == [[], []]
    assert len(st.hands[1]) == 3 - 1  # drew 3, Leaky Hold discarded 1
    st.apply(0, f"use_power mechanic s0 {st.sites[0][0][0]}", at=181)  # once per zone: usable again


def test_MET_4_4_R10_causes_at_the_same_instant_merge() -> None:
    st = make(3, zone=4, now=117, field=["M01", "M21"], sites={0: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=117)
    events = st.advance(120)  # the window closes exactly when the timer expires
    assert [v["result"] for v in of(events, "volley")] == ["overkill"]
    assert len(of(events, "zone_change")) == 1 and st.zone == 3


def test_R11_all_pass_during_a_window_resolves_it_first() -> None:
    st = make(2, zone=4, now=70, field=["M01", "M21"], sites={0: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=70)
    st.apply(1, "pass", at=70.5)
    events = st.apply(0, "pass", at=71)
    kinds = types(events)
    assert kinds.index("volley") < kinds.index("zone_change")
    assert len(of(events, "zone_change")) == 1 and st.zone == 3 and st.window is None
    assert of(events, "zone_change")[0]["cause"] == "overkill"


def test_R12_pass_flag_cleared_by_game_actions_not_by_talk() -> None:
    st = make(3, field=["M01"], hands={0: ["F", "A"]})
    st.apply(0, "pass")
    st.apply(0, "signal pass")
    st.apply(0, "emote cheer")
    assert st.passes[0]
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "pass")
    assert err.value.code == "already_passed"
    place(st, 0, "F", 0)
    assert not st.passes[0]
    st.apply(0, "pass")
    st.apply(0, "time_out", at=3)
    st.apply(0, "resume", at=4)
    assert st.passes[0]  # a Time Out does not clear flags


def test_R8_window_is_never_extended_and_opens_once() -> None:
    st = make(3, field=["M16", "M01"], sites={0: ["R01", "F"], 1: ["R06", "S"], 2: ["R01", "F"]})
    st.apply(0, f"launch s0 {ref(st, 'M16')}", at=10)
    st.apply(1, f"launch s1 {ref(st, 'M16')}", at=12.9)
    assert st.window is not None and st.window["closes"] == 13.0
    events = st.apply(2, f"launch s2 {ref(st, 'M16')}", at=13.0)  # too late: a new window
    assert of(events, "volley")[0]["damage"] == 3 and st.window is not None and st.window["closes"] == 16.0


def test_R8_zero_window_resolves_each_launch_alone() -> None:
    st = make(3, field=["M04", "M01"], sites={0: ["R01", "F"], 1: ["R01", "F"]}, volley_window_s=0)
    events = st.apply(0, f"launch s0 {ref(st, 'M04')}", at=5)
    assert of(events, "volley")[0]["result"] == "no_effect" and st.window is None
    events = st.apply(1, f"launch s1 {ref(st, 'M04')}", at=5)
    assert of(events, "volley")[0]["result"] == "no_effect"


def test_R9_resolution_order_reveal_volleys_remove_fracture_victory() -> None:
    st = make(3, field=["M03", "M08"], meteor_deck=["M01", "M04", "M07"],
              sites={0: ["R01", "F"], 1: ["R05", "F", "A"]})
    st.apply(0, f"launch s0 {ref(st, 'M03')}", at=1)
    st.apply(1, f"launch s1 {ref(st, 'M08')}", at=1)
    events = st.advance(4)
    kinds = types(events)
    assert kinds.index("revealed") < kinds.index("volley") < kinds.index("meteor_removed")
    entered = of(events, "meteor_entered")
    # Fracturing in meteor-id order: M03's card first, then M08's
    assert len(entered) == 2 and field_ids(st) == ["M01", "M04"] and not st.is_over


def test_MET_14_1_win_by_destroying_every_meteor() -> None:
    st = make(3, zone=4, field=["M01"], sites={0: ["R01", "F"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=70)
    st.advance(73)
    res = st.result
    assert res is not None and res.team_win is True and res.winners == frozenset({0, 1, 2})
    assert st.to_act == frozenset() and st.next_deadline() is None


def test_MET_14_2_victory_is_checked_before_the_pending_change() -> None:
    st = make(3, zone=2, field=["M01", "M04"], sites={0: ["R13", "S", "E"], 1: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=190)
    st.apply(1, f"launch s1 {ref(st, 'M04')}", at=190)
    events = st.advance(193)
    assert st.result is not None and st.result.team_win and "zone_change" not in types(events)
    assert st.result.details["zone"] == 2 and st.result.details["score"] == 2
    boss = make(3, field=["B01"], difficulty="advanced")
    boss.advance(60)
    assert not boss.is_over  # a boss counts


def test_MET_14_3_defeat_when_a_change_is_required_in_zone_1() -> None:
    st = make(1, zone=1, field=["M01"])
    st.apply(0, "pass", at=250)
    res = st.result
    assert res is not None and res.team_win is False and res.details == {
        "cause": "all_pass", "zone": 1, "meteors_left": 1, "time": 250.0, "score": 0.0}


def test_MET_14_4_R20_empty_deck_never_ends_the_game() -> None:
    st = make(2, zone=4, field=["M01"], deck_left=0)
    st.advance(120)
    assert not st.is_over and st.zone == 3 and st.deck == []


def test_R19_hand_sizes_public_no_limit_time_order() -> None:
    st = make(2, field=["M01"], hands={0: ["F"] * 12})
    assert st.view(1)["hands"][0]["count"] == 12 and st.view(1)["hands"][0]["cards"] is None
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "emote cheer", at=-1)
    assert err.value.code == "time_backwards"


def test_MET_D2_deadlines_before_an_input_are_processed_first() -> None:
    st = make(2, zone=5, field=["M01", "M02"], hands={0: ["F"]})
    events = place(st, 0, "F", 0, at=61)  # the zone-5 timer expired at 60, before the placement
    kinds = types(events)
    assert kinds.index("zone_change") < kinds.index("placed") and st.zone == 4
    assert st.next_deadline() == 120.0
