"""SHS-16: the custom Star Sector variant (option custom_sector); SHS-S21; R23."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.actions import PlacePlanet
from cosmodeck.games.shooting_star.cards import KIND_DARK
from cosmodeck.games.shooting_star.rules_setup import sector_cells
from cosmodeck.games.shooting_star.state import ShootingStarState

GAME = cosmodeck.load_game("shooting-star", custom_sector=True)


def _build(st: ShootingStarState, rng: Rng) -> list[str]:
    seen = []
    while st.phase == "sector":
        (seat,) = st.to_act
        a = rng.choice(st.legal_actions(seat))
        seen += [e.type for e in st.apply(seat, a)]
    return seen


def test_SHS_16_1_pile_of_6n_dealt_six_each_private() -> None:
    st = GAME.new_game(players=3, seed=4)
    assert st.phase == "sector" and [len(h) for h in st.planet_hands] == [6, 6, 6]
    assert len(st.reserve) == 49 - 18 and not st.board
    hands = {p for h in st.planet_hands for p in h}
    assert set(GAME.data.names) <= {GAME.data.planets[p].name for p in hands}
    v = st.view(1)["planet_hands"]
    assert v[1]["planets"] == list(st.planet_hands[1]) and v[0] == {"seat": 0, "count": 6, "planets": None}
    assert all(m == () for m in st.missions)


def test_SHS_16_2_first_player_places_at_origin_on_a_chosen_face() -> None:
    st = cosmodeck.load_game("shooting-star", custom_sector=True, first_player=1).new_game(players=2, seed=1)
    assert st.to_act == frozenset({1})
    legal = st.legal_actions(1)
    assert {a.cell for a in legal} == {(0, 0)}
    pid = next(p for p in st.planet_hands[1] if GAME.data.planets[p].kind != KIND_DARK)
    assert {a.face for a in legal if a.planet == pid} == set(GAME.data.planets[pid].faces)
    face = GAME.data.planets[pid].faces[0]
    ev = st.apply(1, PlacePlanet(pid, (0, 0), face))
    assert ev[0].data == {"seat": 1, "planet": pid, "cell": [0, 0], "face": face}
    assert st.board[(0, 0)] == (pid, face) and st.to_act == frozenset({0})


def test_SHS_S21_SHS_16_3_custom_sector_placement() -> None:
    st = GAME.new_game(players=2, seed=2)
    st.board = {(0, 0): ("DK-1", 0), (1, 0): ("P34-A1", 4)}
    normal = {(-1, 0), (0, -1), (0, 1), (1, -1), (2, 0), (1, 1)}
    assert set(sector_cells(st, "P12-05")) == normal
    assert set(sector_cells(st, "DK-2")) == {(1, -1), (2, 0), (1, 1)}
    assert (2, 1) not in sector_cells(st, "P12-05")
    st.planet_hands[st.sector_next] = ("DK-2", "P12-05")
    seat = st.sector_next
    for text, code in (("planet DK-2 0,1 D", "dark_planets_adjacent"), ("planet P12-05 2,1 1", "cell_not_available"),
                       ("planet P12-05 2,0 3", "face_not_allowed"), ("planet P12-06 2,0 1", "planet_not_in_hand"),
                       ("place P6 0,0 N", "wrong_phase")):
        with pytest.raises(IllegalActionError) as e:
            st.apply(seat, text)
        assert e.value.code == code, text
    legal = set(st.legal_actions(seat))
    assert len(legal) == 3 + 6 * 2
    for pid in ("DK-2", "P12-05"):
        for x in range(-2, 4):
            for y in range(-2, 3):
                for f in (0, 1, 2, 3, 4):
                    a = PlacePlanet(pid, (x, y), f)
                    assert st.is_legal(seat, a) == (a in legal)


def test_SHS_16_4_unplaceable_dark_planet_goes_to_the_reserve_R23() -> None:
    st = cosmodeck.load_game("shooting-star", custom_sector=True, first_player=0).new_game(players=2, seed=3)
    mine = {"DK-1", "P12-05", "DK-2"}
    st.planet_hands = [("DK-1", "P12-05"), ("DK-2",)]
    st.reserve = tuple(p for p in st.reserve if p not in mine)
    ev = st.apply(0, "planet DK-1 0,0 D")
    # every cell next to the table touches DK-1: seat 1's only planet, a Dark Planet, cannot go anywhere
    assert [e.type for e in ev] == ["place_planet", "to_reserve"]
    assert ev[1].for_seat(0) == {"type": "to_reserve", "seat": 1}
    assert ev[1].for_seat(1) == {"type": "to_reserve", "seat": 1, "planet": "DK-2"}
    assert "DK-2" in st.reserve and st.forced == (1,) and st.to_act == frozenset({0})
    ev = st.apply(0, "planet P12-05 1,0 2")
    assert [e.type for e in ev] == ["place_planet", "invader"] and st.phase == "place"
    assert st.legal_actions(0) and st.view(1)["planet_hands"][1]["count"] == 0


def test_SHS_16_5_any_shape_unbounded_coordinates() -> None:
    st = GAME.new_game(players=2, seed=11)
    _build(st, Rng(5))
    assert len(st.board) + sum(1 for p in st.reserve if GAME.data.planets[p].kind == KIND_DARK) >= 12
    assert st.shape == frozenset(st.board)
    assert (0, 0) in st.shape
    assert min(x for x, _ in st.shape) < 0 or min(y for _, y in st.shape) < 0 or max(
        x for x, _ in st.shape) > 3


def test_SHS_16_6_then_the_game_continues_from_setup_step_5() -> None:
    st = GAME.new_game(players=3, seed=6)
    types = _build(st, Rng(2))
    assert types[-1] == "invader" and st.phase == "place" and st.to_act == frozenset({st.invader})
    assert all(sorted(GAME.data.missions[m].points for m in ms) == [1, 2, 3] for ms in st.missions)
    placed = len(st.board)
    assert len(st.reserve) == 49 - placed
    rng = Rng(1)
    while not st.is_over:
        (seat,) = st.to_act
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    assert sum(st.census().values()) == 49 + 45 + 15
    assert st.game.load_state(st.to_json()).to_json() == st.to_json()


def test_SHS_16_6_custom_sector_conformance_playouts() -> None:
    for seed in range(8):
        st = GAME.new_game(players=2 + seed % 4, seed=seed)
        rng = Rng(seed)
        total = sum(st.census().values())
        while not st.is_over:
            (seat,) = st.to_act
            legal = st.legal_actions(seat)
            assert legal
            a = rng.choice(legal)
            assert str(GAME.parse_action(str(a))) == str(a)
            st.apply(seat, a)
            assert sum(st.census().values()) == total
