"""BLO-3 setup (S6) and BLO-8 end of game (S21, S22)."""

from __future__ import annotations

import pytest

from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.setup import turn_starter
from tests.blast_off.helpers import finish_responses, game, hand, legal, stack, steps, types


def test_BLO_3_1_BLO_3_9_missions_shuffled_face_down_none_in_force() -> None:
    orders = set()
    for seed in range(5):
        st = game().new_game(4, seed=seed)
        assert sorted(st.mdeck) == list(range(16)) and st.inforce == []
        v = st.view(0)
        assert v["mission_deck"] == 16 and v["missions_in_force"] == [] and "M0" not in str(v)
        orders.add(tuple(st.mdeck))
    assert len(orders) == 5


def test_BLO_3_2_BLO_R23_dealer_random_or_chosen() -> None:
    dealers = {game().new_game(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert game(dealer=2).new_game(3, seed=1).dealer == 2
    with pytest.raises(OptionError):
        game(dealer=5).new_game(4, seed=1)


def test_BLO_3_3_BLO_3_4_deal_six_each_from_the_dealers_left_rest_is_the_draw_pile() -> None:
    g = game(dealer=1)
    st = g.new_game(4, seed=7)
    rng = Rng(7)
    missions = list(range(16))
    rng.shuffle(missions)
    deck = list(range(68))
    rng.shuffle(deck)
    expect: list[list[int]] = [[] for _ in range(4)]
    for _ in range(6):
        for i in (2, 3, 0, 1):
            expect[i].append(deck.pop())
    assert st.hands == expect
    assert len(st.draw) + len(st.disc) == 68 - 24 and set(st.draw) | set(st.disc) == set(deck)


def test_BLO_3_5_BLO_3_6_starter_face_up_each_sees_only_their_hand() -> None:
    st = game().new_game(4, seed=11)
    while st.phase != 0:
        st.apply(st.cur, "declare R4")
    v0, v1, spectator = st.view(0), st.view(1), st.view(None)
    assert len(v0["discard"]) == 1 and v0["top"] == spectator["top"]
    assert v0["hand"] != v1["hand"] and spectator["hand"] is None and v0["hand_sizes"] == [6, 6, 6, 6]


def _starter(draw: str, seed: int) -> object:
    st = stack(game(), hands={0: "O1", 1: "O2"}, draw=draw, seed=seed)
    st.disc = []
    turn_starter(st)
    return st


def test_BLO_S6_BLO_3_7_BLO_R2_BLO_3_8_countdown_starter_goes_back_wild_is_declared() -> None:
    for seed in range(20):
        st = _starter("CD W O3 O4 O5 O6 G7 O8 O9", seed)
        if st.starter_returns == 1 and st.g.ctype[st.disc[0]] == 44:  # type: ignore[attr-defined]
            break
    else:
        raise AssertionError("no seed turned CD then W")
    assert st.census()["c67"] + sum(1 for c in st.draw if st.g.kind[c] == 3) >= 1  # type: ignore[attr-defined]
    assert st.view(None)["phase"] == "DECLARE" and st.to_act == {0}  # type: ignore[attr-defined]
    st.apply(0, "declare G6")  # type: ignore[attr-defined]
    assert st.view(None)["top"]["face"] == "G6" and st.cur == 1  # type: ignore[attr-defined]
    st = _starter("BO-R O3 O4", 0)
    assert st.view(None)["top"]["face"] == "RBO" and st.starter_returns == 0  # type: ignore[attr-defined]


def test_BLO_8_1_first_out_wins_at_once_and_obligations_lapse() -> None:
    st = stack(game(), hands={1: "O7", 2: "G2"}, top="O9", inforce=("M01",))
    ev = st.apply(1, "play O7", at=0.0)
    assert st.is_over and st.result is not None and st.result.winners == {1}
    assert st.obls == [] and "obligation" not in types(ev) and st.next_deadline() is None


def test_BLO_S21_BLO_8_2_BLO_R22_runner_up_places() -> None:
    st = stack(game(play_for_places=True), hands={0: "O3 R5", 1: "O1 G9 G8", 2: "O2", 3: "O4 O5 R1"}, top="O9",
               cur=2, draw="P2 P3")
    ev = st.apply(2, "play O2")
    assert [e.data for e in ev if e.type == "went_out"] == [{"seat": 2, "place": 1}] and st.cur == 3
    st.apply(3, "play O4")
    st.apply(0, "play O3")
    st.apply(1, "play O1")
    assert st.cur == 3  # R22: turns skip P2 (P1 -> P3)
    st.apply(3, "play O5")
    st.apply(0, "play R5")  # P0 out: 2nd
    assert st.placings == [2, 0] and st.cur == 1
    assert 2 not in st.to_act and "catch 2" not in legal(st, 1)
    st.apply(1, "draw")
    st.apply(3, "play R1")  # P3 out: 3rd, P1 is last
    assert st.is_over and st.result is not None
    assert st.result.ranking == ((2,), (0,), (3,), (1,)) and st.result.reason == "places"


def test_BLO_8_3_BLO_R22_gone_out_players_cannot_be_caught_or_swapped_and_void_effects() -> None:
    st = stack(steps(play_for_places=True, mission_out_of_control=True),
               hands={1: "R1", 2: "G2 O2", 3: "O3 O6", 0: "O4 G5"}, top="R9", inforce=("M16", "M02"))
    ev = st.apply(1, "play R1")  # out; M16 extra turn is void; M02 still reverses
    effects = {e.data["mission"]: e.data.get("result") for e in ev if e.type == "effect"}
    assert effects["M16"] == "void" and st.placings == [1]
    finish_responses(st)
    assert st.cur == 0 and 1 not in st.to_act


def test_BLO_S22_BLO_R14_two_player_reverse() -> None:
    st = stack(steps(), 2, hands={0: "O1 O5", 1: "R6 R2"}, top="R9", inforce=("M02",))
    ev = st.apply(1, "play R6")
    assert [e.data.get("result") for e in ev if e.type == "effect"] == ["none"]
    finish_responses(st)
    assert st.cur == 0
    st = stack(steps(two_player_reverse="play_again"), 2, hands={0: "O1 O5", 1: "R6 R2"}, top="R9",
               inforce=("M02",))
    st.apply(1, "play R6")
    finish_responses(st)
    assert st.cur == 1
    st = stack(steps(), 2, hands={0: "O1 O5", 1: "R6 R2 G1"}, top="R9", inforce=("M04",))
    st.apply(1, "play R6")
    finish_responses(st)
    assert hand(st, 0) == ["G1", "R2"] and hand(st, 1) == ["O1", "O5"]


def test_BLO_R24_pass_hands_left_or_along_play() -> None:
    for direction, expect in (("left", {1: "P1", 2: "R3", 3: "O5", 0: "G1"}),
                              ("play", {0: "R3", 1: "O5", 2: "G1", 3: "P1"})):
        st = stack(steps(pass_hands_direction=direction), hands={1: "O2 R3", 2: "O5", 3: "G1", 0: "P1"},
                   top="O9", inforce=("M04",), direction=-1)
        st.apply(1, "play O2")
        for seat, card in expect.items():
            assert hand(st, seat) == [card]
        assert st.known[2] == frozenset(st.hands[2])  # the giver knows these cards


def test_BLO_R17_two_to_six_players_up_to_eight_by_option() -> None:
    g = game()
    assert g.info.min_players == 2 and g.info.max_players == 6
    with pytest.raises(OptionError):
        g.new_game(7, seed=1)
    st = game(max_players=8).new_game(8, seed=1)
    assert [len(h) for h in st.hands] == [6] * 8
    with pytest.raises(OptionError):
        game(max_players=9)
