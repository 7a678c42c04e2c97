"""An action of the seat's last legal list since the last change skips ``why`` (issue 15), and only then."""

from __future__ import annotations

import importlib

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.games.meteor import legality
from cosmodeck.games.meteor.actions import PlaceCard, Site
from tests.meteor.helpers import make


def _place(st: object, seat: int, card: str, site: Site) -> PlaceCard:
    got = [a for a in st.legal_actions(seat) if isinstance(a, PlaceCard) and a.card == card and a.site == site]  # type: ignore[attr-defined]
    assert len(got) == 1
    return got[0]


def test_the_compiled_identity_check_is_built_and_used() -> None:
    fast = importlib.import_module("cosmodeck.games.meteor.legality_fast")
    assert legality.listed is fast.listed
    a, b = PlaceCard("F#1", Site(0)), PlaceCard("F#1", Site(0))
    for listed in (fast.listed, legality.listed_py):
        assert listed([a], a) and not listed([a], b) and not listed([], a)  # the very object, not an equal one


def test_a_listed_action_is_not_accepted_again_after_a_change() -> None:
    st = make(2, field=["M01"], hands={0: ["F", "A"]})
    fuel = st.hands[0][0]
    first = _place(st, 0, fuel, Site(0))
    second = _place(st, 0, st.hands[0][1], Site(0))
    st.apply(0, first, at=1.0)
    with pytest.raises(IllegalActionError) as err:  # the list was forgotten with the change: why refuses it
        st.apply(0, first, at=2.0)
    assert err.value.code == "not_in_hand" and st.hands[0] == [second.card]
    st.apply(0, second, at=2.0)  # listed before the change, still legal: why accepts it
    assert st.sites[0][0] == [fuel, second.card]


def test_the_seat_check_still_runs_for_a_listed_action() -> None:
    st = make(2, field=["M01"], hands={0: ["A"], 1: ["F"]})
    action = _place(st, 1, st.hands[1][0], Site(1))
    _place(st, 0, st.hands[0][0], Site(0))  # seat 0's list too
    with pytest.raises(IllegalActionError) as err:
        st.apply(True, action)  # type: ignore[arg-type]
    assert err.value.code == "bad_seat"
    with pytest.raises(IllegalActionError) as err:  # listed for seat 1, not seat 0
        st.apply(0, action)
    assert err.value.code == "not_in_hand"


def test_time_only_opens_one_handed_placements() -> None:
    st = make(2, field=["M01"], challenges={0: "C03"}, hands={0: ["F", "A"]}, difficulty="advanced")
    st.apply(0, _place(st, 0, st.hands[0][0], Site(0)), at=10.0)
    assert not any(isinstance(a, PlaceCard) for a in st.legal_actions(0))  # One-Handed: 2 s between placements
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, PlaceCard(st.hands[0][0], Site(0)), at=11.0)
    assert err.value.code == "one_handed"
    st.apply(0, PlaceCard(st.hands[0][0], Site(0)), at=12.0)  # unlisted (listed at 10 s): why accepts it
    assert len(st.sites[0][0]) == 2
