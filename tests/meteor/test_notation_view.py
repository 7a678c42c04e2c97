"""MET-D3 actions and notation; MET-D4 visibility (views, events, resampling); R5 with views."""

from __future__ import annotations

import json

import pytest

from cosmodeck.engine import IllegalActionError, NotationError, Rng
from cosmodeck.games.meteor.actions import parse_action
from tests.meteor.helpers import load, make, ref

CANONICAL = [
    "start", "meteor_mulligan", "place_card R10#2 s1", "place_card F#12 s0.1", "place_card @0 s3",
    "discard_project s4", "launch s0 m3", "launch s0.1 m12 demolition", "launch s2 m1 sharpshooter",
    "launch s2 m1 demolition sharpshooter", "complete_retrofit s1", "use_power spotter m2",
    "use_power chronometrist", "use_power mechanic s0 A#3", "use_power courier T01#1 p2",
    "use_power courier @4 p0", "show_hand", "pass", "signal pass", "signal launch", "signal time_out",
    "emote cheer", "emote thumbs_down", "emote point m5", "emote point s1.1", "chat Launch at m3 now!",
    "time_out", "resume",
]
MALFORMED = [
    "", " ", "pass ", " pass", "place_card R10#2  s1", "place_card R10 s1", "place_card R10#02 s1",
    "place_card R10#2 s01", "place_card R10#2 s1.0", "place_card R10#2 s1.2", "launch s0", "launch s0 M10",
    "launch s0 m0", "launch s0 m3 sharpshooter demolition", "launch s0 m3 demolition demolition",
    "signal hello", "emote point", "emote cheer m1", "emote point x1", "use_power", "use_power flip",
    "use_power spotter", "use_power courier F#1 2", "use_power mechanic s0 @1", "chat", "chat ", "chat  hi",
    "chat hi ", "chat a\nb", "PASS", "place", "42 42 42 42 42", "\x00",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_MET_D3_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    assert load().parse_action(text) == action


@pytest.mark.parametrize("text", MALFORMED)
def test_MET_D3_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert err.value.code == "bad_notation"


def test_MET_D3_refusals_have_stable_codes_and_change_nothing() -> None:
    st = make(3, field=["M01"], hands={0: ["F"]})
    before = st.to_json()
    for seat, text, code in ((0, "place_card F#2 s0", "not_in_hand"), (0, "place_card F#1 s7", "no_such_site"),
                             (1, "discard_project s1", "site_empty"), (0, "use_power spotter m1", "no_power"),
                             (0, "resume", "not_timed_out"), (0, "start", "already_started"),
                             (2, "complete_retrofit s2", "no_tech")):
        with pytest.raises(IllegalActionError) as err:
            st.apply(seat, text)
        assert err.value.code == code
        assert st.to_json() == before


def test_MET_D4_views_hide_hands_decks_and_face_down_meteors() -> None:
    st = make(3, field=["M21", "M10"], up=["M10"], hands={0: ["R10", "F"], 1: ["S"]})
    for seat in (None, 1, 2):
        view = st.view(seat)
        assert view["hands"][0]["cards"] is None and view["hands"][0]["count"] == 2
        text = json.dumps(view)
        assert "R10#1" not in text and "M21" not in text
        assert view["field"][0] == {"ref": "m1", "kind": "standard", "back": [4, 5], "face_up": False,
                                    "hit": False, "shield_spent": False, "store": 0, "tucked": []}
        assert view["field"][1]["id"] == "M10" and view["field"][1]["size"] == 3
        assert isinstance(view["resource_deck"], int) and isinstance(view["meteor_deck"], int)
    assert st.view(0)["hands"][0]["cards"] == ["R10#1", "F#1"]


def test_MET_D4_events_reveal_draws_only_to_the_drawer() -> None:
    st = make(2, field=["M01"])
    drew = [e for e in st.advance(60) if e.type == "drew"]
    assert drew[0].for_seat(0)["cards"] and "cards" not in drew[0].for_seat(1)  # type: ignore[index,operator]
    assert "cards" not in drew[0].for_seat(None)  # type: ignore[operator]


@pytest.mark.parametrize("options", [{}, {"difficulty": "expert"}, {"first_game": True, "difficulty": "advanced"}])
def test_MET_D4_no_leak_under_resampling(options: dict[str, object]) -> None:
    game = load(**options)
    for seed in range(6):
        st = game.new_game(players=4, seed=seed)
        st.apply(0, "start", at=0)
        for owner in (None, 0, 1, 2, 3):
            for r in range(3):
                other = st.resample_hidden(owner, Rng(r))
                assert other.census() == st.census()
                for seat in (None, 0, 1, 2, 3):
                    if seat != owner:
                        assert other.view(seat) == st.view(seat)
                    if seat is not None and seat != owner:
                        assert other.legal_actions(seat) == st.legal_actions(seat)


def test_MET_D4_resampling_swaps_face_down_meteors_within_their_back() -> None:
    st = make(3, field=["M01", "M21", "M10"], up=["M10"])
    seen = set()
    for r in range(30):
        other = st.resample_hidden(None, Rng(r))
        ids = [m.id for m in other.field]
        assert ids[2] == "M10"
        assert other.data.meteors[ids[0]].back == (1, 2) and other.data.meteors[ids[1]].back == (4, 5)
        seen.add(ids[0])
    assert len(seen) > 1


def test_R5_site_with_a_built_rocket_is_locked_in_the_view() -> None:
    st = make(2, field=["M01"], sites={1: ["R01", "F"]})
    site = st.view(0)["sites"][1]
    assert site["status"] == "built" and site["built"] and site["cards"] == ["R01#1", "F#1"]
    st.apply(1, f"launch s1 {ref(st, 'M01')}", at=1)
    view = st.view(0)
    assert view["volley"]["launches"][0]["rocket"] == "R01" and view["volley"]["closes"] == 4.0
    assert view["sites"][1]["status"] == "empty"


def test_MET_D4_json_round_trip_and_clone_independence_midgame() -> None:
    game = load(difficulty="expert")
    st = game.new_game(players=3, seed=2)
    st.apply(0, "start", at=0)
    text = st.to_json()
    back = game.load_state(text)
    assert back.to_json() == text and back.view(1) == st.view(1)
    twin = st.clone()
    twin.advance(60)
    assert st.to_json() == text and twin.zone == 4 and st.zone == 5
