"""SHS-D2 visibility, SHS-D4 events, SHS-D5 observations; hidden-info resampling, census, codec."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import cosmodeck
from cosmodeck.engine.events import redact
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.state import ShootingStarState
from tests.shooting_star.helpers import stack

GAME = cosmodeck.load_game("shooting-star")
D4 = {"place", "reveal", "resolve", "miss", "shield", "destroy", "flip", "capture", "replace", "to_debris",
      "invader", "game_end", "missions", "score"}
D4_KEYS = {
    "place": {"seat", "cell", "orientation"}, "reveal": {"seat", "card", "cell", "orientation"},
    "resolve": {"seat", "card"}, "miss": {"cell", "reason"}, "shield": {"attacker", "card", "defender", "cell"},
    "destroy": {"card", "owner", "cell", "by"}, "flip": {"cell", "planet", "from", "to"},
    "capture": {"seat", "planet", "cell", "pile", "cause"}, "replace": {"cell", "planet"},
    "to_debris": {"seat", "card", "cause"}, "invader": {"seat"}, "game_end": {"reason"},
    "missions": {"seat", "ids"}, "score": {"seat", "breakdown"},
}


def _midgame(seed: int, steps: int, players: int = 3, **opts: object) -> ShootingStarState:
    s = cosmodeck.load_game("shooting-star", **opts).new_game(players=players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        (seat,) = s.to_act
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert isinstance(s, ShootingStarState)
    return s


def test_SHS_D2_face_down_card_shows_position_orientation_owner_only() -> None:
    s, ev = stack(["4 4 4", "4 4 4"], [], letters="RYG")
    ev = s.apply(0, "place P6 1,0 E")
    for seat in (None, 1, 2):
        v = s.view(seat)
        assert v["placed"] == [{"seat": 0, "cell": [1, 0], "orientation": "E", "order": 1, "card": None}]
        assert "blastroid:P6" not in json.dumps(v)
        assert redact(ev, seat) == [{"type": "place", "seat": 0, "cell": [1, 0], "orientation": "E"}]
    assert s.view(0)["placed"][0]["card"] == "blastroid:P6"
    assert redact(ev, 0)[0]["card"] == "blastroid:P6"


def test_SHS_D2_hands_owner_sees_cards_others_count_and_used() -> None:
    s, _ = stack(["4 4 4", "4 4 4"], ["R:P8@(0,1)N#1", "Y:SH@(2,1)#2"])
    s.apply(1, "place P3 1,1 N")
    v = s.view(0)
    assert v["hands"][0]["cards"] == list(s.hands[0]) and v["hands"][0]["used"] == ["P8"]
    assert v["hands"][1] == {"seat": 1, "count": 7, "cards": None, "used": ["SH"]}


def test_SHS_D2_missions_at_game_end_only_reserve_count_only() -> None:
    s = _midgame(3, 5)
    v = s.view(0)
    assert v["missions"][1] is None and v["missions"][0] is not None
    assert v["reserve"] == len(s.reserve) and isinstance(v["reserve"], int)
    end = _midgame(3, 200)
    assert end.is_over and all(m is not None for m in end.view(None)["missions"])
    assert end.view(None)["scores"] == end.result.details["breakdown"]  # type: ignore[union-attr]


def test_SHS_D2_board_view_has_everything_a_ui_draws() -> None:
    v = _midgame(4, 1).view(None)
    cell = v["grid"]["cells"][0]
    assert {"x", "y", "planet", "kind", "level", "name", "moons", "card"} <= set(cell)
    assert {"phase", "turn", "invader", "factions", "conquest", "debris", "hands", "placed", "card_set"} <= set(v)
    dark = [c for c in v["grid"]["cells"] if c.get("kind") == "dark"]
    assert dark and all(c["level"] is None for c in dark)
    json.dumps(v)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), owner=st.integers(0, 4), r=st.integers(0, 99),
       players=st.integers(2, 5), custom=st.booleans())
def test_SHS_D2_no_leak_resampled_secrets_are_invisible_to_others(seed: int, steps: int, owner: int, r: int,
                                                                   players: int, custom: bool) -> None:
    s = _midgame(seed, steps, players, custom_sector=custom)
    owner %= players
    other = s.resample_hidden(owner, Rng(r))
    assert other.census() == s.census()
    for seat in [None, *range(players)]:
        if seat != owner:
            assert other.view(seat) == s.view(seat)
    shared = s.resample_hidden(None, Rng(r))
    assert all(shared.view(x) == s.view(x) for x in [None, *range(players)])


def test_SHS_D2_resample_hidden_redraws_missions_face_down_card_and_planet_hand() -> None:
    s, _ = stack(["4 4 4", "4 4 4"], [], letters="RY")
    s.apply(0, "place P6 1,0 N")
    changed = {"missions": 0, "card": 0}
    for r in range(30):
        o = s.resample_hidden(0, Rng(r))
        changed["missions"] += o.missions[0] != s.missions[0]
        changed["card"] += o.placed[0][1] != "P6"
        assert o.placed[0][2:] == ((1, 0), "N")
        assert [o.game.data.missions[m].points for m in o.missions[0]] == [1, 2, 3]
        assert o.missions[1] == s.missions[1]
    assert changed["missions"] and changed["card"]
    v = _midgame(1, 1, 2, custom_sector=True)
    (seat,) = v.to_act
    hands = {v.resample_hidden(seat, Rng(r)).planet_hands[seat] for r in range(10)}
    assert len(hands) > 1
    assert v.resample_hidden(None, Rng(1)).rng.state != v.rng.state


def test_SHS_D3_census_is_constant_through_a_game() -> None:
    s = GAME.new_game(players=4, seed=12)
    start = s.census()
    assert sum(start.values()) == 49 + 45 + 15 and max(start.values()) == 1
    rng = Rng(4)
    while not s.is_over:
        (seat,) = s.to_act
        s.apply(seat, rng.choice(s.legal_actions(seat)))
        assert s.census() == start


def test_SHS_D4_event_types_and_fields_exactly_as_listed() -> None:
    seen: set[str] = set()
    for seed in range(25):
        s = GAME.new_game(players=2 + seed % 4, seed=seed)
        rng = Rng(seed)
        while not s.is_over:
            (seat,) = s.to_act
            for e in s.apply(seat, rng.choice(s.legal_actions(seat))):
                assert e.type in D4
                assert set(e.to_dict()) - {"type"} == D4_KEYS[e.type] | ({"card"} if e.type == "place" else set())
                json.dumps(e.to_dict())
                seen.add(e.type)
    assert seen == D4


def test_SHS_D4_clone_and_json_round_trip_are_exact() -> None:
    s = _midgame(7, 9)
    text = s.to_json()
    back = GAME.load_state(text)
    assert back.to_json() == text and back.census() == s.census()
    twin = s.clone()
    (seat,) = twin.to_act
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert s.to_json() == text


def test_SHS_D5_observation_and_action_mask_follow_the_views_and_legal_actions() -> None:
    s = _midgame(2, 4)
    (seat,) = s.to_act
    legal = s.legal_actions(seat)
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts)
    assert all(s.is_legal(seat, t) for t in texts)
    free = sum(1 for c in s.view(seat)["grid"]["cells"] if c["planet"] and c["card"] is None)
    assert len(legal) == len(s.hands[seat]) * free * 4
