"""Power cards P01-P13 (6.8), dealt by MET-2.8 / R16 in advanced and expert games."""

from __future__ import annotations

from typing import Any

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.engine.rng import Rng
from tests.meteor.helpers import field_ids, fm, make, of, place, ref, types

ADV: dict[str, Any] = {"difficulty": "advanced"}


def test_MET_2_8_P02_open_book_shows_the_hand_to_everyone() -> None:
    st = make(3, field=["M01"], powers={0: "P02"}, hands={0: ["F", "R10"]}, **ADV)
    events = st.apply(0, "show_hand")
    assert events[-1].public and events[-1].data["cards"] == ["F#1", "R10#1"]
    assert st.view(2)["hands"][0]["known"] == ["F#1", "R10#1"]
    other = st.resample_hidden(0, Rng(3))
    assert sorted(other.hands[0]) == ["F#1", "R10#1"]  # shown cards are no secret any more
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "show_hand")
    assert err.value.code == "no_showing"


def test_MET_2_8_P03_quartermaster_draws_one_more() -> None:
    st = make(3, field=["M01"], powers={1: "P03"}, **ADV)
    st.advance(60)
    assert [len(h) for h in st.hands] == [2, 3, 2]


def test_MET_2_8_P04_twin_pads_two_independent_slots() -> None:
    st = make(2, field=["M01"], powers={0: "P04"}, hands={0: ["R01", "F", "R06"], 1: ["S"]}, **ADV)
    assert [s["site"] for s in st.view(1)["sites"]] == ["s0", "s0.1", "s1"]
    with pytest.raises(IllegalActionError) as err:
        place(st, 1, "S", "s0.1")
    assert err.value.code == "first_card"
    place(st, 0, "R01", "s0")
    place(st, 0, "F", "s0")
    place(st, 0, "R06", "s0.1")
    place(st, 1, "S", "s0.1")
    assert st.built[0] == [True, True]
    st.apply(0, f"launch s0.1 {ref(st, 'M01')}")
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "place_card S#1 s1.1")
    assert err.value.code in ("no_such_site", "not_in_hand")


def test_MET_2_8_P05_spotter_reveals_once_but_not_stealth() -> None:
    st = make(2, field=["M21", "B06", "M01"], powers={0: "P05"}, **ADV)
    events = st.apply(0, f"use_power spotter {ref(st, 'M21')}")
    assert of(events, "revealed")[0]["size"] == 5
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, f"use_power spotter {ref(st, 'M01')}")
    assert err.value.code == "power_used"
    twin = make(2, field=["M21", "B06", "M01"], powers={0: "P05"}, **ADV)
    events = twin.apply(0, f"use_power spotter {ref(twin, 'B06')}")
    assert "revealed" not in types(events) and not fm(twin, "B06").up and "spotter" in twin.used[0]


def test_MET_2_8_P06_salvager_returns_rockets_of_a_failed_volley() -> None:
    st = make(2, field=["M17", "M01"], powers={0: "P06"}, sites={0: ["R06", "S"], 1: ["R01", "F"]}, **ADV)
    st.apply(0, f"launch s0 {ref(st, 'M17')}", at=1)
    st.apply(1, f"launch s1 {ref(st, 'M17')}", at=1)
    events = st.advance(4)
    v = of(events, "volley")[0]
    assert v["salvaged"] == ["R06#1"] and v["tucked"] == ["R01#1"] and v["stored"] == 1
    assert "R06#1" in st.hands[0] and "R06#1" in st.view(1)["hands"][0]["known"] and "S#1" in st.discard


def test_MET_2_8_P07_sharpshooter_volley_never_overkills_once() -> None:
    st = make(2, field=["M01", "M21"], powers={0: "P07"}, sites={0: ["R13", "S", "E"]}, **ADV)
    legal = [str(a) for a in st.legal_actions(0)]
    assert f"launch s0 {ref(st, 'M01')} sharpshooter" in legal
    st.apply(0, f"launch s0 {ref(st, 'M01')} sharpshooter", at=1)
    v = of(st.advance(4), "volley")[0]
    assert v["exempt"] == "sharpshooter" and st.zone == 5
    st.sites[0][0] = ["R01#1", "F#1"]
    st.deck.remove("R01#1")
    st.deck.remove("F#1")
    st.built[0][0] = True
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, f"launch s0 {ref(st, 'M21')} sharpshooter")
    assert err.value.code == "power_used"
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "launch s1 m2 sharpshooter")
    assert err.value.code in ("no_rocket", "no_power")


