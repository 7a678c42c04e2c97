"""Launch sites and projects: MET-8, MET-9, MET-10; rulings R1-R6, R17."""

from __future__ import annotations

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.games.meteor.actions import PlaceCard
from cosmodeck.games.meteor.state import MeteorState
from tests.meteor.helpers import make, of, place, ref, types


def status(st: MeteorState, seat: int, slot: int = 0) -> str:
    view = st.view(None)
    return str(next(s["status"] for s in view["sites"] if s["seat"] == seat and s["slot"] == slot))


def test_MET_8_1_R3_one_project_at_a_time_discard_to_make_room() -> None:
    st = make(2, field=["M01"], sites={0: ["R10", "F"]}, hands={0: ["R01", "F"]})
    place(st, 0, "R01", 0)  # a second rocket joins the same project (now dead)
    assert len(st.sites[0]) == 1 and status(st, 0) == "dead"
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "discard_project s0")
    assert err.value.code == "not_controller"
    events = st.apply(0, "discard_project s0")
    assert len(of(events, "project_discarded")[0]["cards"]) == 3 and status(st, 0) == "empty"
    place(st, 0, "F", 0)
    assert status(st, 0) == "open"


def test_MET_8_2_placed_cards_never_move_or_return() -> None:
    st = make(2, field=["M01"], hands={0: ["F", "A"]})
    fuel = st.hands[0][0]
    place(st, 0, "F", 0)
    assert fuel not in st.hands[0]
    legal = [str(a) for a in st.legal_actions(0)] + [str(a) for a in st.legal_actions(1)]
    assert not any(fuel in a for a in legal)  # no action moves or takes it back (no Mechanic)


def test_MET_8_3_place_on_any_players_site_including_your_own() -> None:
    st = make(3, field=["M01"], sites={1: ["R10"], 2: ["F"]}, hands={0: ["F", "A", "S"]})
    place(st, 0, "F", 1)
    place(st, 0, "A", 2)
    place(st, 0, "S", 0)
    assert [len(s[0]) for s in st.sites] == [1, 2, 2]


def test_MET_8_5_R5_three_project_types_and_a_locked_site() -> None:
    st = make(3, field=["M01"], sites={0: ["T02"], 1: ["R01"], 2: ["R01", "R02"]}, hands={0: ["F"], 1: ["F"]})
    assert (status(st, 0), status(st, 1), status(st, 2)) == ("tech", "rocket", "rocket_retrofit")
    place(st, 1, "F", 1)
    assert status(st, 1) == "built"
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "F", 1)
    assert err.value.code == "site_locked"
    assert not any(isinstance(a, PlaceCard) and a.site.seat == 1 for a in st.legal_actions(0))


def test_R1_classification_of_site_contents() -> None:
    st = make(3, field=["M01"], sites={0: ["F", "A", "S", "S"], 1: ["R01", "T04"], 2: ["T02", "T03"]})
    assert (status(st, 0), status(st, 1), status(st, 2)) == ("dead", "dead", "dead")
    st = make(3, field=["M01"], sites={0: ["F", "S"], 1: ["R01", "R02", "F"], 2: ["S", "S", "E"]})
    assert (status(st, 0), status(st, 1), status(st, 2)) == ("open", "dead", "dead")


def test_R2_completion_is_automatic_and_a_dead_placement_is_legal() -> None:
    st = make(2, field=["M01"], sites={0: ["R10", "F"]}, hands={0: ["S", "A"]})
    twin = st.clone()
    events = place(st, 0, "S", 0)
    assert "rocket_built" in types(events) and st.built[0][0]
    events = place(twin, 0, "A", 0)
    assert "project_dead" in types(events) and not twin.built[0][0]


def test_R3_a_built_rocket_cannot_be_discarded() -> None:
    st = make(2, field=["M01"], sites={0: ["R01", "F"]})
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "discard_project s0")
    assert err.value.code == "rocket_built"


def test_R4_first_card_rule_applies_to_every_new_project() -> None:
    st = make(2, field=["M01"], sites={0: ["F", "S", "S"]}, hands={0: ["A"], 1: ["F", "A"]})
    place(st, 1, "F", 0)  # not the first card: allowed, but the project is now dead
    st.apply(0, "discard_project s0")
    with pytest.raises(IllegalActionError) as err:
        place(st, 1, "A", 0)
    assert err.value.code == "first_card"


def test_R6_the_builder_is_the_sites_controller() -> None:
    st = make(3, field=["M01"], sites={1: ["A", "A", "A"]}, hands={2: ["A"]})
    events = place(st, 2, "A", 1)
    assert of(events, "retrofit")[0]["builder"] == 1
    assert of(events, "deal")[0]["order"] == [1, 2, 0, 1, 1]


