"""Scenarios SHS-S1..S13 and S22: resolution of Destruction cards (SHS-6 to SHS-11)."""

from __future__ import annotations

from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34
from tests.shooting_star.helpers import after_resolve, kinds, stack, tokens, types


def test_SHS_S1_SHS_7_8_example_1_bottom_edge() -> None:
    st, ev = stack(["4 4 4", "4 2 4", "3 4 1"], ["R:P1@(1,2)N#1", "Y:SH@(0,0)#2"])
    steps = after_resolve(ev, "blastroid:P1")
    assert [(e.type, e.data.get("cell")) for e in steps] == [
        ("flip", [1, 1]), ("capture", [2, 2]), ("miss", [1, 3]), ("capture", [0, 2]), ("replace", [0, 2]),
        ("to_debris", None)]
    assert steps[2].data["reason"] == "off_grid"
    assert tokens(st) == ["4 4 4", "4 1 4", "2 4 ."]
    assert kinds(st, st.conquest[0]) == [KIND_12, KIND_34]
    assert kinds(st, st.debris[0]) == ["R:P1"]
    assert kinds(st, st.debris[1]) == ["Y:SH"]
    assert ev[-2].data == {"seat": 1, "card": "krakenian:SH", "cause": "turn_end"}


def test_SHS_S2_SHS_8_1_example_2_card_destroyed() -> None:
    st, ev = stack(["3 4 1", "4 4 4"], ["Y:P2@(0,0)N#1", "R:P6@(1,0)N#2"])
    assert tokens(st) == ["3 4 .", "4 4 4"]
    assert kinds(st, st.debris[1]) == ["Y:P2", "R:P6"]
    assert kinds(st, st.conquest[1]) == [KIND_12]
    assert "krakenian:P2" not in [e.data.get("card") for e in ev if e.type == "resolve"]
    destroy = next(e for e in ev if e.type == "destroy")
    assert destroy.data == {"card": "krakenian:P2", "owner": 0, "cell": [0, 0], "by": 1}


def test_SHS_S3_SHS_9_2_example_3_shield_captures_attacker() -> None:
    st, ev = stack(["1 4 2", "4 4 4"], ["R:P5@(1,1)N#1", "G:SH@(2,0)#2"])
    assert kinds(st, st.conquest[1]) == ["R:P5", "G:SH"]
    assert tokens(st) == ["1 4 2", "4 4 4"]
    shield = next(e for e in ev if e.type == "shield")
    assert shield.data == {"attacker": 0, "card": "blastroid:P5", "defender": 1, "cell": [2, 0]}
    assert not [e for e in ev if e.type in ("flip", "capture", "miss")]


def _s4(**opts: object) -> None:
    st, ev = stack(["3 . 4", "1 . 4", "4 4 4"], ["R:SH@(2,0)#1", "B:P4@(0,2)N#2"], **opts)  # type: ignore[arg-type]
    assert tokens(st) == [". . 4", ". . 4", "4 4 4"]
    assert kinds(st, st.conquest[1]) == [KIND_12, KIND_34]
    assert kinds(st, st.debris[1]) == [KIND_12, "B:P4"]
    replaced = next(e for e in ev if e.type == "replace").data["planet"]
    assert st.debris[1][0] == replaced
    iso = next(e for e in ev if e.type == "capture" and e.data["cause"] == "isolation")
    assert iso.data == {"seat": 1, "planet": replaced, "cell": [0, 0], "pile": "debris", "cause": "isolation"}
    assert kinds(st, st.debris[0]) == ["R:SH"]


def test_SHS_S4_SHS_10_4_example_4_replacement_isolated() -> None:
    _s4()


def test_SHS_S4_SHS_10_1_isolation_after_replacement_with_orientations_2() -> None:
    _s4(orientations=2)


def test_SHS_S5_SHS_6_2_equal_priorities_by_placement_order() -> None:
    st, _ = stack(["2 4 4 1", "4 4 4 4"], ["Y:P6@(1,0)N#1", "R:P6@(2,0)N#2"])
    assert tokens(st) == ["1 4 4 1", "4 4 4 4"]
    assert kinds(st, st.debris[0]) == ["R:P6", "Y:P6"]
    mirror, _ = stack(["2 4 4 1", "4 4 4 4"], ["R:P6@(2,0)N#1", "Y:P6@(1,0)N#2"])
    assert tokens(mirror) == ["2 4 4 .", "4 4 4 4"]
    assert kinds(mirror, mirror.debris[0]) == ["Y:P6", "R:P6"]
    assert kinds(mirror, mirror.conquest[0]) == [KIND_12]


def test_SHS_S6_SHS_9_3_two_shields_earliest_acts() -> None:
    st, ev = stack(["4 3 4", "4 4 4"], ["R:P6@(1,0)N#1", "Y:SH@(0,0)#2", "G:SH@(2,0)#3"])
    assert kinds(st, st.conquest[1]) == ["R:P6", "Y:SH"]
    assert tokens(st) == ["4 3 4", "4 4 4"]
    assert kinds(st, st.debris[2]) == ["G:SH"]
    assert [e.data for e in ev if e.type == "to_debris"] == [{"seat": 2, "card": "alligish:SH", "cause": "turn_end"}]


def test_SHS_S7_SHS_9_2_shield_cancels_whole_attack_R8() -> None:
    cards = ["R:P3@(1,1)N#1", "Y:P2@(0,0)N#2", "G:SH@(2,0)#3"]
    st, _ = stack(["1 2 1", "4 4 4"], cards)
    assert kinds(st, st.conquest[2]) == ["R:P3", "G:SH"]
    assert tokens(st) == ["1 2 1", "4 3 4"]
    assert kinds(st, st.debris[1]) == ["Y:P2"]
    st2, _ = stack(["1 2 1", "4 4 4"], cards, shield_scope="planets")
    assert kinds(st2, st2.debris[0]) == ["Y:P2"]
    assert tokens(st2) == ["1 2 1", "4 4 4"]
    assert kinds(st2, st2.conquest[2]) == ["R:P3", "G:SH"]


