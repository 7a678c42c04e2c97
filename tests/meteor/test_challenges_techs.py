"""Challenge cards C01-C11 (6.8) and Technologies T02-T06 (6.3, R17)."""

from __future__ import annotations

from typing import Any

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.games.meteor.actions import Pass, PlaceCard, Site
from tests.meteor.helpers import fm, load, make, of, place, ref, types

ADV: dict[str, Any] = {"difficulty": "advanced"}


def test_MET_2_8_C03_one_handed_waits_between_placements() -> None:
    st = make(2, field=["M01"], challenges={0: "C03"}, hands={0: ["F", "A", "S"]}, **ADV)
    place(st, 0, "F", 0, at=10)
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "A", 0, at=11.5)
    assert err.value.code == "one_handed"
    assert not any(isinstance(a, PlaceCard) for a in st.legal_actions(0))
    place(st, 0, "A", 0, at=12)
    st.apply(0, "time_out", at=12.5)
    st.apply(0, "resume", at=40)
    with pytest.raises(IllegalActionError) as err:  # the rate limit was frozen too
        place(st, 0, "S", 0, at=40.5)
    assert err.value.code == "one_handed"


def test_MET_2_8_C04_backwards_plays_by_position_and_others_see_the_faces() -> None:
    st = make(2, field=["M01"], challenges={0: "C04"}, hands={0: ["F", "R10"]}, **ADV)
    assert st.view(0)["hands"][0]["cards"] is None and st.view(1)["hands"][0]["cards"] == ["F#1", "R10#1"]
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "place_card R10#1 s0")
    assert err.value.code == "backwards"
    st.apply(0, "place_card @1 s0")
    assert st.sites[0][0] == ["R10#1"]
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "place_card @0 s1")
    assert err.value.code in ("not_backwards", "bad_position")
    draws = [e for e in st.advance(60) if e.type == "drew" and e.data["seat"] == 0]
    assert "cards" not in draws[0].for_seat(0) and "cards" in draws[0].for_seat(1)  # type: ignore[operator]


def test_MET_2_8_C05_short_rations_start_two_smaller() -> None:
    game = load(**ADV)
    found = False
    for seed in range(60):
        state = game.new_game(players=5, seed=seed)
        for s in range(5):
            if state.has_challenge(s, "short_rations"):
                assert len(state.hands[s]) == 2
                found = True
            else:
                assert len(state.hands[s]) == 4
    assert found


def test_MET_2_8_C06_C07_closed_site_and_homebody() -> None:
    st = make(3, field=["M01"], challenges={1: "C06", 2: "C07"}, sites={1: ["F"], 0: ["F"]},
              hands={0: ["A"], 2: ["A"]}, **ADV)
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "A", 1)
    assert err.value.code == "closed_site"
    with pytest.raises(IllegalActionError) as err:
        place(st, 2, "A", 0)
    assert err.value.code == "homebody"


def test_MET_2_8_C08_stubborn_never_passes_so_no_all_pass() -> None:
    st = make(2, field=["M01"], challenges={1: "C08"}, **ADV)
    st.apply(0, "pass")
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "pass")
    assert err.value.code == "stubborn"
    assert not any(isinstance(a, Pass) for a in st.legal_actions(1)) and st.zone == 5


def test_MET_2_8_C09_C10_light_payloads_and_power_fault() -> None:
    st = make(2, field=["M01"], challenges={1: "C09", 0: "C10"}, sites={0: ["F"], 1: ["F"]},
              hands={0: ["R13", "R10"], 1: ["E", "S"]}, **ADV)
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "R13", 1)
    assert err.value.code == "light_payloads"
    place(st, 0, "R10", 1)
    with pytest.raises(IllegalActionError) as err:
        place(st, 1, "E", 0)
    assert err.value.code == "power_fault"
    place(st, 1, "S", 0)


def test_MET_2_8_C11_countdown_delays_the_launch() -> None:
    st = make(2, field=["M04", "M01"], challenges={0: "C11"}, sites={0: ["R06", "S"], 1: ["R06", "S"]}, **ADV)
    events = st.apply(0, f"launch s0 {ref(st, 'M04')}", at=10)
    assert of(events, "launch_called")[0]["due"] == 13.0 and st.built[0][0] and st.window is None
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, f"launch s0 {ref(st, 'M01')}", at=11)
    assert err.value.code == "launch_pending"
    assert st.next_deadline() == 13.0
    events = st.advance(13)
    assert "launch" in types(events) and st.window is not None and st.window["closes"] == 16.0
    gone = make(2, field=["M04", "M01"], challenges={0: "C11"}, sites={0: ["R06", "S"], 1: ["R06", "S"]}, **ADV)
    gone.apply(0, f"launch s0 {ref(gone, 'M04')}", at=10)
    gone.apply(1, f"launch s1 {ref(gone, 'M04')}", at=10)
    events = gone.advance(13)
    assert "countdown_fizzled" in types(events) and gone.built[0][0]