def test_MET_9_1_1_tech_needs_its_exact_energy() -> None:
    st = make(2, field=["M01"], sites={0: ["T02", "A"]}, hands={0: ["S", "F"]})
    twin = st.clone()
    events = place(st, 0, "S", 0)
    assert of(events, "tech_built")[0]["tech"] == "T02"
    place(twin, 0, "F", 0)
    assert not twin.techs and status(twin, 0) == "dead"


def test_MET_9_1_2_R17_tech_goes_next_to_the_field_and_acts_at_once() -> None:
    st = make(2, field=["M01", "M10", "B06"], up=["M01"], sites={0: ["T02", "A"]}, hands={0: ["S"]},
              difficulty="advanced")
    events = place(st, 0, "S", 0)
    assert st.techs == ["T02#1"] and st.sites[0][0] == [] and {"A#1", "S#1"} <= set(st.discard)
    assert [m.up for m in st.field] == [True, True, False]  # Stealth B06 stays hidden
    assert [e["ref"] for e in of(events, "revealed")] == [ref(st, "M10")]
    assert st.view(1)["techs"][0]["key"] == "tracking_station"


def test_MET_9_2_1_MET_9_2_2_retrofit_turns_four_cards_into_five() -> None:
    st = make(3, field=["M01"], hands={0: ["R01", "R03", "R10", "R13"]})
    for r in ("R01", "R03", "R10"):
        place(st, 0, r, 0)
    assert status(st, 0) == "rocket_retrofit"
    events = place(st, 0, "R13", 0)
    assert of(events, "retrofit")[0]["cards"] == ["R01#1", "R03#1", "R10#1", "R13#1"]
    assert len(st.hands[0]) == 3 and sum(len(h) for h in st.hands) == 5


def test_MET_9_2_3_R18_retrofit_draws_in_order() -> None:
    st = make(4, field=["M01"], hands={2: ["S", "S", "S", "S"]})
    for _ in range(4):
        place(st, 2, "S", 2)
    assert st.view(0)["hands"][2]["count"] == 2 and [len(h) for h in st.hands] == [1, 1, 2, 1]


def test_MET_9_2_4_energy_patterns() -> None:
    for pattern in (["A"] * 4, ["S"] * 4, ["E"] * 4, ["F", "A", "S", "E"]):
        st = make(2, field=["M01"], hands={0: pattern})
        for e in pattern:
            events = place(st, 0, e, 0)
        assert "retrofit" in types(events)
    st = make(2, field=["M01"], hands={0: ["F", "F", "A", "A"]})
    for e in ("F", "F", "A", "A"):
        events = place(st, 0, e, 0)
    assert "retrofit" not in types(events) and status(st, 0) == "dead"


@pytest.mark.parametrize("rockets", [["R01", "R02", "R01", "R02"], ["R17", "R18", "R19", "R20"],
                                     ["R01", "R03", "R08", "R17"], ["R06", "R10", "R13", "R17"]])
def test_MET_9_2_5_rocket_patterns(rockets: list[str]) -> None:
    st = make(2, field=["M01"], hands={0: rockets})
    for r in rockets:
        events = place(st, 0, r, 0)
    assert of(events, "retrofit")[0]["kind"] == "rocket"


def test_MET_9_3_1_one_rocket_and_its_energy_build_it() -> None:
    st = make(2, field=["M01"], hands={0: ["F", "S", "R10"]})
    place(st, 0, "F", 0)
    place(st, 0, "S", 0)
    assert status(st, 0) == "open"
    events = place(st, 0, "R10", 0)  # the rocket may come last
    assert of(events, "rocket_built")[0] == {"type": "rocket_built", "site": "s0", "rocket": "R10", "card": "R10#1",
                                                "damage": 3}


def test_MET_9_3_2_only_the_controller_decides_the_launch() -> None:
    st = make(2, field=["M01"], sites={0: ["R01", "F"]})
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, f"launch s0 {ref(st, 'M01')}")
    assert err.value.code == "not_controller"
    st.advance(30)
    assert st.built[0][0]  # it waits for its controller


def test_MET_10_1_no_leftover_energy() -> None:
    st = make(2, field=["M01"], sites={0: ["F", "F"]}, hands={0: ["R01"]})
    place(st, 0, "R01", 0)
    assert not st.built[0][0] and status(st, 0) == "dead"


def test_MET_10_2_discard_the_energy_and_start_again() -> None:
    st = make(2, field=["M01"], sites={0: ["F", "A"]}, hands={0: ["F", "R01"]})
    st.apply(0, "discard_project s0")
    place(st, 0, "F", 0)
    events = place(st, 0, "R01", 0)
    assert "rocket_built" in types(events)
