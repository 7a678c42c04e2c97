"""Launches and meteors: MET-11, MET-12, MET-13."""

from __future__ import annotations

import pytest

from cosmodeck.engine import IllegalActionError
from tests.meteor.helpers import field_ids, fm, make, of, place, ref, types


def test_MET_11_1_launch_by_the_controller_of_a_built_rocket_is_broadcast() -> None:
    st = make(3, field=["M04", "M01"], sites={0: ["R06", "S"], 1: ["R06"]})
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, f"launch s1 {ref(st, 'M04')}")
    assert err.value.code == "no_rocket"
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "launch s0 m99")
    assert err.value.code == "no_such_meteor"
    events = st.apply(0, f"launch s0 {ref(st, 'M04')}", at=2)
    launch = events[-1]
    assert launch.type == "launch" and launch.public and launch.data["rocket"] == "R06"
    assert launch.for_seat(2) == launch.for_seat(None)  # everyone hears "Launch"
    assert st.sites[0][0] == [] and not st.built[0][0]


def test_MET_11_2_rockets_always_hit_for_their_printed_damage() -> None:
    for rocket, damage in (("R01", 1), ("R06", 2), ("R10", 3), ("R13", 4), ("R17", 5)):
        st = make(2, field=["M26", "M01"], sites={0: {"R01": ["R01", "F"], "R06": ["R06", "S"],
                                                       "R10": ["R10", "F", "S"], "R13": ["R13", "S", "E"],
                                                       "R17": ["R17", "F", "S", "E"]}[rocket]})
        st.apply(0, f"launch s0 {ref(st, 'M26')}", at=1)
        assert of(st.advance(4), "volley")[0]["damage"] == damage


def test_MET_11_4_size_6_needs_several_rockets_at_once() -> None:
    st = make(2, field=["M25", "M01"], sites={0: ["R17", "F", "S", "E"], 1: ["R01", "F"]})
    twin = st.clone()
    st.apply(0, f"launch s0 {ref(st, 'M25')}", at=1)
    st.apply(1, f"launch s1 {ref(st, 'M25')}", at=2)
    assert of(st.advance(4), "volley")[0]["result"] == "destroyed"
    twin.apply(0, f"launch s0 {ref(twin, 'M25')}", at=1)
    assert of(twin.advance(4), "volley")[0]["result"] == "no_effect"


def test_MET_11_5_rocket_and_energy_cards_are_discarded() -> None:
    st = make(2, field=["M21", "M01"], sites={0: ["R10", "F", "S"]})
    st.apply(0, f"launch s0 {ref(st, 'M21')}", at=1)
    assert st.census() == make(2, field=["M21", "M01"], sites={0: ["R10", "F", "S"]}).census()
    st.advance(4)
    assert st.discard[-3:] == ["F#1", "S#1", "R10#1"]


def test_MET_12_1_face_down_until_the_first_hit_then_face_up() -> None:
    st = make(2, field=["M21", "M01"], sites={0: ["R01", "F"], 1: ["R01", "F"]})
    m21 = ref(st, "M21")
    assert "size" not in st.view(1)["field"][0]
    st.apply(0, f"launch s0 {m21}", at=1)
    events = st.advance(4)
    assert of(events, "revealed")[0]["size"] == 5 and st.view(1)["field"][0]["size"] == 5
    st.apply(1, f"launch s1 {m21}", at=5)
    assert "revealed" not in types(st.advance(8)) and fm(st, "M21").up


def test_MET_12_2_damage_against_exact_size() -> None:
    cases = {"R06": ("no_effect", 2), "R10": ("destroyed", 1), "R13": ("overkill", 1)}
    for rocket, (result, left) in cases.items():
        parts = {"R06": ["R06", "S"], "R10": ["R10", "F", "S"], "R13": ["R13", "S", "E"]}[rocket]
        st = make(2, field=["M12", "M01"], sites={0: parts})
        st.apply(0, f"launch s0 {ref(st, 'M12')}", at=1)
        assert of(st.advance(4), "volley")[0]["result"] == result and len(st.field) == left


def test_MET_12_3_traits_change_the_comparison() -> None:
    st = make(2, zone=4, field=["M14", "M01"], sites={0: ["R17", "F", "S", "E"]})  # brittle, size 3
    st.apply(0, f"launch s0 {ref(st, 'M14')}", at=70)
    events = st.advance(73)
    assert of(events, "volley")[0]["exempt"] == "brittle" and st.zone == 4


def test_MET_13_1_overkill_throws_the_rest_one_zone_closer() -> None:
    st = make(3, zone=5, now=20, field=["M01", "M21"], sites={0: ["R06", "S"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=20)
    events = st.advance(23)
    assert of(events, "zone_change")[0]["cause"] == "overkill" and st.zone == 4 and st.timer_end == 83.0
    assert field_ids(st) == ["M21"]


def test_MET_13_2_multiple_overkills_destroy_every_meteor_hit() -> None:
    st = make(3, zone=4, field=["M01", "M04", "M07", "M21"],
              sites={0: ["R06", "S"], 1: ["R10", "F", "S"], 2: ["R10", "F", "S"]})
    for seat, target in ((0, "M01"), (1, "M04"), (2, "M07")):
        st.apply(seat, f"launch s{seat} {ref(st, target)}", at=61)
    events = st.advance(64)
    assert [v["result"] for v in of(events, "volley")] == ["overkill"] * 3
    assert field_ids(st) == ["M21"] and len(of(events, "zone_change")) == 1 and st.zone == 3


def test_MET_11_2_a_rocket_built_energy_first_still_hits_for_its_damage() -> None:
    """The rocket leads its launch whatever order the site's cards were placed in (issue 13 found
    a launch from ``F, S, R10`` hitting for the Fuel card's 0 and tucking energy under Cracked)."""
    st = make(2, field=["M26", "M01"], hands={0: ["F", "S", "R10"]})
    for card in ("F", "S", "R10"):
        place(st, 0, card, 0)
    assert st.built[0][0] and st.sites[0][0][-1].startswith("R10#")
    events = st.apply(0, f"launch s0 {ref(st, 'M26')}", at=1)
    assert of(events, "launch")[0]["rocket"] == "R10" and of(events, "launch")[0]["energy"] == ["F#1", "S#1"]
    assert of(st.advance(4), "volley")[0]["damage"] == 3
    st.validate()
