"""SHS-12 to SHS-15: end of turn, end of game, scoring, tie-breaks and missions (S17..S20)."""

from __future__ import annotations

from typing import Any

import cosmodeck
from cosmodeck.games.shooting_star.rules_score import mission_points, rank, score_all
from tests.shooting_star.helpers import kinds, stack, tokens, types

HAND4 = ["SH", "P1", "P2", "P8"]


def test_SHS_12_1_shields_in_play_go_to_owners_debris() -> None:
    st, ev = stack(["4 4 4", "4 4 4", "4 4 4"], ["R:SH@(0,0)#1", "Y:P8@(2,2)N#2", "G:SH@(2,0)#3"])
    ends = [e.data for e in ev if e.type == "to_debris" and e.data["cause"] == "turn_end"]
    assert ends == [{"seat": 0, "card": "blastroid:SH", "cause": "turn_end"},
                    {"seat": 2, "card": "alligish:SH", "cause": "turn_end"}]
    assert st.placed == [] and st.view(None)["placed"] == []


def test_SHS_12_2_dark_invader_passes_clockwise() -> None:
    st, ev = stack(["4 4 4", "4 4 4", "4 4 4"], ["R:SH@(0,0)#1", "Y:P8@(2,2)N#2", "G:SH@(2,0)#3"])
    assert ev[-1].data == {"seat": 1} and st.invader == 1 and st.to_act == frozenset({1}) and st.turn == 2
    st.apply(1, "place P1 1,1 N")
    st.apply(2, "place P1 0,0 N")
    ev = st.apply(0, "place P1 2,0 N")
    assert ev[-1].type == "invader" and ev[-1].data == {"seat": 2}


def _turn(st: Any, moves: dict[int, str]) -> list[Any]:
    ev: list[Any] = []
    while moves and not st.is_over:
        (seat,) = st.to_act
        ev += st.apply(seat, moves.pop(seat))
    return ev


def test_SHS_S17_SHS_13_1_end_after_seven_cards() -> None:
    st, _ = stack(["4 4 4 4 4"], [], letters="RY", turn=6, hands=[HAND4, HAND4])
    _turn(st, {0: "place SH 0,0 N", 1: "place SH 1,0 N"})
    assert not st.is_over and st.turn == 7 and len(st.board) == 5
    ev = _turn(st, {1: "place P8 0,0 N", 0: "place P8 1,0 N"})
    assert st.is_over and st.result is not None and st.result.reason == "seven_cards"
    assert len(st.board) == 5 and st.turn == 7 and st.to_act == frozenset()
    t = types(ev)
    end = t.index("game_end")
    assert ev[end].data == {"reason": "seven_cards"}
    hand = [e.data for e in ev[end + 1:end + 5]]
    assert hand == [{"seat": s, "card": f"{f}:{k}", "cause": "hand"}
                    for s, f in ((0, "blastroid"), (1, "krakenian")) for k in ("P2", "P1")]
    assert t[end + 5:] == ["missions", "missions", "score", "score"]
    assert st.hands == [(), ()]
    assert kinds(st, st.debris[0])[-2:] == ["R:P2", "R:P1"]


def test_SHS_S18_SHS_13_1_end_when_few_planets_checked_at_end_of_turn() -> None:
    st, ev = stack(["1 4 1 .", ". . 4 2"], ["R:P6@(1,0)N#1", "Y:P1@(2,1)#2"])
    t = types(ev)
    iso = next(i for i, e in enumerate(ev) if e.data.get("cause") == "isolation")
    assert t.index("game_end") > iso
    assert [e.data["card"] for e in ev if e.type == "resolve"] == ["blastroid:P6", "krakenian:P1"]
    assert tokens(st) == [". . . .", ". . 4 1"]
    assert st.result is not None and st.result.reason == "few_planets"


def test_SHS_S18_SHS_13_1_count_includes_dark_R20() -> None:
    cards = ["R:SH@(0,0)#1", "Y:SH@(1,1)#2", "G:SH@(0,1)#3"]
    st, _ = stack(["4 D", "D 4"], cards)
    assert not st.is_over and st.turn == 2
    st2, _ = stack(["4 D", "D 4"], cards, end_count_includes_dark=False)
    assert st2.result is not None and st2.result.reason == "few_planets"


