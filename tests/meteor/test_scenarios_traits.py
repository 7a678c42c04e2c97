"""Scenarios MET-S18 (standard traits), MET-S19 (boss traits) and MET-S20 (timer during a window)."""

from __future__ import annotations

from typing import Any

from cosmodeck.games.meteor.state import MeteorState
from tests.meteor.helpers import draw_order, field_ids, fm, make, of, ref, types

ROCKETS = {"R01": ["R01", "F"], "R06": ["R06", "S"], "R10": ["R10", "F", "S"], "R13": ["R13", "S", "E"],
           "R17": ["R17", "F", "S", "E"]}


def volley(st: MeteorState, target: str, rockets: list[str], at: float | None = None) -> list[Any]:
    """Build ``rockets`` on seats 0.. and launch them all at ``target`` in one window."""
    t = st.now if at is None else at
    for seat, r in enumerate(rockets):
        st.sites[seat][0] = []
        st.built[seat][0] = False
        for base in ROCKETS[r]:
            pile = st.deck if any(c.split("#")[0] == base for c in st.deck) else st.discard
            cid = next(c for c in pile if c.split("#")[0] == base)
            pile.remove(cid)
            st.sites[seat][0].append(cid)
        st.built[seat][0] = True
    events: list[Any] = []
    for seat in range(len(rockets)):
        events += st.apply(seat, f"launch s{seat} {ref(st, target)}", at=t)
    events += st.advance(t + 3)
    return events


def test_MET_S18_a_MET_12_3_shielded_first_volley_only_reveals() -> None:
    st = make(3, field=["M11", "M01"])
    events = volley(st, "M11", ["R10"])
    assert of(events, "volley")[0]["result"] == "shielded" and fm(st, "M11").up
    events = volley(st, "M11", ["R10"])
    assert of(events, "volley")[0]["result"] == "destroyed" and "M11" not in field_ids(st)


def test_MET_S18_b_MET_12_3_fracturing_adds_the_top_meteor() -> None:
    st = make(3, field=["M03", "M01"], meteor_deck=["M07"])
    events = volley(st, "M03", ["R01"])
    assert field_ids(st) == ["M01", "M07"] and not fm(st, "M07").up
    assert "meteor_entered" in types(events)
    empty = make(3, field=["M03", "M01"])
    empty.meteor_deck = []
    volley(empty, "M03", ["R01"])
    assert field_ids(empty) == ["M01"]
    last = make(3, field=["M03"], meteor_deck=["M07"])
    volley(last, "M03", ["R01"])
    assert field_ids(last) == ["M07"] and not last.is_over


def test_MET_S18_c_MET_12_3_brittle_never_overkills() -> None:
    st = make(3, zone=4, field=["M05", "M01"])
    events = volley(st, "M05", ["R13"])
    v = of(events, "volley")[0]
    assert v["result"] == "destroyed" and v["exempt"] == "brittle" and st.zone == 4


def test_MET_S18_d_MET_12_3_cracked_stores_damage() -> None:
    st = make(3, field=["M17", "M01"])
    events = volley(st, "M17", ["R06"])
    assert of(events, "volley")[0]["result"] == "no_effect"
    assert fm(st, "M17").store == 2 and fm(st, "M17").tucked == ["R06#1"]
    twin = st.clone()
    events = volley(st, "M17", ["R06"])
    assert of(events, "volley")[0]["damage"] == 4 and "M17" not in field_ids(st)
    assert "R06#1" in st.discard and st.zone == 5
    events = volley(twin, "M17", ["R10"])
    assert of(events, "volley")[0]["result"] == "overkill" and twin.zone == 4


def test_MET_S18_e_MET_4_3_burn_up_at_the_start_of_zone_2() -> None:
    st = make(3, zone=3, field=["M02", "M01"])
    events = st.advance(180)
    assert st.zone == 2 and "M02" not in field_ids(st)
    assert of(events, "meteor_removed")[0]["cause"] == "burn_up" and "M02" not in st.meteor_deck
    alone = make(3, zone=3, field=["M02"])
    alone.advance(180)
    assert alone.result is not None and alone.result.team_win is True and alone.result.details["zone"] == 2


