"""Issue 13, positions people can write: the named state format (cosmodeck-state/2), the older integer format
(cosmodeck-state/1) still loading, and ``game.position(...)`` for each game, with the docs' examples run."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import Rng, StateFormatError
from tests.conformance.mutate import play_on, reachable

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "states_v1").glob("*.json"))


def _game_of(text: str) -> cosmodeck.Game[Any]:
    obj = json.loads(text)
    return cosmodeck.load_game(obj["game"], **obj["options"])


def test_the_state_formats_doc_examples_run() -> None:
    res = doctest.testfile(str(ROOT / "docs" / "state-formats.md"), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0
    assert res.attempted >= 15  # the worked position() example of every game ran


def test_the_fixtures_cover_every_game_in_the_old_format() -> None:
    games = {json.loads(p.read_text())["game"] for p in FIXTURES}
    assert games == set(cosmodeck.list_games())
    assert all(json.loads(p.read_text())["format"] == "cosmodeck-state/1" for p in FIXTURES)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_state_saved_in_format_1_loads_validates_and_round_trips(path: Path) -> None:
    text = path.read_text().strip()
    game = _game_of(text)
    st = game.load_state(text)
    st.validate()
    # exactly what was saved, except the data hash: saved states carry the hash of the file as it was
    # then (texts included); a state written today carries today's rules-only hash (test_data_hash.py)
    saved = json.loads(text)
    assert game.accepts_data_hash(saved["data_hash"])
    resaved = json.loads(st.to_json(version=1))
    assert resaved["data_hash"] == game.data_hash
    assert resaved == {**saved, "data_hash": game.data_hash}
    named = st.to_json()
    assert json.loads(named)["format"] == "cosmodeck-state/2"
    again = game.load_state(named)
    assert again.to_json() == named and json.loads(again.to_json(version=1)) == resaved
    play_on(again, Rng(7))  # and the game goes on from it


def test_a_state_without_a_format_key_is_read_as_format_1() -> None:
    text = next(p for p in FIXTURES if p.stem == "blast-off-fresh").read_text()
    obj = json.loads(text)
    del obj["format"]
    game = _game_of(text)
    st = game.load_state(json.dumps(obj))
    assert json.loads(st.to_json(version=1)) == {**json.loads(text), "data_hash": game.data_hash}


def test_an_unknown_format_is_refused_naming_the_field() -> None:
    game = cosmodeck.load_game("meteor")
    obj = json.loads(game.new_game(players=2, seed=1).to_json())
    obj["format"] = "cosmodeck-state/3"
    with pytest.raises(StateFormatError) as e:
        game.load_state(json.dumps(obj))
    assert e.value.field == "format"


def test_to_json_refuses_a_format_version_it_does_not_write() -> None:
    st = cosmodeck.load_game("meteor").new_game(players=2, seed=1)
    with pytest.raises(ValueError, match="version"):
        st.to_json(version=3)


def _strings(xs: list[Any]) -> bool:
    return all(isinstance(x, str) for x in xs)


def test_blast_off_named_core_names_cards_missions_phases_and_colours() -> None:
    snaps = reachable("blast-off", 1, seed=3)
    for _game, text in snaps:
        core = json.loads(text)["core"]
        assert isinstance(core["phase"], str) and core["fcol"] in (None, "ORANGE", "GREEN", "PURPLE", "RED")
        assert core["fval"] is None or core["fval"] == "BLAST_OFF" or 1 <= core["fval"] <= 10
        assert _strings(core["draw"]) and _strings(core["disc"]) and all(_strings(h) for h in core["hands"])
        assert all(_strings(k) for k in core["known"])
        assert core["drawn"] is None or isinstance(core["drawn"], str)
        for k in ("mdeck", "mdisc", "inforce", "revealed"):
            assert _strings(core[k])
        assert all(isinstance(w[0], str) and (w[1] is None or isinstance(w[1], str)) for w in core["wface"])
        assert all(isinstance(o[1], str) for o in core["obls"] + core["viols"])
        ctx = core["ctx"]
        if ctx is not None:
            assert ctx["c"] is None or isinstance(ctx["c"], str)
            assert ctx["k"] is None or isinstance(ctx["k"], str)
    assert len(snaps) > 20


def test_blast_off_card_names_are_type_and_copy_and_each_card_has_one() -> None:
    game = cosmodeck.load_game("blast-off")
    names = game.card_names  # type: ignore[attr-defined]
    assert len(set(names)) == len(names) == game.deck_size  # type: ignore[attr-defined]
    assert "R9#1" in names and "W#1" in names and "CD#1" in names and "BO-G#1" in names


# ---- position() -----------------------------------------------------------------------------------------
def _refused(call: Any, code: str, field: str) -> None:
    with pytest.raises(StateFormatError) as e:
        call()
    assert e.value.code == code, e.value
    assert e.value.field is not None and e.value.field.startswith(field), e.value


def test_blast_off_position_resolves_bare_names_after_exact_copies() -> None:
    game = cosmodeck.load_game("blast-off")
    st = game.position([["R8", "G7"], ["R8#1", "O3"]], discard=["G5"])
    core = json.loads(st.to_json())["core"]
    assert core["hands"] == [["R8#2", "G7#1"], ["R8#1", "O3#1"]]
    assert len(core["draw"]) == game.deck_size - 5  # type: ignore[attr-defined]  # every other card


def test_blast_off_position_puts_the_named_draw_on_top_and_drawn_cards_in_the_drawn_decision() -> None:
    game = cosmodeck.load_game("blast-off")
    st = game.position([["R9", "G7"], ["O3", "O4"]], discard=["P5"], draw=["R2", "G3"], turn=1)
    assert [str(a) for a in st.legal_actions(1)] == ["draw"]
    st.apply(1, "draw")
    assert sorted(st.view(1)["hand"]) == ["G3", "O3", "O4"]  # the last named is the top
    st2 = game.position([["R9", "G7"], ["O3", "P4"]], discard=["P5"], turn=1, drawn="P4")
    assert st2.view(1)["phase"] == "DRAWN" and [str(a) for a in st2.legal_actions(1)] == ["play P4"]  # must
    may = cosmodeck.load_game("blast-off", drawn_card_play="may")
    st3 = may.position([["R9", "G7"], ["O3", "P4"]], discard=["P5"], turn=1, drawn="P4")
    assert sorted(map(str, st3.legal_actions(1))) == ["keep", "play P4"]


@pytest.mark.parametrize(("kwargs", "code", "field"), [
    ({"hands": [["R99"], ["G7"]]}, "state_unknown", "hands[0][0]"),
    ({"hands": [["R8#1"], ["R8#1"]]}, "state_census", "hands[1][0]"),
    ({"hands": [["R9"], ["R9"]]}, "state_census", "hands[1][0]"),
    ({"hands": [["W"] * 5, ["G7"]]}, "state_census", "hands[0][4]"),
    ({"hands": [[7], ["G7"]]}, "state_type", "hands[0][0]"),
    ({"hands": [["R9"]]}, "state_range", "hands"),
    ({"hands": [["R9"], ["G7"]], "missions": ["M99"]}, "state_unknown", "missions[0]"),
    ({"hands": [["R9"], ["G7"]], "discard": ["G5"], "face": "R4"}, "state_inconsistent", "face"),
    ({"hands": [["R9"], ["G7"]], "turn": 2}, "state_range", "turn"),
    ({"hands": [["R9"], ["G7"]], "drawn": "O3"}, "state_inconsistent", "drawn"),
])
def test_blast_off_position_refuses_what_cannot_be(kwargs: dict[str, Any], code: str, field: str) -> None:
    game = cosmodeck.load_game("blast-off")
    _refused(lambda: game.position(**kwargs), code, field)


def test_meteor_position_deals_twin_pads_two_sites_and_checks_what_is_built() -> None:
    game = cosmodeck.load_game("meteor", difficulty="advanced")
    twin = next(p for p, k in game.data.powers.items() if k == "twin_pads")
    st = game.position([["F"], ["A"]], field=["M01"], powers=[twin, None],
                       sites=[[["R01", "E"], []], [[]]], built=[[True, False], [False]])
    assert st.sites == [[["R01#1", "E#1"], []], [[]]] and st.built == [[True, False], [False]]  # type: ignore[attr-defined]
    st.validate()
    _refused(lambda: game.position([["F"], ["A"]], field=["M01"], sites=[[["E"]], [[]]], built=[[True], [False]]),
             "state_inconsistent", "core.built[0][0]")
    _refused(lambda: game.position([["F"], ["A"]], field=["M01"], face_up=["M02"]), "state_inconsistent", "face_up")
    _refused(lambda: game.position([["F"], ["A"]], field=["M99"]), "state_unknown", "field[0]")
    _refused(lambda: game.position([["F"], ["A"]], field=[]), "state_inconsistent", "core.field")
    _refused(lambda: game.position([["F"], ["A"]], field=["M01"], zone=7), "state_range", "zone")


def test_meteor_position_in_set_up_waits_for_the_host() -> None:
    game = cosmodeck.load_game("meteor")
    st = game.position([["F", "A"]], field=["M01", "M02"], phase="setup")
    assert st.next_deadline() is None and "start" in map(str, st.legal_actions(0))


def test_shooting_star_position_swaps_a_moved_planet_and_fills_the_debris() -> None:
    game = cosmodeck.load_game("shooting-star")
    dealt = game.new_game(players=2, seed=4)
    (cell_a, (pa, _)), (cell_b, (pb, _)) = list(dealt.board.items())[:2]
    st = game.position([["P1", "P2", "P5"], ["P3", "P4", "P5"]], board={f"{cell_a[0]},{cell_a[1]}": pb}, seed=4)
    assert st.board[cell_a][0] == pb and st.board[cell_b][0] == pa
    core = json.loads(st.to_json())["core"]
    assert core["turn"] == len(game.data.card_order) - 2
    assert len(core["debris"][0]) == len(game.data.card_order) - 3
    three = [["P1", "P2", "P5"], ["P3", "P4", "P5"]]
    _refused(lambda: game.position(three, board={"40,40": pb}), "state_range", "board")
    _refused(lambda: game.position([["P1", "P2", "P5"], ["P3", "P4", "P9"]]), "state_unknown", "hands[1][2]")
    _refused(lambda: game.position([["P1", "P2"], ["P3", "P4", "P5"]]), "state_inconsistent", "hands")
    _refused(lambda: game.position([["P1"], ["P3"]]), "state_range", "hands")
    _refused(lambda: game.position(three, conquest=[[pa], [pa]]), "state_census", "conquest[1][0]")


@pytest.mark.parametrize("game_id", cosmodeck.list_games())
def test_a_position_plays_on_like_any_state(game_id: str) -> None:
    game = cosmodeck.load_game(game_id)
    st = {"blast-off": lambda: game.position([["R9", "G7", "W"], ["O3", "CD"], ["P1", "P2"]], discard=["G5"]),
          "meteor": lambda: game.position([["R01", "E", "E"], ["A", "S"]], field=["M02", "M07"]),
          "shooting-star": lambda: game.position([["P7", "P2", "SH"], ["P1", "P3", "P8"]])}[game_id]()
    st.validate()
    assert game.load_state(st.to_json()).to_json() == st.to_json()
    play_on(st, Rng(3), steps=20)
