"""Clauses SHS-6 to SHS-11: one test per clause beyond the scenarios."""

from __future__ import annotations

import pytest

from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34
from tests.shooting_star.helpers import after_resolve, kinds, stack, tokens, types


def test_SHS_6_1_all_cards_revealed_first_keeping_their_arrows() -> None:
    _, ev = stack(["4 4 4", "4 4 4"], ["R:P4@(0,1)E#1", "Y:SH@(2,0)#2"])
    assert types(ev)[:4] == ["place", "place", "reveal", "reveal"]
    assert ev[2].data == {"seat": 0, "card": "blastroid:P4", "cell": [0, 1], "orientation": "E"}
    assert ev[3].data == {"seat": 1, "card": "krakenian:SH", "cell": [2, 0], "orientation": "N"}


def test_SHS_6_2_highest_priority_first_and_shields_never_resolve() -> None:
    _, ev = stack(["4 4 4 4 4", "4 4 4 4 4", "4 4 4 4 4"],
                  ["R:P1@(0,0)S#1", "Y:P8@(4,2)N#2", "G:SH@(2,2)#3", "B:P5@(2,0)S#4"])
    assert [e.data["card"] for e in ev if e.type == "resolve"] == ["krakenian:P8", "conquid:P5", "blastroid:P1"]


def test_SHS_6_3_card_that_left_the_board_does_not_resolve() -> None:
    _, ev = stack(["4 4 4", "4 4 4"], ["Y:P1@(0,0)#1", "R:P8@(0,1)N#2"])
    assert [e.data["card"] for e in ev if e.type == "resolve"] == ["blastroid:P8"]


def test_SHS_6_4_targets_are_origin_plus_offsets_in_data_order_R6() -> None:
    _, ev = stack(["4 4 4", "4 4 4", "4 4 4"], ["R:P1@(0,0)N#1", "Y:SH@(2,2)#2"])
    steps = after_resolve(ev, "blastroid:P1")
    assert [(e.type, e.data["cell"]) for e in steps[:4]] == [
        ("miss", [0, -1]), ("flip", [1, 0]), ("flip", [0, 1]), ("miss", [-1, 0])]
    assert steps[0].data["reason"] == "off_grid"


def test_SHS_6_5_shield_replaces_target_processing() -> None:
    st, ev = stack(["1 1 1", "4 4 4"], ["R:P3@(1,1)N#1", "Y:SH@(1,0)#2"])
    assert types(after_resolve(ev, "blastroid:P3")) == ["shield"]
    assert tokens(st) == ["1 1 1", "4 4 4"]


def test_SHS_6_6_own_card_never_shields_its_origin() -> None:
    st, ev = stack(["2 4", "4 4"], ["R:P7@(0,0)N#1", "Y:SH@(1,1)#2"])
    assert types(after_resolve(ev, "blastroid:P7")) == ["flip", "capture", "to_debris"]
    assert kinds(st, st.conquest[0]) == [KIND_12]


def test_SHS_6_7_isolation_then_card_last_in_debris() -> None:
    st, ev = stack(["1 4", ". 4"], ["R:P8@(1,0)W#1", "Y:SH@(1,1)#2"])
    # P8 pointing W hits (0,0); nothing is isolated: (1,0) touches (1,1)
    assert types(after_resolve(ev, "blastroid:P8")) == ["capture", "to_debris"]
    st, ev = stack(["1 4 1 .", ". . . 4", ". . 4 4"], ["R:P6@(1,0)N#1", "Y:SH@(3,2)#2"])
    steps = after_resolve(ev, "blastroid:P6")
    assert types(steps) == ["capture", "capture", "capture", "to_debris"]
    assert steps[2].data["cause"] == "isolation" and steps[2].data["cell"] == [1, 0]
    assert kinds(st, st.debris[0]) == [KIND_34, "R:P6"]


@pytest.mark.parametrize(("start", "after", "captured"), [("4", "3", 0), ("3", "2", 1), ("2", "1", 0), ("1", ".", 1)])
def test_SHS_7_1_each_hit_lowers_one_level(start: str, after: str, captured: int) -> None:
    st, _ = stack([f"4 {start} 4", "4 4 4"], ["R:P8@(1,1)N#1", "Y:SH@(0,0)#2"])
    assert tokens(st)[0] == f"4 {after} 4"
    assert len(st.conquest[0]) == captured


def test_SHS_7_2_level_4_flips_to_3() -> None:
    st, ev = stack(["4 4", "4 4"], ["R:P8@(0,1)N#1", "Y:SH@(1,1)#2"])
    flip = after_resolve(ev, "blastroid:P8")[0]
    assert flip.type == "flip" and (flip.data["from"], flip.data["to"]) == (4, 3)
    assert st.board[(0, 0)][0] == flip.data["planet"]


