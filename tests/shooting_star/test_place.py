"""SHS-4 and SHS-5: turn structure and placement; SHS-D1 actions and notation."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.engine.errors import IllegalActionError, NotationError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.actions import Place, PlacePlanet
from cosmodeck.games.shooting_star.cards import rotate
from tests.shooting_star.helpers import stack, types

S14 = {
    "P4": {"N": [(2, 1), (2, 0)], "E": [(3, 2), (4, 2)], "S": [(2, 3), (2, 4)], "W": [(1, 2), (0, 2)]},
    "P5": {"N": [(1, 1), (3, 1)], "E": [(3, 1), (3, 3)], "S": [(3, 3), (1, 3)], "W": [(1, 3), (1, 1)]},
    "P6": {"N": [(1, 2), (3, 2)], "E": [(2, 1), (2, 3)], "S": [(3, 2), (1, 2)], "W": [(2, 3), (2, 1)]},
    "P3": {"N": [(1, 1), (2, 1), (3, 1)], "E": [(3, 1), (3, 2), (3, 3)], "S": [(3, 3), (2, 3), (1, 3)],
           "W": [(1, 3), (1, 2), (1, 1)]},
}


def test_SHS_S14_SHS_5_3_rotation_table() -> None:
    cards = cosmodeck.load_game("shooting-star").data.cards
    for card, arrows in S14.items():
        for arrow, cells in arrows.items():
            assert [(2 + dx, 2 + dy) for dx, dy in cards[card].rotated[arrow]] == cells
            assert [(2 + dx, 2 + dy) for dx, dy in (rotate(h, arrow) for h in cards[card].hits)] == cells


def test_SHS_S14_SHS_5_3_orientations_2_forbids_east_and_west_R5() -> None:
    st, _ = stack(["4 4 4", "4 4 4"], [], letters="RY", orientations=2)
    assert {a.orientation for a in st.legal_actions(0)} == {"N", "S"}
    with pytest.raises(IllegalActionError) as e:
        st.apply(0, "place P4 0,0 E")
    assert e.value.code == "orientation_not_allowed"


def test_SHS_S15_SHS_5_2_legal_placements() -> None:
    st, _ = stack(["D .", "4 2"], ["R:P3@(1,1)#1"], letters="Y")
    legal = st.legal_actions(1)
    assert {a.cell for a in legal} == {(0, 0), (0, 1)}
    assert len(legal) == 72
    for cell, code in (((1, 0), "cell_not_available"), ((1, 1), "cell_not_available")):
        with pytest.raises(IllegalActionError) as e:
            st.apply(1, Place("P1", cell, "N"))
        assert e.value.code == code
    st2, _ = stack(["D .", "4 2"], ["R:P3@(1,1)#1"], letters="Y", orientations=2)
    assert len(st2.legal_actions(1)) == 36


def test_SHS_4_1_turn_runs_place_resolve_end_of_turn_end_check() -> None:
    _, ev = stack(["4 4 4", "4 4 4"], ["R:P8@(0,1)N#1", "Y:SH@(2,1)#2"])
    t = types(ev)
    assert t[:4] == ["place", "place", "reveal", "reveal"]
    assert t.index("resolve") < t.index("to_debris") < t.index("invader")
    assert t[-1] == "invader"


def test_SHS_5_1_placement_from_invader_clockwise() -> None:
    game = cosmodeck.load_game("shooting-star", first_player=2)
    st = game.new_game(players=4, seed=3)
    seen = []
    for _ in range(4):
        (seat,) = st.to_act
        seen.append(seat)
        st.apply(seat, st.legal_actions(seat)[0])
    assert seen == [2, 3, 0, 1]
    assert st.to_act == frozenset({3}) and st.invader == 3


def test_SHS_5_2_place_face_down_from_hand_no_pass() -> None:
    st, ev = stack(["4 . 4", "4 4 4"], [], letters="RY")
    with pytest.raises(IllegalActionError) as e:
        st.apply(0, "place P4 1,0 N")
    assert e.value.code == "cell_not_available"
    ev = st.apply(0, "place P4 0,0 N")
    assert "P4" not in st.hands[0]
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "place P4 0,0 N")
    assert e.value.code == "cell_not_available"
    assert all(isinstance(a, Place) for a in st.legal_actions(1))
    assert ev[0].for_seat(1) == {"type": "place", "seat": 0, "cell": [0, 0], "orientation": "N"}


def test_SHS_5_3_arrow_is_public() -> None:
    st, _ = stack(["4 4 4", "4 4 4"], [], letters="RY")
    st.apply(0, "place P5 1,1 W")
    card = st.view(1)["placed"][0]
    assert card == {"seat": 0, "cell": [1, 1], "orientation": "W", "order": 1, "card": None}


def test_SHS_5_4_a_legal_placement_always_exists() -> None:
    game = cosmodeck.load_game("shooting-star")
    for seed in range(30):
        st = game.new_game(players=2 + seed % 4, seed=seed)
        rng = Rng(seed)
        while not st.is_over:
            (seat,) = st.to_act
            legal = st.legal_actions(seat)
            assert legal
            if not st.placed:
                assert len(st.board) > st.players
            st.apply(seat, rng.choice(legal))


def test_SHS_D1_check_agrees_with_legal_and_refusal_changes_nothing() -> None:
    st, _ = stack(["D 4 .", "4 2 4"], ["R:P3@(1,1)#1"], letters="Y", orientations=2)
    legal = set(st.legal_actions(1))
    before = st.to_json()
    for card in st.game.data.card_order:
        for x in range(-1, 4):
            for y in range(-1, 3):
                for arrow in "NESW":
                    a = Place(card, (x, y), arrow)
                    assert st.is_legal(1, a) == (a in legal)
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, "place P3 1,1 N")
    assert e.value.code == "cell_not_available"
    with pytest.raises(IllegalActionError) as e:
        st.apply(1, PlacePlanet("P12-01", (5, 5), 1))
    assert e.value.code == "wrong_phase"
    with pytest.raises(IllegalActionError) as e:
        st.apply(0, "place P8 0,0 N")
    assert e.value.code == "not_your_turn"
    assert st.to_json() == before


def test_SHS_D1_card_not_in_hand_code() -> None:
    st, _ = stack(["4 4 4", "4 4 4"], [], letters="RY", hands=[["P1", "P2"], ["P1"]])
    with pytest.raises(IllegalActionError) as e:
        st.apply(0, "place P8 0,0 N")
    assert e.value.code == "card_not_in_hand"
    assert len(st.legal_actions(0)) == 2 * 6 * 4


@pytest.mark.parametrize("text", ["place P6 1,0 N", "place SH -3,12 W", "planet P34-A1 -1,0 4", "planet DK-2 0,-1 D",
                                  "planet P12-07 10,0 1"])
def test_SHS_D1_notation_round_trips(text: str) -> None:
    game = cosmodeck.load_game("shooting-star")
    assert str(game.parse_action(text)) == text


@pytest.mark.parametrize("text", ["place P6 1,0", "place P9 1,0 N", "place P6 1, 0 N", "place P6 01,0 N",
                                  "place P6 -0,0 N", "place  P6 1,0 N", "place P6 1,0 X", "planet P99 0,0 1",
                                  "planet DK-1 0,0 5", "Place P6 1,0 N", "place P6 1,0 N ", "place p6 1,0 n"])
def test_SHS_D1_malformed_notation_raises(text: str) -> None:
    game = cosmodeck.load_game("shooting-star")
    with pytest.raises(NotationError):
        game.parse_action(text)


def test_SHS_D1_actions_are_frozen_slotted_values() -> None:
    a = Place("P6", (1, 0), "N")
    assert a == Place("P6", (1, 0), "N") and hash(a) == hash(Place("P6", (1, 0), "N"))
    assert not hasattr(a, "__dict__")
    with pytest.raises(AttributeError):
        a.card = "P5"  # type: ignore[misc]
