"""Issue 13: one seat check and one action check for every public method, for every game."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import IllegalActionError

GAMES = cosmodeck.list_games()
BAD_SEATS: list[Any] = [True, False, -1, 99, 1.0, "0", None]


def _state(game_id: str) -> cosmodeck.State:
    return cosmodeck.load_game(game_id).new_game(players=3, seed=2)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_every_public_method_refuses_a_bad_seat_with_bad_seat(game_id: str, seat: Any) -> None:
    st = _state(game_id)
    seat0 = min(st.to_act)
    action = st.legal_actions(seat0)[0]
    before = st.to_json()
    calls = [lambda: st.legal_actions(seat), lambda: st.apply(seat, action), lambda: st.is_legal(seat, action)]
    if seat is not None:  # view(None) is the spectator
        calls.append(lambda: st.view(seat))
    for call in calls:
        if call is calls[2]:
            assert st.is_legal(seat, action) is False
            continue
        with pytest.raises(IllegalActionError) as err:
            call()
        assert err.value.code == "bad_seat"
    assert st.to_json() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions_of_true_is_not_seat_1(game_id: str) -> None:
    st = _state(game_id)
    with pytest.raises(IllegalActionError):
        st.legal_actions(True)


def _malformed(action: Any) -> list[Any]:
    """Copies of a legal action with one field of the wrong shape (a list, a float, None, a bool)."""
    out = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        for bad in ([value], None, 1.5, True, ["x", 1]):
            if bad == value and type(bad) is type(value):
                continue
            cls = type(action)
            obj = object.__new__(cls)
            for g in dataclasses.fields(action):
                object.__setattr__(obj, g.name, bad if g.name == f.name else getattr(action, g.name))
            out.append(obj)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hand_built_action_of_the_wrong_shape_is_a_coded_value_error(game_id: str) -> None:
    st = _state(game_id)
    seat = min(st.to_act)
    before = st.to_json()
    tried = 0
    for action in st.legal_actions(seat)[:8]:
        if not dataclasses.is_dataclass(action):
            continue
        for bad in _malformed(action):
            tried += 1
            assert not st.is_legal(seat, bad)
            with pytest.raises(IllegalActionError) as err:
                st.apply(seat, bad)
            assert isinstance(err.value, ValueError) and err.value.code == "bad_action", bad
    assert tried > 0
    assert st.to_json() == before


def test_shooting_star_a_place_with_a_list_cell_is_bad_action_not_type_error() -> None:
    from cosmodeck.games.shooting_star.actions import Place

    st = _state("shooting-star")
    seat = min(st.to_act)
    good = st.legal_actions(seat)[0]
    bad = Place(good.card, [good.cell[0], good.cell[1]], good.orientation)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as err:
        st.apply(seat, bad)
    assert err.value.code == "bad_action"
    st.apply(seat, good)
