"""The spec's scenarios MET-S1..MET-S20 (section 7), each named after its main clause."""

from __future__ import annotations

import pytest

from cosmodeck.engine import IllegalActionError
from tests.meteor.helpers import card, draw_order, field_ids, make, of, place, ref, types


def test_MET_S1_MET_12_2_exact_hit_destroys_and_discards() -> None:
    st = make(3, zone=4, now=80, field=["M10", "M01"], sites={1: ["R10", "F", "S"]})
    assert st.built[1][0]
    hands = [len(h) for h in st.hands]
    m10 = ref(st, "M10")
    st.apply(1, f"launch s1 {m10}", at=80)
    assert st.window is not None and st.window["closes"] == 83.0
    assert "M10" in field_ids(st)
    events = st.advance(83)
    revealed = of(events, "revealed")
    assert revealed and revealed[0]["size"] == 3 and revealed[0]["ref"] == m10
    assert of(events, "volley")[0]["result"] == "destroyed"
    assert "M10" not in field_ids(st)
    assert st.removed[-1]["id"] == "M10" and st.removed[-1]["cause"] == "destroyed"
    assert {"R10#1", "F#1", "S#1"} <= set(st.discard)
    assert st.zone == 4 and "deal" not in types(events)
    assert [len(h) for h in st.hands] == hands


def test_MET_S2_MET_12_2_under_hit_reveals_and_leaves_the_meteor() -> None:
    st = make(3, field=["M16", "M01"], sites={0: ["R06", "S"]})
    m16 = ref(st, "M16")
    st.apply(0, f"launch s0 {m16}", at=1)
    events = st.advance(4)
    assert of(events, "volley")[0]["result"] == "no_effect"
    meteor = st.meteor(m16)
    assert meteor is not None and meteor.up
    assert {"R06#1", "S#1"} <= set(st.discard)
    assert st.zone == 5 and "zone_change" not in types(events)


def test_MET_S3_MET_13_1_overkill_changes_the_zone_at_once() -> None:
    st = make(3, zone=3, now=155, field=["M04", "M21"], sites={2: ["R17", "F", "S", "E"]})
    assert st.timer_end == 180.0  # 25 s left
    st.apply(0, "pass", at=155)
    st.apply(2, f"launch s2 {ref(st, 'M04')}", at=155)
    events = st.advance(158)
    assert of(events, "volley")[0]["result"] == "overkill"
    assert st.zone == 2 and st.timer_end == 218.0
    assert draw_order(events) == [0, 1, 2, 0, 1, 2]
    assert st.passes == [False, False, False]
    assert field_ids(st) == ["M21"]


@pytest.mark.parametrize("how", ["overkill", "timer", "all_pass"])
def test_MET_S4_MET_14_3_overkill_timer_or_passes_in_zone_1_lose(how: str) -> None:
    st = make(2, zone=1, field=["M01", "M21"], sites={0: ["R13", "S", "E"]})
    if how == "overkill":
        st.apply(0, f"launch s0 {ref(st, 'M01')}", at=241)
        st.advance(244)
        assert "M01" not in field_ids(st)
    elif how == "timer":
        st.advance(300)
    else:
        st.apply(0, "pass", at=250)
        st.apply(1, "pass", at=251)
    res = st.result
    assert res is not None and res.team_win is False
    assert res.details["cause"] == how and res.details["zone"] == 1
    assert res.winners == frozenset()


def test_MET_S5_MET_13_1_overkilling_the_last_meteor_in_zone_1_wins() -> None:
    st = make(2, zone=1, field=["M01"], sites={0: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=241)
    events = st.advance(244)
    res = st.result
    assert res is not None and res.team_win is True
    assert "zone_change" not in types(events) and st.zone == 1
    assert res.details["score"] == 1 and res.scores == {0: 1.0, 1: 1.0}


def test_MET_S6_MET_9_3_1_two_rockets_make_a_retrofit_not_a_rocket() -> None:
    st = make(3, sites={0: ["R10", "F"]}, hands={0: ["R01", "S"], 1: ["R01"]})
    assert st.view(0)["sites"][0]["status"] == "rocket"
    place(st, 0, "R01", 0)
    assert st.view(0)["sites"][0]["status"] == "dead"
    place(st, 0, "S", 0)
    assert not st.built[0][0] and st.view(0)["sites"][0]["status"] == "dead"
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "launch s0 m1")
    assert err.value.code == "no_rocket"
    on_site = list(st.sites[0][0])
    st.apply(0, "discard_project s0")
    assert st.sites[0][0] == [] and set(on_site) <= set(st.discard)
    # (b) R10 then another player's R01: a rocket retrofit in progress
    st2 = make(3, hands={0: ["R10"], 1: ["R01"]})
    place(st2, 0, "R10", 0)
    place(st2, 1, "R01", 0)
    assert st2.view(0)["sites"][0]["status"] == "rocket_retrofit"