def test_SHS_S8_SHS_7_6_priority_7_on_level_4() -> None:
    st, ev = stack(["4 4", "4 4"], ["R:P7@(0,0)N#1", "Y:SH@(1,1)#2"])
    steps = after_resolve(ev, "blastroid:P7")
    assert types(steps) == ["flip", "capture", "replace", "to_debris"]
    assert (steps[0].data["from"], steps[0].data["to"]) == (4, 3)
    assert steps[3].data == {"seat": 0, "card": "blastroid:P7", "cause": "resolved"}
    assert tokens(st) == ["2 4", "4 4"]
    assert len(st.conquest[0]) == 1


def test_SHS_S9_SHS_7_6_priority_7_on_level_1_then_isolation() -> None:
    st, ev = stack(["1 2 .", "4 . 4", "4 4 4"], ["R:P7@(0,0)N#1", "Y:SH@(2,2)#2"])
    steps = after_resolve(ev, "blastroid:P7")
    assert types(steps) == ["capture", "miss", "capture", "to_debris"]
    assert steps[1].data == {"cell": [0, 0], "reason": "empty"}
    assert tokens(st) == [". . .", "4 . 4", "4 4 4"]
    assert kinds(st, st.conquest[0]) == [KIND_12]
    assert kinds(st, st.debris[0]) == [KIND_12, "R:P7"]
    assert st.debris[0][0] not in [p for p, _ in st.board.values()]


def test_SHS_S10_SHS_11_3_dark_planet_captured_only_by_isolation() -> None:
    st, ev = stack(["D 1 4", ". 4 4"], ["B:P3@(1,1)N#1", "R:SH@(2,1)#2"])
    steps = after_resolve(ev, "conquid:P3")
    assert steps[0].data == {"cell": [0, 0], "reason": "dark"}
    assert tokens(st) == [". . 3", ". 4 4"]
    assert kinds(st, st.debris[0]) == ["DK", "B:P3"]
    assert kinds(st, st.conquest[0]) == [KIND_12]
    assert not st.is_over


def test_SHS_S11_SHS_11_4_card_on_dark_planet_hit_normally() -> None:
    st, _ = stack(["D 4", "4 4"], ["Y:P1@(0,0)#1", "R:P8@(0,1)N#2"])
    assert kinds(st, st.debris[1]) == ["Y:P1", "R:P8"]
    assert tokens(st) == ["D 4", "4 4"]
    st2, ev2 = stack(["D 4", "4 4"], ["Y:P1@(0,0)#1", "R:P8@(0,1)N#2"], dark_planet_shelters_cards=True)
    assert after_resolve(ev2, "blastroid:P8")[0].data == {"cell": [0, 0], "reason": "dark"}
    assert tokens(st2) == ["D 3", "3 4"]
    assert kinds(st2, st2.debris[0]) == ["Y:P1"]
    assert kinds(st2, st2.debris[1]) == ["R:P8"]


def test_SHS_S12_SHS_10_3_card_on_isolated_planet_and_pair_not_isolated() -> None:
    st, ev = stack(["2 1 .", ". 4 4"], ["Y:P2@(0,0)N#1", "R:P8@(1,1)N#2"])
    assert kinds(st, st.conquest[1]) == [KIND_12]
    assert kinds(st, st.debris[1])[:3] == [KIND_12, "Y:P2", "R:P8"]
    assert tokens(st) == [". . .", ". 4 4"]
    iso = [e for e in ev if e.type == "to_debris" and e.data["cause"] == "isolated"]
    assert [e.data for e in iso] == [{"seat": 1, "card": "krakenian:P2", "cause": "isolated"}]
    assert "krakenian:P2" not in [e.data["card"] for e in ev if e.type == "resolve"]


def test_SHS_S13_SHS_10_2_resolving_cards_own_planet_isolated_R12() -> None:
    st, _ = stack(["1 4 1", "4 . 4", "4 4 4"], ["R:P6@(1,0)N#1", "Y:SH@(1,2)#2"])
    assert tokens(st) == [". . .", "4 . 4", "4 4 4"]
    assert kinds(st, st.conquest[0]) == [KIND_12, KIND_12]
    assert kinds(st, st.debris[0]) == [KIND_34, "R:P6"]


def test_SHS_S22_SHS_7_3_replacement_source_R3_R24() -> None:
    rows = ["4 3 4", ". 4 ."]
    cards = ["R:P8@(1,1)N#1", "Y:SH@(2,0)#2"]
    st, ev = stack(rows, cards, reserve=["DK-3", "P34-E2", "P12-20"])
    assert st.board[(1, 0)] == ("P12-20", 2)
    assert st.reserve == ("DK-3", "P34-E2")
    assert not [e for e in ev if e.data.get("cause") == "isolation"]
    st2, ev2 = stack(rows, cards, reserve=["DK-3", "P34-E2"])
    assert (1, 0) not in st2.board and "replace" not in types(ev2)
    assert st2.reserve == ("DK-3", "P34-E2")
    assert [e.data["cell"] for e in ev2 if e.data.get("cause") == "isolation"] == [[0, 0], [2, 0], [1, 1]]
    assert kinds(st2, st2.debris[0])[:5] == [KIND_34, KIND_34, "Y:SH", KIND_34, "R:P8"]
