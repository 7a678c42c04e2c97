"""Engine mechanics on a toy real-time game: time, refusals, log, JSON, records, replay."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from cosmodeck.api import game_from_header, replay
from cosmodeck.engine import DataError, IllegalActionError, NotationError, OptionError, StateFormatError, TextInput
from cosmodeck.engine.registry import _REGISTRY, GameSpec, register
from tests.engine.toy import TOY_DATA, Add, ToyGame


@pytest.fixture
def toy_registered() -> Iterator[None]:
    previous = _REGISTRY.pop("toy", None)  # the server tests register the same toy their own way
    register(GameSpec(ToyGame, "tests.engine", "toy.json"))
    yield
    _REGISTRY.pop("toy", None)
    if previous is not None:
        _REGISTRY["toy"] = previous


def new(players: int = 2, seed: int = 1, **options: object) -> ToyGame:
    return ToyGame(TOY_DATA, options)


def test_apply_processes_due_deadlines_first() -> None:
    st = new().new_game(2, 1)
    assert st.next_deadline() == 5.0
    events = st.apply(0, Add(1), at=11.0)
    assert [e.type for e in events] == ["tick", "tick", "add"]
    assert [e.data["at"] for e in events[:2]] == [5.0, 10.0]
    assert st.counter == 3 - 2 + 1
    assert st.now == 11.0


def test_deadline_exactly_at_time_fires_before_action() -> None:
    st = new().new_game(2, 1)
    events = st.apply(0, Add(2), at=5.0)
    assert [e.type for e in events] == ["tick", "add"]


def test_time_backwards_is_refused_and_changes_nothing() -> None:
    st = new().new_game(2, 1)
    st.advance(7.0)
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, Add(1), at=6.0)
    assert err.value.code == "time_backwards"
    with pytest.raises(IllegalActionError):
        st.advance(6.9)
    assert st.to_json() == before


def test_refused_action_changes_nothing_and_carries_timer_events() -> None:
    st = new().new_game(2, 1)
    before = st.to_json()
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, Add(3))
    assert err.value.code == "bad_amount"
    assert isinstance(err.value, ValueError)
    assert st.to_json() == before
    with pytest.raises(IllegalActionError) as err2:
        st.apply(0, Add(3), at=5.5)
    assert [e.type for e in err2.value.events] == ["tick"]


@pytest.mark.parametrize("seat,code", [(2, "bad_seat"), (-1, "bad_seat"), (True, "bad_seat")])
def test_bad_seat(seat: int, code: str) -> None:
    st = new().new_game(2, 1)
    with pytest.raises(IllegalActionError) as err:
        st.apply(seat, Add(1))
    assert err.value.code == code


def test_game_over_refuses_everything() -> None:
    st = new().new_game(2, 1)
    st.advance(15.0)  # 3 ticks: counter 0
    assert st.is_over and st.result is not None and st.result.reason == "empty"
    assert st.to_act == frozenset() and st.legal_actions(0) == [] and st.next_deadline() is None
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, Add(1))
    assert err.value.code == "game_over"


def test_notation_strings_are_accepted_and_bad_notation_is_an_error() -> None:
    st = new().new_game(2, 1)
    st.apply(1, "add 2")
    assert st.adds == [0, 2]
    with pytest.raises(NotationError) as err:
        st.apply(1, "jump")
    assert err.value.code == "bad_notation" and isinstance(err.value, ValueError)


def test_idle_advances_merge_in_the_log() -> None:
    st = new().new_game(2, 1)
    st.advance(1.0)
    st.advance(2.0)
    st.advance(3.0)
    assert st.record()["log"] == [[3.0, "advance"]]
    st.advance(6.0)  # a tick fires at 5.0: advance(7.0) alone would fire it the same way
    st.advance(7.0)
    assert st.record()["log"] == [[7.0, "advance"]]
    st.apply(0, Add(1))
    st.advance(7.5)
    assert st.record()["log"] == [[7.0, "advance"], [7.0, 0, "add 1"], [7.5, "advance"]]


def test_json_round_trip_is_exact_and_playable() -> None:
    game = new()
    st = game.new_game(2, 9)
    st.apply(0, Add(1), at=1.5)
    st.advance(6.0)
    text = st.to_json()
    back = game.load_state(text)
    assert back.to_json() == text
    assert st.apply(1, Add(2), at=7.0)[0].to_dict() == back.apply(1, Add(2), at=7.0)[0].to_dict()
    assert st.to_json() == back.to_json()


def test_load_state_refuses_other_options_or_garbage() -> None:
    st = new().new_game(2, 9)
    with pytest.raises(StateFormatError):
        ToyGame(TOY_DATA, {"tick": 2.0}).load_state(st.to_json())
    with pytest.raises(StateFormatError):
        new().load_state("{not json")
    broken = json.loads(st.to_json())
    del broken["core"]["adds"]
    with pytest.raises(StateFormatError):
        new().load_state(json.dumps(broken))


def test_clone_is_independent() -> None:
    st = new().new_game(2, 9)
    c = st.clone()
    c.apply(0, Add(2), at=1.0)
    assert st.adds == [0, 0] and c.adds == [2, 0]
    assert st.rng.state == c.rng.state and st.rng is not c.rng
    assert st.record()["log"] == [] and len(c.record()["log"]) == 1


def test_record_replays_exactly(toy_registered: None) -> None:
    st = new().new_game(3, 4)
    st.apply(0, Add(2), at=0.5)
    st.apply(2, Add(1), at=4.0)
    st.advance(5.5)
    st.apply(1, Add(2), at=8.0)
    st.apply(1, Add(2), at=8.25)
    st.apply(0, Add(2), at=9.0)
    rec = st.record()
    assert rec["data"]["text"] == TOY_DATA.text  # non-default data is embedded
    again = replay(json.loads(json.dumps(rec)))
    assert again.to_json() == st.to_json()
    assert again.record() == rec


def test_replay_refuses_a_tampered_record(toy_registered: None) -> None:
    st = new().new_game(2, 4)
    st.apply(0, Add(2), at=0.5)
    rec = st.record()
    rec["log"][0][2] = "add 7"
    with pytest.raises(StateFormatError):
        replay(rec)
    rec2 = st.record()
    rec2["data_hash"] = "0" * 16
    with pytest.raises(StateFormatError):
        game_from_header(rec2)


def test_options_are_validated() -> None:
    with pytest.raises(OptionError) as err:
        ToyGame(TOY_DATA, {"tick": -1})
    assert "tick" in str(err.value)
    with pytest.raises(OptionError) as err2:
        ToyGame(TOY_DATA, {"speed": 1})
    assert "unknown option" in str(err2.value)
    with pytest.raises(OptionError):
        new().new_game(4, 1)


def test_broken_data_names_file_and_field() -> None:
    with pytest.raises(DataError) as err:
        ToyGame(TextInput("my.json", '{"start": "x", "goal": 3}'), {})
    assert err.value.source == "my.json" and err.value.field == "start"
    assert "my.json: start: must be an integer" in str(err.value)


def test_views_hide_the_other_seats_secret() -> None:
    st = new().new_game(2, 4)
    other = st.resample_hidden(1, __import__("cosmodeck").engine.Rng(5))
    assert other.view(0) == st.view(0)
    assert other.view(None) == st.view(None)
    assert "secret" not in st.view(None)