def test_MET_2_8_P08_fuel_chemist_swaps_fuel_and_atomic_in_costs_only() -> None:
    st = make(2, field=["M01"], powers={0: "P08"}, hands={0: ["R01", "A", "F", "F", "A", "A"]}, **ADV)
    place(st, 0, "R01", 0)
    assert "rocket_built" in types(place(st, 0, "A", 0))
    plain = make(2, field=["M01"], hands={0: ["R01", "A"]})
    place(plain, 0, "R01", 0)
    place(plain, 0, "A", 0)
    assert not plain.built[0][0]
    st2 = make(2, field=["M01"], powers={0: "P08"}, hands={0: ["F", "F", "A", "A"]}, **ADV)
    for e in ("F", "F", "A"):
        place(st2, 0, e, 0)
    assert "retrofit" not in types(place(st2, 0, "A", 0))


def test_MET_2_8_P09_solar_engineer_one_wild_solar_per_project() -> None:
    st = make(2, field=["M01"], powers={0: "P09"}, hands={0: ["R01", "S"]}, **ADV)
    place(st, 0, "R01", 0)
    assert "rocket_built" in types(place(st, 0, "S", 0))
    st2 = make(2, field=["M01"], powers={0: "P09"}, hands={0: ["R03", "S", "S"]}, **ADV)
    place(st2, 0, "R03", 0)
    place(st2, 0, "S", 0)
    place(st2, 0, "S", 0)
    assert not st2.built[0][0]


def test_MET_2_8_P10_mechanic_takes_a_card_back_once_per_zone() -> None:
    st = make(2, field=["M01"], powers={0: "P10"}, sites={0: ["F", "A"]}, **ADV)
    st.apply(0, "use_power mechanic s0 A#1")
    assert st.hands[0] == ["A#1"] and st.sites[0][0] == ["F#1"] and st.view(1)["hands"][0]["known"] == ["A#1"]
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "use_power mechanic s0 F#1")
    assert err.value.code == "power_used"


def test_MET_2_8_P11_demolition_expert_adds_one_damage_once() -> None:
    st = make(2, field=["M04", "M01"], powers={0: "P11"}, sites={0: ["R01", "F"]}, **ADV)
    st.apply(0, f"launch s0 {ref(st, 'M04')} demolition", at=1)
    v = of(st.advance(4), "volley")[0]
    assert v["damage"] == 2 and v["result"] == "destroyed" and "demolition_expert" in st.used[0]


def test_MET_2_8_P12_chronometrist_flips_the_timer_once() -> None:
    st = make(2, field=["M01"], powers={1: "P12"}, now=10, **ADV)
    events = st.apply(1, "use_power chronometrist", at=10)
    assert of(events, "timer_flipped")[0]["remaining_before"] == 50.0 and st.timer_end == 20.0
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "use_power chronometrist")
    assert err.value.code == "power_used"


def test_MET_2_8_P13_courier_gives_a_card_privately_once_per_zone() -> None:
    st = make(3, field=["M01", "M02"], powers={0: "P13"}, hands={0: ["F", "A"]}, **ADV)
    events = st.apply(0, "use_power courier F#1 p2")
    assert st.hands[2] == ["F#1"] and events[-1].for_seat(1) == {"type": "power", "seat": 0, "power": "courier",
                                                                  "to": 2}
    assert events[-1].for_seat(2)["card"] == "F#1"  # type: ignore[index]
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "use_power courier A#1 p1")
    assert err.value.code == "power_used"
    st.advance(60)
    st.apply(0, "use_power courier A#1 p1")
    assert "A#1" in st.hands[1] and field_ids(st) == ["M01", "M02"]