def test_SHS_13_2_hands_to_debris_then_missions_then_scores() -> None:
    st, ev = stack(["1 4 1 .", ". . 4 2"], ["R:P6@(1,0)N#1", "Y:P1@(2,1)#2"])
    t = types(ev)
    end = t.index("game_end")
    assert t[end + 1:end + 17] == ["to_debris"] * 16
    assert t[end + 17:] == ["missions", "missions", "score", "score"]
    assert [e.data["ids"] for e in ev if e.type == "missions"] == [list(m) for m in st.missions]
    assert len(st.debris[0]) == 1 + 1 + 8 and len(st.debris[1]) == 1 + 8


S19_MISSIONS = [["M1-A", "M2-B", "M3-A"], ["M1-C", "M2-D", "M3-B"], ["M1-B", "M2-A", "M3-C"]]


def _set(f: str, *ks: str) -> list[str]:
    return [f"{f}:{k}" for k in ks]


S19_CONQUEST = [
    ["P34-A1", "P34-Z1", "P12-01", "P12-11", "P12-12", "krakenian:P5", "blastroid:SH"],
    ["P34-B1", "P12-02", "P12-14", "P12-17"],
    ["P34-C1", "P34-Z2", "P12-03", "P12-04", "P12-18"],
]
S19_DEBRIS = [
    [*_set("blastroid", "P8", "P7", "P6", "P4", "P3", "P2", "P1"), "P12-13"],
    [*_set("krakenian", "P8", "P7", "P6", "P4", "P3", "P2", "P1", "SH"), "blastroid:P5", "DK-1"],
    [*_set("alligish", "P8", "P7", "P6", "P5", "P4", "P3", "P2", "P1", "SH"), "P12-19"],
]


def _s19(**opts: Any) -> list[dict[str, Any]]:
    game = cosmodeck.load_game("shooting-star", **opts)
    return score_all(game.data, game.options, S19_CONQUEST, S19_DEBRIS, S19_MISSIONS)


def test_SHS_S19_SHS_14_4_scoring_moons_missions_tied_debris_bonus() -> None:
    b = _s19()
    assert [x["total"] for x in b] == [13, 11, 17]
    assert [(x["cards"], x["moons"]) for x in b] == [(7, 2), (4, 2), (5, 3)]
    assert [x["debris_bonus"] for x in b] == [0, 3, 3]
    assert b[0]["missions"] == {"M1-A": 1, "M2-B": 0, "M3-A": 3}
    assert b[1]["missions"] == {"M1-C": 1, "M2-D": 0, "M3-B": 1}
    assert b[2]["missions"] == {"M1-B": 1, "M2-A": 2, "M3-C": 3}
    assert rank(b, "seven_cards").winners == frozenset({2})


def test_SHS_S19_SHS_15_2_missions_count_debris_option_R17() -> None:
    assert [x["total"] for x in _s19(missions_count_debris=False)] == [13, 11, 15]


def test_SHS_S19_SHS_14_1_conquest_points_planets_only_R16() -> None:
    assert _s19(conquest_points="planets_only")[0]["total"] == 11


def test_SHS_S3_SHS_14_1_acting_shield_is_worth_two_points_R16() -> None:
    st, _ = stack(["1 4 2", "4 4 4"], ["R:P5@(1,1)N#1", "G:SH@(2,0)#2"])
    b = score_all(st.game.data, st.game.options, st.conquest, [["x:P1"], ["x:P1"]], [[], []])
    assert b[1]["cards"] == 2 and b[1]["total"] == 2 + 3


def test_SHS_14_2_moon_point_once_per_card_from_conquest_only_R28() -> None:
    game = cosmodeck.load_game("shooting-star")
    b = score_all(game.data, game.options, [["P12-01", "P34-A1", "P12-20"]], [["P12-02"]], [[]])
    assert b[0]["moons"] == 2 and b[0]["moon_count"] == 3


def test_SHS_14_3_completed_missions_score_their_points() -> None:
    game = cosmodeck.load_game("shooting-star")
    con = [["P12-01", "P12-02", "P12-03", "P12-11", "P12-12", "P12-13"]]
    b = score_all(game.data, game.options, con, [[]], [["M1-C", "M2-B", "M3-E"]])
    assert b[0]["missions"] == {"M1-C": 1, "M2-B": 2, "M3-E": 0}
    assert b[0]["total"] == 6 + 3 + 3 + 3