def test_MET_S7_MET_10_1_leftover_energy_blocks_the_rocket() -> None:
    st = make(3, sites={1: ["F", "A"]}, hands={1: ["R01", "S", "E"]})
    twin = st.clone()
    place(st, 1, "R01", 1)
    assert not st.built[1][0] and st.view(1)["sites"][1]["status"] == "dead"
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "launch s1 m1")
    assert err.value.code in ("no_rocket", "no_such_meteor")
    # S and E instead of R01 complete the energy retrofit F A S E
    place(twin, 1, "S", 1)
    events = place(twin, 1, "E", 1)
    assert of(events, "retrofit")[0]["kind"] == "energy" and twin.sites[1][0] == []


@pytest.mark.parametrize("energy", [["F", "F", "F", "F"], ["F", "A", "S", "E"]])
def test_MET_S8_MET_9_2_4_energy_retrofit_with_2_players(energy: list[str]) -> None:
    st = make(2, field=["M01"], hands={0: [energy[0], energy[2]], 1: [energy[1], energy[3]]})
    place(st, 0, energy[0], 0)
    place(st, 1, energy[1], 0)
    place(st, 0, energy[2], 0)
    events = place(st, 1, energy[3], 0)
    assert of(events, "retrofit")[0]["builder"] == 0
    assert draw_order(events) == [0, 1, 0, 1, 0]
    assert len(st.hands[0]) == 3 and len(st.hands[1]) == 2
    assert st.sites[0][0] == []


def test_MET_S9_MET_9_2_4_invalid_energy_pattern_is_dead() -> None:
    st = make(3, hands={0: ["F", "F", "A", "S", "E", "R08"]})
    for e in ("F", "F", "A"):
        place(st, 0, e, 0)
    assert st.view(0)["sites"][0]["status"] == "open"  # R08 (FFA) could still complete it
    twin = st.clone()
    place(twin, 0, "R08", 0)
    assert twin.built[0][0]
    events = place(st, 0, "S", 0)
    assert st.view(0)["sites"][0]["status"] == "dead" and "deal" not in types(events)
    for more in ("E", "R08"):
        place(st, 0, more, 0)
        assert st.view(0)["sites"][0]["status"] == "dead" and not st.built[0][0]


def test_MET_S10_MET_9_2_5_rocket_retrofit_all_different_3_players() -> None:
    st = make(3, hands={2: ["R02", "R19"], 0: ["R06"], 1: ["R13"]})
    place(st, 2, "R02", 2)
    place(st, 0, "R06", 2)
    place(st, 1, "R13", 2)
    events = place(st, 2, "R19", 2)
    assert of(events, "retrofit")[0]["kind"] == "rocket"
    assert draw_order(events) == [2, 0, 1, 2, 2]
    # damages {1, 1, 2, 4} make it dead
    st2 = make(3, hands={0: ["R01", "R02", "R06", "R13"]})
    for r in ("R01", "R02", "R06"):
        place(st2, 0, r, 0)
    assert st2.view(0)["sites"][0]["status"] == "dead"
    events = place(st2, 0, "R13", 0)
    assert "retrofit" not in types(events)


@pytest.mark.parametrize(("players", "builder", "other"), [(1, 5, None), (2, 3, 2), (3, 3, 1), (4, 2, 1), (5, 1, 1)])
def test_MET_S11_MET_9_2_3_retrofit_split_by_player_count(players: int, builder: int, other: int | None) -> None:
    st = make(players, hands={0: ["F", "F", "F", "F"]})
    before = [len(h) for h in st.hands]
    for _ in range(4):
        place(st, 0, "F", 0)
    gained = [len(h) - b for h, b in zip(st.hands, before, strict=True)]
    assert gained[0] == builder - 4  # placed 4, drew its share
    if other is not None:
        assert gained[1:] == [other] * (players - 1)


def test_MET_S12_MET_5_1_everyone_passes_changes_the_zone() -> None:
    st = make(3, zone=4, now=90, field=["M01"], hands={0: ["F"]})
    st.apply(0, "pass", at=91)
    st.apply(1, "pass", at=92)
    place(st, 0, "F", 0, at=93)
    assert st.passes == [False, True, False]
    events = st.apply(2, "pass", at=94)
    assert st.zone == 4 and "zone_change" not in types(events)
    events = st.apply(0, "pass", at=101)
    assert st.zone == 3 and st.timer_end == 161.0
    assert draw_order(events) == [0, 1, 2, 0, 1, 2]
    assert st.passes == [False, False, False]
    solo = make(1, zone=4, now=90, field=["M01"])
    solo.apply(0, "pass", at=95)
    assert solo.zone == 3


