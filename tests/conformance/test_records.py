"""Issue 13: ``replay`` validates records; a tampered record is a coded ``RecordFormatError``."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from typing import Any

import pytest

import cosmodeck
from cosmodeck import RecordFormatError, StateFormatError
from cosmodeck.engine import CosmodeckError, Rng, derive_seed
from tests.conformance.driver import random_input
from tests.conformance.mutate import mutate

GAMES = cosmodeck.list_games()


def _record(game_id: str, steps: int = 60, seed: int = 4) -> dict[str, Any]:
    game = cosmodeck.load_game(game_id)
    st = game.new_game(players=3, seed=seed)
    rng = Rng(derive_seed(seed, 1))
    for _ in range(steps):
        if st.is_over:
            break
        random_input(st, rng)
    rec = st.record()
    assert sum(1 for e in rec["log"] if len(e) == 3) >= 5
    return rec


def _act(rec: dict[str, Any], k: int = 0) -> list[Any]:
    entry: list[Any] = [e for e in rec["log"] if len(e) == 3][k]
    return entry


Tamper = Callable[[dict[str, Any]], None]
TAMPERINGS: list[tuple[str, Tamper, str]] = [
    ("options_not_an_object", lambda r: r.update(options="x"), "record_header"),
    ("options_unknown", lambda r: r.update(options={"no_such_option": 1}), "record_header"),
    ("options_a_file_path", lambda r: r.update(options={"missions": "/etc/passwd"}), "record_header"),
    ("game_not_a_string", lambda r: r.update(game=7), "record_header"),
    ("data_malformed", lambda r: r.update(data={"x": 1}), "record_header"),
    ("data_hash_differs", lambda r: r.update(data_hash="0" * 16), "record_header"),
    ("players_bool", lambda r: r.update(players=True), "record_header"),
    ("players_huge", lambda r: r.update(players=10**12), "record_header"),
    ("players_text", lambda r: r.update(players="3"), "record_header"),
    ("seed_float", lambda r: r.update(seed=1.5), "record_header"),
    ("log_not_a_list", lambda r: r.update(log={}), "record_log"),
    ("entry_not_a_list", lambda r: r["log"].insert(0, "x"), "record_log"),
    ("entry_too_long", lambda r: _act(r).append(1), "record_log"),
    ("time_nan", lambda r: _act(r).__setitem__(0, math.nan), "record_log"),
    ("time_inf", lambda r: _act(r).__setitem__(0, math.inf), "record_log"),
    ("time_text", lambda r: _act(r).__setitem__(0, "1"), "record_log"),
    ("time_backwards", lambda r: _act(r, 3).__setitem__(0, -1.0), "record_log"),
    ("seat_bool", lambda r: _act(r).__setitem__(1, True), "record_log"),
    ("seat_out_of_range", lambda r: _act(r).__setitem__(1, 9), "record_log"),
    ("seat_text", lambda r: _act(r).__setitem__(1, "0"), "record_log"),
    ("action_not_text", lambda r: _act(r).__setitem__(2, ["x"]), "record_log"),
    ("action_gibberish", lambda r: _act(r).__setitem__(2, "fly away"), "record_replay"),
    ("action_duplicated", lambda r: r["log"].insert(r["log"].index(_act(r)), copy.deepcopy(_act(r))),
     "record_replay"),
    ("seat_swapped", lambda r: _act(r).__setitem__(1, (_act(r)[1] + 1) % 3), "record_replay"),
]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(("name", "tamper", "code"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_replay_refuses_a_tampered_record_with_a_coded_record_format_error(game_id: str, name: str, tamper: Tamper,
                                                                          code: str) -> None:
    rec = _record(game_id)
    cosmodeck.replay(copy.deepcopy(rec), check=True)  # the untouched record replays exactly
    bad = copy.deepcopy(rec)
    tamper(bad)
    try:
        cosmodeck.replay(bad)
    except RecordFormatError as e:
        assert isinstance(e, StateFormatError) and isinstance(e, ValueError)
        if game_id == "shooting-star" and name == "seat_swapped":
            assert e.code in ("record_replay", "record_log")  # one seat acts at a time
        else:
            assert e.code == code, e
        return
    # A tampering the rules happen to accept (another seat that may act, an action that may be repeated)
    # is the record of another legal game: it replays exactly as written, and nothing crashes.
    assert name in ("seat_swapped", "action_duplicated"), f"{name} replayed"
    assert cosmodeck.replay(bad).record()["log"] == bad["log"]


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_check_refuses_a_changed_result(game_id: str) -> None:
    rec = _record(game_id, steps=20_000)
    rec["result"] = {"reason": "I won", "winners": [0]}
    cosmodeck.replay(rec)
    with pytest.raises(RecordFormatError) as err:
        cosmodeck.replay(rec, check=True)
    assert err.value.code == "record_tampered" and err.value.field == "result"


@pytest.mark.parametrize("game_id", GAMES)
def test_random_single_field_tamperings_raise_nothing_but_coded_errors(game_id: str) -> None:
    rec = _record(game_id)
    rng = Rng(derive_seed(13, 5))
    refused = 0
    for _ in range(300):
        what, bad = mutate(json.loads(json.dumps(rec)), rng)
        try:
            cosmodeck.replay(bad)
        except RecordFormatError:
            refused += 1
        except CosmodeckError as e:  # an unknown game id is UnknownGameError, also coded
            assert e.code == "unknown_game", (what, e)
    assert refused > 100