def test_R17_T02_tracking_station_later_meteors_enter_face_up() -> None:
    st = make(2, field=["M03", "M01"], techs=["T02"], meteor_deck=["M10"], sites={0: ["R01", "F"]})
    st.apply(0, f"launch s0 {ref(st, 'M03')}", at=1)
    st.advance(4)
    assert fm(st, "M10").up


def test_R17_T03_guidance_computer_overkill_by_one_is_safe() -> None:
    st = make(2, field=["M04", "M01"], techs=["T03"], sites={0: ["R10", "F", "S"], 1: ["R13", "S", "E"]})
    twin = st.clone()
    st.apply(0, f"launch s0 {ref(st, 'M04')}", at=1)
    v = of(st.advance(4), "volley")[0]
    assert v["exempt"] == "guidance_computer" and st.zone == 5
    twin.apply(1, f"launch s1 {ref(twin, 'M04')}", at=1)
    assert of(twin.advance(4), "volley")[0]["result"] == "overkill"


def test_R17_T04_recycling_plant_three_card_retrofit_on_demand() -> None:
    st = make(3, field=["M01"], techs=["T04"], sites={0: ["F", "F", "F"], 1: ["R01", "R06", "R10"]})
    with pytest.raises(IllegalActionError) as err:
        st.apply(2, "complete_retrofit s2")
    assert err.value.code == "no_retrofit"
    events = st.apply(0, "complete_retrofit s0")
    assert of(events, "retrofit")[0]["kind"] == "three_card" and of(events, "deal")[0]["order"] == [0, 1, 2, 0, 0]
    st.apply(1, "complete_retrofit s1")
    plain = make(3, field=["M01"], sites={0: ["F", "F", "F"]})
    with pytest.raises(IllegalActionError) as err:
        plain.apply(0, "complete_retrofit s0")
    assert err.value.code == "no_tech"


def test_R17_T05_research_laboratory_one_more_draw() -> None:
    st = make(2, field=["M01"], techs=["T05"])
    st.advance(60)
    assert [len(h) for h in st.hands] == [4, 4]


def test_R17_T06_mission_control_flips_on_completion() -> None:
    st = make(2, field=["M01"], now=15, sites={0: ["T06", "F", "A"]}, hands={0: ["S"]})
    events = place(st, 0, "S", 0, at=15)
    assert of(events, "timer_flipped")[0]["remaining_before"] == 45.0 and st.timer_end == 30.0


def _backwards_blind() -> Any:
    """Seat 0 is Backwards; seat 1 has Light Payloads, seat 2 Power Fault; both sites hold a project."""
    return make(3, field=["M01"], challenges={0: "C04", 1: "C09", 2: "C10"}, sites={1: ["F"], 2: ["F"]},
                hands={0: ["R13", "E", "R10", "S"]}, **ADV)


def test_R21_C04_a_backwards_seats_legal_actions_never_depend_on_faces_it_cannot_see() -> None:
    st = _backwards_blind()
    base = st.legal_actions(0)
    assert PlaceCard("@0", Site(1, 0)) in base and PlaceCard("@1", Site(2, 0)) in base
    for order in ([3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]):  # the same backs, other faces behind them
        twin = st.clone()
        twin.hands[0] = [st.hands[0][i] for i in order]
        assert twin.legal_actions(0) == base and twin.view(0) == st.view(0)


def test_R21_C04_C09_C10_a_forbidden_card_placed_blind_is_revealed_and_discarded() -> None:
    st = _backwards_blind()
    rocket = st.hands[0][0]
    ev = st.apply(0, "place_card @0 s1")  # R13 (damage 4) onto a Light Payloads site
    assert of(ev, "challenge_discard") == [{"type": "challenge_discard", "seat": 0, "card": rocket, "site": "s1",
                                            "challenge": "light_payloads",
                                            "why": "Light Payloads: no rockets of damage 4 or 5 on that site"}]
    assert all(e.public for e in ev) and "placed" not in types(ev)
    assert st.sites[1][0] == ["F#1"] and st.discard[-1] == rocket and rocket not in st.hands[0]
    electric = st.hands[0][0]
    ev = st.apply(0, "place_card @0 s2")  # Electric energy onto a Power Fault site
    assert [e["challenge"] for e in of(ev, "challenge_discard")] == ["power_fault"]
    assert st.discard[-1] == electric and len(st.sites[2][0]) == 1
    ev = st.apply(0, "place_card @0 s1")  # R10 (damage 3) is allowed there: an ordinary placement
    assert types(ev)[0] == "placed" and len(st.sites[1][0]) == 2
    with pytest.raises(IllegalActionError) as err:  # who sees their faces is still refused, naming the Challenge
        make(3, field=["M01"], challenges={1: "C09"}, sites={1: ["F"]}, hands={0: ["R13"]}, **ADV).apply(
            0, "place_card R13#1 s1")
    assert err.value.code == "light_payloads"