def test_MET_S13_MET_6_1_resource_deck_exhausted() -> None:
    st = make(2, zone=4, field=["M01", "M02"], deck_left=3, hands={0: ["F", "F", "F", "F"]})
    events = st.advance(120)
    assert st.zone == 3
    assert draw_order(events) == [0, 1, 0]
    assert of(events, "deal")[0]["lost"] == 3 and st.deck == []
    before = [len(h) for h in st.hands]
    for _ in range(4):
        place(st, 0, "F", 0)
    events_discard = len(st.discard)
    assert st.sites[0][0] == [] and events_discard >= 4
    assert [len(h) for h in st.hands] == [before[0] - 4, before[1]]
    assert not st.is_over and st.deck == []


def test_MET_S14_MET_8_4_first_card_belongs_to_the_controller() -> None:
    st = make(3, field=["M01", "M02"], hands={0: ["F", "F"], 1: ["R10"], 2: ["S"]})
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "F", 1)
    assert err.value.code == "first_card"
    place(st, 1, "R10", 1)
    place(st, 0, "F", 1)
    place(st, 2, "S", 1)
    assert st.built[1][0]
    for text, code in ((f"launch s1 {ref(st, 'M01')}", "not_controller"),
                       (f"place_card {card(st, 0, 'F')} s1", "site_locked")):
        with pytest.raises(IllegalActionError) as err:
            st.apply(0, text)
        assert err.value.code == code
    st.apply(1, f"launch s1 {ref(st, 'M01')}")
    with pytest.raises(IllegalActionError) as err:
        place(st, 0, "F", 1)
    assert err.value.code == "first_card"


def test_MET_S15_MET_11_3_volley_against_a_size_7_boss() -> None:
    st = make(3, field=["B03", "M01"], sites={0: ["R13", "S", "E"], 1: ["R10", "F", "S"]},
              meteor_deck=["M05", "M06"], difficulty="advanced")
    b03 = ref(st, "B03")
    twin = st.clone()
    st.apply(0, f"launch s0 {b03}", at=50)
    st.apply(1, f"launch s1 {b03}", at=51.2)
    events = st.advance(53)
    volley = of(events, "volley")
    assert len(volley) == 1 and volley[0]["damage"] == 7 and volley[0]["result"] == "destroyed"
    assert of(events, "revealed")[0]["size"] == 7
    assert "B03" not in field_ids(st) and field_ids(st) == ["M01", "M05", "M06"]
    assert not any(m.up for m in st.field[1:])
    assert st.zone == 5
    twin.apply(0, f"launch s0 {b03}", at=50)
    events = twin.apply(1, f"launch s1 {b03}", at=53.5)  # the first window closed at 53
    events += twin.advance(57)
    assert [v["result"] for v in of(events, "volley")] == ["no_effect", "no_effect"]
    assert "B03" in field_ids(twin)


def test_MET_S16_MET_7_1_talk_before_and_after_the_satellite() -> None:
    st = make(3, sites={1: ["T01", "F", "A"]}, hands={2: ["E"]})
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "chat hello team")
    assert err.value.code == "no_talking"
    st.apply(0, "pass")
    st.apply(0, "emote thumbs_up")
    events = place(st, 2, "E", 1)
    assert of(events, "tech_built")[0]["tech"] == "T01"
    assert st.techs == ["T01#1"] and {"F#1", "A#1", "E#1"} <= set(st.discard) and st.sites[1][0] == []
    st.apply(0, "chat hello team")
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "show_hand")
    assert err.value.code == "no_showing"
    first = make(3, first_game=True, hands={0: ["F"]})
    first.apply(0, "chat hello team", at=0)
    first.apply(0, "show_hand", at=0)
    assert first.view(1)["hands"][0]["known"] == ["F#1"]


def test_MET_S17_MET_13_2_multiple_overkills_make_one_zone_change() -> None:
    st = make(4, zone=3, now=125, field=["M01", "M04", "M21"],
              sites={0: ["R13", "S", "E"], 1: ["R17", "F", "S", "E"]})
    twin = st.clone()
    st.apply(0, f"launch s0 {ref(st, 'M01')}", at=130)
    st.apply(1, f"launch s1 {ref(st, 'M04')}", at=131)
    events = st.advance(133)
    assert [v["result"] for v in of(events, "volley")] == ["overkill", "overkill"]
    assert len(of(events, "zone_change")) == 1 and st.zone == 2
    assert draw_order(events) == [0, 1, 2, 3] * 2
    assert field_ids(st) == ["M21"]
    twin.apply(0, f"launch s0 {ref(twin, 'M01')}", at=130)
    first = twin.advance(133)
    assert twin.zone == 2 and of(first, "zone_change")[0]["to"] == 2
    twin.apply(1, f"launch s1 {ref(twin, 'M04')}", at=134)
    second = twin.advance(137)
    assert twin.zone == 1 and of(second, "zone_change")[0]["from"] == 2