def test_SHS_7_3_level_3_captured_and_replaced_at_2() -> None:
    st, ev = stack(["3 4", "4 4"], ["R:P8@(0,1)N#1", "Y:SH@(1,1)#2"])
    steps = after_resolve(ev, "blastroid:P8")
    assert types(steps) == ["capture", "replace", "to_debris"]
    assert steps[0].data["pile"] == "conquest" and steps[0].data["cause"] == "damage"
    assert kinds(st, st.conquest[0]) == [KIND_34]
    new = steps[1].data["planet"]
    assert st.board[(0, 0)] == (new, 2) and st.game.data.planets[new].kind == KIND_12
    assert new not in st.reserve


def test_SHS_7_4_level_2_flips_to_1() -> None:
    st, _ = stack(["2 4", "4 4"], ["R:P8@(0,1)N#1", "Y:SH@(1,1)#2"])
    assert tokens(st) == ["1 4", "4 4"] and st.conquest[0] == ()


def test_SHS_7_5_level_1_captured_cell_stays_empty() -> None:
    st, ev = stack(["1 4", "4 4"], ["R:P8@(0,1)N#1", "Y:SH@(1,1)#2"])
    assert tokens(st) == [". 4", "4 4"] and "replace" not in types(ev)
    assert kinds(st, st.conquest[0]) == [KIND_12]


@pytest.mark.parametrize(("start", "after", "captures"),
                         [("4", "2", 1), ("3", "1", 1), ("2", ".", 1), ("1", ".", 1), ("D", "D", 0)])
def test_SHS_7_6_priority_7_table(start: str, after: str, captures: int) -> None:
    st, _ = stack([f"{start} 4", "4 4"], ["R:P7@(0,0)N#1", "Y:SH@(1,1)#2"])
    assert tokens(st)[0] == f"{after} 4"
    assert len(st.conquest[0]) == captures


def test_SHS_7_7_destroy_a_planet_means_one_hit_R15() -> None:
    st, _ = stack(["4 4 4", "4 4 4"], ["R:P3@(1,1)N#1", "Y:SH@(0,1)#2"])
    assert tokens(st) == ["3 3 3", "4 4 4"] and st.conquest[0] == ()


def test_SHS_7_8_hit_beyond_the_edge_has_no_effect() -> None:
    st, ev = stack(["4 4", "4 4"], ["R:P4@(0,1)N#1", "Y:SH@(1,1)#2"])
    steps = after_resolve(ev, "blastroid:P4")
    assert steps[1].data == {"cell": [0, -1], "reason": "off_grid"}
    assert tokens(st) == ["3 4", "4 4"]


def test_SHS_8_1_destroyed_card_goes_to_attacker_debris_planet_unaffected() -> None:
    st, _ = stack(["1 4 4", "4 4 4"], ["Y:P3@(0,0)S#1", "R:P4@(0,1)N#2"])
    assert tokens(st)[0] == "1 4 4"
    assert kinds(st, st.debris[1]) == ["Y:P3", "R:P4"]


def test_SHS_8_2_cards_on_dark_planets_are_destroyed_R10() -> None:
    st, ev = stack(["D 4", "4 4"], ["Y:P5@(0,0)#1", "R:P8@(0,1)N#2"])
    assert [e.data["card"] for e in ev if e.type == "destroy"] == ["krakenian:P5"]
    assert tokens(st) == ["D 4", "4 4"]


def test_SHS_8_3_a_card_never_hits_its_own_owners_card() -> None:
    st, ev = stack(["4 4", "4 4"], ["R:P7@(0,0)N#1", "Y:SH@(1,1)#2"])
    assert "destroy" not in types(ev)
    assert tokens(st)[0] == "2 4"


def test_SHS_9_1_shield_never_resolves_and_hits_nothing() -> None:
    st, ev = stack(["1 1", "1 1"], ["R:SH@(0,0)#1", "Y:SH@(1,1)#2"])
    assert "resolve" not in types(ev) and tokens(st) == ["1 1", "1 1"]
    assert kinds(st, st.debris[0]) == ["R:SH"] and kinds(st, st.debris[1]) == ["Y:SH"]


def test_SHS_9_2_shield_scope_planets_still_destroys_other_cards_R8() -> None:
    st, ev = stack(["1 4 4", "4 4 4", "4 4 4"], ["R:P6@(1,0)N#1", "Y:SH@(0,0)#2", "G:P1@(2,0)#3"],
                   shield_scope="planets")
    steps = after_resolve(ev, "blastroid:P6")
    assert types(steps) == ["destroy", "shield"]
    assert kinds(st, st.debris[0]) == ["G:P1"] and kinds(st, st.conquest[1]) == ["R:P6", "Y:SH"]
    assert tokens(st)[0] == "1 4 4"


