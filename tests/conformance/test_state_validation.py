"""Issue 13: ``load_state`` validates everything; ``state.validate()``; the mutation property.

Every single-field mutation of a reachable state's JSON either loads (and the state then plays
on: views, legal actions, actions, timers, JSON) or is refused with a coded ``StateFormatError``
naming the field; nothing else is ever raised. ``benchmarks/fuzz_states.py`` runs the long version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine import StateFormatError
from tests.conformance.mutate import run

GAMES = cosmodeck.list_games()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_single_field_mutation_loads_and_plays_or_is_a_state_format_error(game_id: str) -> None:
    tally = run(game_id, 1500, seed=13, games=2)
    assert not tally.failures, "\n".join(tally.failures[:10])
    assert tally.refused > 0 and tally.loaded > 0  # both outcomes are exercised
    assert set(tally.codes) <= {"state_type", "state_range", "state_unknown", "state_census", "state_inconsistent",
                                "bad_state"}


def test_blast_off_mutations_of_the_integer_format_load_and_play_or_are_refused() -> None:
    # states saved before the named format (cosmodeck-state/1) still load: the same property holds for them
    tally = run("blast-off", 600, seed=14, games=1, version=1)
    assert not tally.failures, "\n".join(tally.failures[:10])
    assert tally.refused > 0 and tally.loaded > 0


def _state(game_id: str, players: int = 3, version: int = 2, **options: Any) -> tuple[cosmodeck.Game[Any],
                                                                                      dict[str, Any]]:
    game = cosmodeck.load_game(game_id, **options)
    st = game.new_game(players=players, seed=5)
    return game, json.loads(st.to_json(version=version))


def _refused(game: cosmodeck.Game[Any], obj: dict[str, Any], code: str, field: str) -> StateFormatError:
    with pytest.raises(StateFormatError) as err:
        game.load_state(json.dumps(obj))
    assert err.value.code == code, err.value
    assert err.value.field is not None and err.value.field.startswith(field), err.value
    assert field in str(err.value)
    return err.value


Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    def go(obj: dict[str, Any]) -> None:
        node: Any = obj
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return go


def _dup_hand_card(obj: dict[str, Any]) -> None:
    hands = obj["core"]["hands"]
    hands[0][0] = hands[1][0]


CASES: list[tuple[str, Mutation, str, str]] = [
    ("meteor", _set("players", 10**12), "state_range", "players"),
    ("meteor", _set("core.hands.0.0", "ZZ#1"), "state_unknown", "core.hands[0][0]"),
    ("meteor", _dup_hand_card, "state_census", "core"),
    ("meteor", _set("core.field.0.id", "M99"), "state_unknown", "core.field[0].id"),
    ("meteor", _set("core.zone", 7), "state_range", "core.zone"),
    ("meteor", _set("core.phase", 42), "state_range", "core.phase"),
    ("meteor", _set("core.hands", [[]]), "state_range", "core.hands"),
    ("meteor", _set("core.timer_end", float("nan")), "state_range", "core.timer_end"),
    ("meteor", _set("now", float("inf")), "state_range", "now"),
    ("blast-off", _set("players", 10**12), "state_range", "players"),
    ("blast-off", _dup_hand_card, "state_census", "core"),
    ("blast-off", _set("core.hands.0.0", 999), "state_range", "core.hands[0][0]"),
    ("blast-off", _set("core.phase", 42), "state_range", "core.phase"),
    ("blast-off", _set("core.cur", True), "state_type", "core.cur"),
    ("blast-off", _set("core.hands", [[1]]), "state_range", "core.hands"),
    ("shooting-star", _set("players", 10**12), "state_range", "players"),
    ("shooting-star", _set("core.board.0.2", "P99"), "state_unknown", "core.board[0][2]"),
    ("shooting-star", _set("core.hands", [[]]), "state_range", "core.hands"),
    ("shooting-star", _set("core.phase", "42"), "state_range", "core.phase"),
    ("shooting-star", _set("core.invader", 7), "state_range", "core.invader"),
]


# The same cases in the named format (cosmodeck-state/2), where Blast Off! cards and phases are names.
CASES_NAMED: list[tuple[str, Mutation, str, str]] = [
    *[c for c in CASES if c[0] != "blast-off"],
    ("blast-off", _set("players", 10**12), "state_range", "players"),
    ("blast-off", _dup_hand_card, "state_census", "core"),
    ("blast-off", _set("core.hands.0.0", 999), "state_type", "core.hands[0][0]"),
    ("blast-off", _set("core.hands.0.0", "R99#1"), "state_unknown", "core.hands[0][0]"),
    ("blast-off", _set("core.phase", 42), "state_type", "core.phase"),
    ("blast-off", _set("core.phase", "LUNCH"), "state_unknown", "core.phase"),
    ("blast-off", _set("core.fcol", "BLUE"), "state_unknown", "core.fcol"),
    ("blast-off", _set("core.fval", 11), "state_range", "core.fval"),
    ("blast-off", _set("core.mdeck.0", "M99"), "state_unknown", "core.mdeck[0]"),
    ("blast-off", _set("core.mdeck.0", 3), "state_type", "core.mdeck[0]"),
    ("blast-off", _set("core.cur", True), "state_type", "core.cur"),
    ("blast-off", _set("core.hands", [["R9#1"]]), "state_range", "core.hands"),
]


@pytest.mark.parametrize(("game_id", "mutation", "code", "field"), CASES)
def test_load_state_refuses_the_issue_13_cases_naming_the_field(game_id: str, mutation: Mutation, code: str,
                                                               field: str) -> None:
    game, obj = _state(game_id, version=1)
    mutation(obj)
    _refused(game, obj, code, field)


@pytest.mark.parametrize(("game_id", "mutation", "code", "field"), CASES_NAMED)
def test_load_state_refuses_the_issue_13_cases_in_the_named_format(game_id: str, mutation: Mutation, code: str,
                                                                  field: str) -> None:
    game, obj = _state(game_id)
    assert obj["format"] == "cosmodeck-state/2"
    mutation(obj)
    _refused(game, obj, code, field)


def test_shooting_star_a_planet_both_on_the_board_and_in_the_reserve_is_refused() -> None:
    game, obj = _state("shooting-star")
    obj["core"]["reserve"].append(obj["core"]["board"][0][2])
    _refused(game, obj, "state_census", "core")


def test_shooting_star_a_1_2_planet_at_level_4_is_refused() -> None:
    game, obj = _state("shooting-star")
    data = game.data
    row = next(r for r in obj["core"]["board"] if data.planets[r[2]].kind == "12")
    row[3] = 4
    _refused(game, obj, "state_inconsistent", "core.board")


def test_meteor_a_built_site_without_a_rocket_is_refused() -> None:
    game, obj = _state("meteor")
    core = obj["core"]
    energy = next(c for c in core["hands"][0] if game.data.resources[c].is_energy)
    core["hands"][0].remove(energy)
    core["sites"][0][0] = [energy]
    core["built"][0][0] = True
    _refused(game, obj, "state_inconsistent", "core.built[0][0]")


@pytest.mark.parametrize("game_id", GAMES)
def test_validate_accepts_a_reachable_state_and_refuses_a_broken_one(game_id: str) -> None:
    st = cosmodeck.load_game(game_id).new_game(players=2, seed=3)
    st.validate()
    st.hands[0] = list(st.hands[0]) + list(st.hands[0][:1])  # type: ignore[attr-defined]
    with pytest.raises(StateFormatError) as err:
        st.validate()
    assert err.value.code == "state_census"