def test_SHS_14_5_debris_planets_earn_no_base_or_moon_points() -> None:
    game = cosmodeck.load_game("shooting-star")
    b = score_all(game.data, game.options, [[], ["P12-20"]], [["P12-01", "P34-A1"], ["x:P1", "x:P2"]], [[], []])
    assert b[0]["cards"] == 0 and b[0]["moons"] == 0 and b[0]["captured"] == 2 and b[0]["moon_count"] == 2


def test_SHS_S20_SHS_14_6_final_tie_breaks() -> None:
    game = cosmodeck.load_game("shooting-star")
    # (a) captured cards: 6 conquest + 2 debris planets beat 7 + 0
    b = score_all(game.data, game.options,
                  [["P12-11", "P12-12", "P12-13", "P12-14", "P12-15", "P12-16"],
                   ["P12-21", "P12-22", "P12-23", "P12-24", "P12-25", "P12-26", "P12-27"]],
                  [["P12-17", "DK-1"], []], [[], []])
    assert [x["captured"] for x in b] == [8, 7]
    for x in b:
        x["total"] = 14
    assert rank(b, "seven_cards").winners == frozenset({0})
    # (b) equal captured cards: moons on captured planets, a debris planet's moon included
    b = score_all(game.data, game.options,
                  [["P12-01", "P12-02", "P12-11", "P12-12", "P12-13", "P12-14", "P12-15"],
                   ["P12-03", "P12-04", "P12-21", "P12-22", "P12-23", "P12-24", "P12-25", "P12-26"]],
                  [["P12-05"], []], [[], []])
    assert [x["captured"] for x in b] == [8, 8] and [x["moon_count"] for x in b] == [3, 2]
    for x in b:
        x["total"] = 14
    assert rank(b, "seven_cards").winners == frozenset({0})
    # (c) all equal: shared victory
    b[1]["moon_count"] = 3
    res = rank(b, "seven_cards")
    assert res.winners == frozenset({0, 1}) and res.ranking == ((0, 1),)


def test_SHS_14_6_ranking_in_a_played_game_uses_the_keys() -> None:
    st, _ = stack(["1 4 1 .", ". . 4 2"], ["R:P6@(1,0)N#1", "Y:P1@(2,1)#2"])
    res = st.result
    assert res is not None
    bd = res.details["breakdown"]
    keys = [(b["total"], b["captured"], b["moon_count"]) for b in bd]
    best = max(keys)
    assert res.winners == frozenset(s for s, k in enumerate(keys) if k == best)


def test_SHS_15_1_one_and_two_point_missions_are_all_or_nothing() -> None:
    data = cosmodeck.load_game("shooting-star").data
    m2e = data.missions["M2-E"]  # 2 "1/2", 2 "3/4", 2 with moons
    assert mission_points(data, m2e, ["P12-01", "P12-02", "P34-B2", "P34-C2"]) == 2
    assert mission_points(data, m2e, ["P12-01", "P12-11", "P34-B2", "P34-C2"]) == 0
    assert mission_points(data, data.missions["M1-E"], ["P34-A1"]) == 1


def test_SHS_15_2_planet_count_missions_ignore_dark_planets() -> None:
    data = cosmodeck.load_game("shooting-star").data
    assert mission_points(data, data.missions["M1-A"], ["P12-11", "P12-12", "P12-13", "DK-1"]) == 0
    assert mission_points(data, data.missions["M1-A"], ["P12-11", "P12-12", "P12-13", "P34-Z3"]) == 1


def test_SHS_15_3_named_missions_score_by_names_found() -> None:
    data = cosmodeck.load_game("shooting-star").data
    m = data.missions["M3-A"]
    assert mission_points(data, m, []) == 0
    assert mission_points(data, m, ["P34-Z4"]) == 1
    assert mission_points(data, m, ["P34-A2"]) == 1
    assert mission_points(data, m, ["P34-A2", "P34-Z1"]) == 3
    assert mission_points(data, m, ["P34-A1", "P34-A2", "P34-Z1", "P34-Z2"]) == 3
    assert mission_points(data, m, ["P12-01", "P12-02"]) == 0  # replacements carry no name


def test_SHS_15_3_name_captured_by_isolation_counts() -> None:
    st2, _ = stack(["1 4 .", ". . 4", ". . 4"], ["R:P8@(1,0)W#1", "Y:SH@(2,2)#2"], planets={(1, 0): "P34-Z1"})
    assert "P34-Z1" in st2.debris[0]
    b = score_all(st2.game.data, st2.game.options, st2.conquest, st2.debris, [["M3-B"], []])
    assert b[0]["missions"] == {"M3-B": 1}