def test_SHS_9_3_other_shields_stay_and_act_against_later_cards() -> None:
    st, _ = stack(["4 4 4", "4 4 4", "4 4 4"],
                  ["R:P6@(1,0)N#1", "Y:SH@(0,0)#2", "G:SH@(2,0)#3", "B:P5@(1,1)N#4"])
    assert kinds(st, st.conquest[1]) == ["R:P6", "Y:SH"]
    assert kinds(st, st.conquest[2]) == ["B:P5", "G:SH"]


def test_SHS_9_4_shield_on_dark_planet_acts_and_causes_no_isolation_R10() -> None:
    st, _ = stack(["1 D", ". 4"], ["R:P8@(1,1)N#1", "Y:SH@(1,0)#2"])
    assert kinds(st, st.conquest[1]) == ["R:P8", "Y:SH"]
    assert tokens(st) == ["1 D", ". 4"]
    st2, _ = stack(["1 D", ". 4"], ["R:P8@(1,1)N#1", "Y:SH@(1,0)#2"], dark_planet_shelters_cards=True)
    assert st2.conquest[1] == () and kinds(st2, st2.debris[1]) == ["Y:SH"]


def test_SHS_10_1_isolated_means_no_adjacent_planet_R13() -> None:
    st, _ = stack(["1 4 .", "4 . 4", ". 4 4"], ["R:P8@(0,1)N#1", "Y:SH@(2,2)#2"])
    # (1,0) and (0,1) lose their only edge neighbour (a diagonal does not count); (2,1)-(2,2) touch
    assert tokens(st) == [". . .", ". . 4", ". 4 4"]
    assert kinds(st, st.debris[0]) == [KIND_34, KIND_34, "R:P8"]


def test_SHS_10_2_isolated_planets_unflipped_to_debris_row_major() -> None:
    st, ev = stack(["4 1 3", ". 4 ."], ["R:P8@(1,1)N#1", "Y:SH@(2,0)#2"])
    iso = [e.data["cell"] for e in ev if e.data.get("cause") == "isolation"]
    assert iso == [[0, 0], [2, 0], [1, 1]]
    levels = [st.game.data.planets[p].kind for p in st.debris[0] if ":" not in p]
    assert levels == [KIND_34, KIND_34, KIND_34] and "flip" not in types(ev)


def test_SHS_10_3_card_on_isolated_planet_goes_with_it_R11() -> None:
    st, ev = stack(["1 4 .", ". . 4", ". . 4"], ["R:P8@(1,0)W#1", "Y:P4@(2,2)N#2"], letters="")
    # (0,0) captured; (1,0) with R's own card is isolated (R12), R:P8 goes last
    assert kinds(st, st.debris[0])[:2] == [KIND_34, "R:P8"]
    st, ev = stack(["4 1 .", ". 4 4"], ["Y:SH@(0,0)#1", "R:P8@(1,1)N#2"])
    assert kinds(st, st.debris[1])[:3] == [KIND_34, "Y:SH", "R:P8"]
    assert "shield" not in types(ev)


def test_SHS_11_1_cards_may_be_placed_on_dark_planets() -> None:
    st, _ = stack(["D 4", "4 4"], ["R:P8@(1,1)N#1"], letters="Y")
    assert any(a.cell == (0, 0) for a in st.legal_actions(1))
    st.apply(1, "place P1 0,0 N")
    assert st.turn == 2


def test_SHS_11_2_dark_planets_cannot_be_damaged() -> None:
    st, ev = stack(["D 4", "4 4"], ["R:P7@(0,0)N#1", "Y:SH@(1,1)#2"])
    assert [e.data for e in after_resolve(ev, "blastroid:P7")[:2]] == [
        {"cell": [0, 0], "reason": "dark"}, {"cell": [0, 0], "reason": "dark"}]
    assert tokens(st)[0] == "D 4" and st.conquest[0] == ()


def test_SHS_11_5_dark_planets_never_adjacent_in_setup() -> None:
    import cosmodeck
    from cosmodeck.games.shooting_star.rules_setup import darks_adjacent

    game = cosmodeck.load_game("shooting-star")
    for seed in range(40):
        st = game.new_game(players=2 + seed % 4, seed=seed)
        assert not darks_adjacent(game.data, st.board)


def test_SHS_11_6_dark_planets_count_for_adjacency_and_end_not_missions_R20() -> None:
    from cosmodeck.games.shooting_star.rules_score import mission_points
    from cosmodeck.games.shooting_star.rules_turn import planets_left

    # adjacency: the D keeps (0,0) from being isolated
    st, _ = stack(["1 4 D", ". . 4"], ["R:P8@(1,0)W#1", "Y:SH@(2,1)#2"])
    assert tokens(st) == [". 4 D", ". . 4"] and kinds(st, st.debris[0]) == ["R:P8"]
    assert planets_left(st) == 3
    data = st.game.data
    assert mission_points(data, data.missions["M1-A"], ["DK-1", "DK-2", "DK-3", "P12-11"]) == 0