def test_MET_S18_f_R10_volatile_overkill_demands_two_changes() -> None:
    st = make(3, zone=3, field=["M15", "M02", "M01"])
    events = volley(st, "M15", ["R13"])
    changes = of(events, "zone_change")
    assert [(c["from"], c["to"]) for c in changes] == [(3, 2), (2, 1)]
    assert draw_order(events) == [0, 1, 2] * 4
    assert "M02" not in field_ids(st) and st.zone == 1
    lose = make(3, zone=2, field=["M15", "M01"])
    volley(lose, "M15", ["R13"])
    assert lose.result is not None and lose.result.team_win is False
    assert lose.result.details["cause"] == "volatile_overkill"


def test_MET_S18_g_MET_12_3_evasive_needs_two_rockets() -> None:
    st = make(3, field=["M06", "M01"])
    events = volley(st, "M06", ["R06"])
    assert of(events, "volley")[0]["result"] == "evaded" and fm(st, "M06").up
    events = volley(st, "M06", ["R01", "R01"])
    assert of(events, "volley")[0]["result"] == "destroyed"


def test_MET_S19_MET_12_3_ablating_size_follows_the_zone() -> None:
    zone3 = make(3, zone=3, field=["B09", "M01"], difficulty="advanced")
    assert of(volley(zone3, "B09", ["R17", "R10"]), "volley")[0]["result"] == "destroyed"
    zone5 = make(3, zone=5, field=["B09", "M01"], difficulty="advanced")
    assert of(volley(zone5, "B09", ["R17", "R10"]), "volley")[0]["result"] == "no_effect"


def test_MET_S19_MET_12_3_dense_ignores_damage_1() -> None:
    st = make(3, field=["B10", "M01"], difficulty="expert")
    v = of(volley(st, "B10", ["R17", "R17", "R01"]), "volley")[0]
    assert v["damage"] == 10 and v["result"] == "no_effect"


def test_MET_S19_MET_12_1_stealth_stays_face_down() -> None:
    st = make(3, field=["B06", "M01"], difficulty="advanced")
    events = volley(st, "B06", ["R17"])
    assert of(events, "volley")[0]["result"] == "no_effect" and "revealed" not in types(events)
    assert not fm(st, "B06").up and "size" not in of(events, "volley")[0]
    assert st.view(0)["field"][0].get("id") is None


def test_MET_S19_MET_12_3_scorching_burns_a_card_from_each_hand() -> None:
    st = make(3, field=["B08", "M01"], hands={0: ["F", "A"], 1: ["S"], 2: []}, difficulty="advanced")
    events = volley(st, "B08", ["R01"])
    scorched = of(events, "scorched")
    assert sorted(e["seat"] for e in scorched) == [0, 1]
    assert len(st.hands[0]) == 1 and st.hands[1] == [] and "S#1" in st.discard


def test_MET_S19_MET_12_3_evasive_3_needs_three_rockets() -> None:
    st = make(3, field=["B07", "M01"], difficulty="advanced")
    assert of(volley(st, "B07", ["R17", "R17"]), "volley")[0]["result"] == "evaded"
    assert of(volley(st, "B07", ["R17", "R13", "R01"]), "volley")[0]["result"] == "destroyed"


def test_MET_S20_R11_window_closes_early_when_the_timer_expires() -> None:
    st = make(2, zone=1, field=["M21"], sites={0: ["R17", "F", "S", "E"]})
    assert st.timer_end == 300.0
    twin = make(2, zone=1, field=["M21"], sites={0: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M21')}", at=298.5)
    assert st.next_deadline() == 300.0
    events = st.advance(300)
    assert of(events, "volley")[0]["result"] == "destroyed"
    assert st.result is not None and st.result.team_win is True and "timer_expired" not in types(events)
    twin.apply(0, f"launch s0 {ref(twin, 'M21')}", at=298.5)
    events = twin.advance(300)
    assert of(events, "volley")[0]["result"] == "no_effect"
    assert twin.result is not None and twin.result.team_win is False and twin.result.details["cause"] == "timer"


def test_MET_S20_R13_time_out_moves_every_deadline() -> None:
    st = make(2, zone=1, field=["M21"], sites={0: ["R13", "S", "E"]})
    st.apply(0, f"launch s0 {ref(st, 'M21')}", at=298.5)
    st.apply(0, "time_out", at=299)
    assert st.next_deadline() is None
    st.advance(310)
    assert st.zone == 1 and not st.is_over
    st.apply(0, "resume", at=320)
    assert st.timer_end == 321.0 and st.window is not None and st.window["closes"] == 322.5
    assert st.next_deadline() == 321.0
