"""The compiled setup (``fast.new_state``) deals exactly what the reference setup (``rules_setup``) deals.

``ShootingStarGame._new_state`` hands a ``FastShootingStarState``'s setup to ``fast.new_state``: the first
player, the set-aside planets, the pile, the faces, the redeal while two Dark Planets touch (SHS-3.4), the
reserve, the missions and the box, or the custom sector's planet hands (SHS-16.1), from the same generator
draws in the same order. Here every seat's view, the state JSON, the generator's state and the attributes'
order of fresh games equal the reference's (``fast=False``) at 2-5 players, with every variant option and on
edited data; and the games then played on equal the reference's to the end (``test_fast_path.py``'s ``_play``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

import cosmodeck
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.options import TextInput
from cosmodeck.games.shooting_star import fast, rules_setup
from tests.shooting_star.test_fast_path import VARIANTS, _play

TEXT = resources.files("cosmodeck.games.shooting_star.data").joinpath("default.json").read_text(encoding="utf-8")
SETUP_VARIANTS: list[dict[str, Any]] = [{}, *VARIANTS, {"first_player": 1}, {"factions": None}]


def _edited(edit: Callable[[dict[str, Any]], None]) -> TextInput:
    obj = json.loads(TEXT)
    edit(obj)
    return TextInput("edited.json", json.dumps(obj))


def _same_setups(players: int, seeds: list[int], **options: Any) -> int:
    quick = cosmodeck.load_game("shooting-star", **options)
    ref = cosmodeck.load_game("shooting-star", fast=False, **options)
    compiled = 0
    for seed in seeds:
        a = quick.new_game(players=players, seed=seed)
        b = ref.new_game(players=players, seed=seed)
        assert type(a) is fast.FastShootingStarState and type(a.rng) is fast.FastRng
        assert a.rng.state == b.rng.state, (players, seed)
        assert a.to_json() == b.to_json(), (players, seed)
        assert list(vars(a)) == list(vars(b)), (players, seed)  # (no reference attribute set by the reference only)
        for seat in (*range(players), None):
            assert a.view(seat) == b.view(seat), (players, seed, seat)
        assert a.to_act == b.to_act
        assert a.legal_actions(min(a.to_act)) == b.legal_actions(min(b.to_act))
        compiled += quick.setup_tables is not None and fast.new_state(quick, players, seed) is not None
    return compiled


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", SETUP_VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "plain")
def test_compiled_setup_equals_the_reference(players: int, options: dict[str, Any]) -> None:
    seeds = [*range(120), 2**64 + 17, 2**70 - 1, -3]
    assert _same_setups(players, seeds, **options) == len(seeds)  # every one dealt by the compiled setup


def test_compiled_setup_with_the_youngest_first() -> None:
    for players in (2, 3, 5):
        ages = [30] + [20] * (players - 1)  # a tie of the youngest: a random draw among them (R21)
        assert _same_setups(players, list(range(60)), first_player="youngest", ages=ages) == 60
        with pytest.raises(OptionError) as e:
            cosmodeck.load_game("shooting-star", first_player="youngest", ages=[1]).new_game(players=players, seed=1)
        assert e.value.code == "bad_ages"


def test_compiled_setup_refuses_what_the_reference_refuses() -> None:
    for fast_ in (True, False):
        factions = [f.id for f in cosmodeck.load_game("shooting-star").data.factions[:3]]
        game = cosmodeck.load_game("shooting-star", fast=fast_, factions=factions)
        with pytest.raises(OptionError, match="names 3 factions for 2 players"):
            game.new_game(players=2, seed=1)
        assert game.new_game(players=3, seed=1).factions == tuple(factions)
        with pytest.raises(OptionError) as e:
            cosmodeck.load_game("shooting-star", fast=fast_, first_player=4).new_game(players=3, seed=1)
        assert e.value.code == "bad_first_player"


def test_compiled_setup_redeals_as_the_reference_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some of the seeds compared redeal (two Dark Planets touched, SHS-3.4), so the redeal loop is compared too."""
    touched = []
    real = rules_setup.darks_adjacent

    def spy(data: Any, board: Any) -> bool:
        got = real(data, board)
        touched.append(got)
        return got

    monkeypatch.setattr(rules_setup, "darks_adjacent", spy)
    assert _same_setups(2, list(range(120))) == 120
    assert any(touched) and not all(touched)


def _set(section: str, **values: Any) -> Callable[[dict[str, Any]], None]:
    return lambda o: o[section].update(values)


@pytest.mark.parametrize("edit", [
    _set("setup", set_aside_names=3),
    _set("setup", set_aside_names=1),
    _set("setup", set_aside_dark=0),
    _set("setup", set_aside_dark=2),
    _set("setup", custom_planets_per_player=4),
], ids=["aside3", "aside1", "dark0", "dark2", "per4"])
def test_compiled_setup_equals_the_reference_on_edited_data(edit: Callable[[dict[str, Any]], None]) -> None:
    data = _edited(edit)
    for players in (2, 5):
        for custom in (False, True):
            assert _same_setups(players, list(range(40)), data=data, custom_sector=custom) == 40


def test_compiled_setup_leaves_what_it_does_not_copy_to_the_reference() -> None:
    """A data form outside the compiled deal (``SetupTables.ok`` false; a table marked so stands for it here):
    ``new_state`` says ``None`` and the game deals through the reference, with the same result."""
    quick = cosmodeck.load_game("shooting-star")
    assert fast.new_state(quick, 3, 5) is not None
    ref = cosmodeck.load_game("shooting-star", fast=False)
    quick.setup_tables = fast.SetupTables(quick)
    quick.setup_tables.ok = False
    assert fast.new_state(quick, 3, 5) is None
    a = quick.new_game(players=3, seed=5)
    assert type(a) is fast.FastShootingStarState and a.to_json() == ref.new_game(players=3, seed=5).to_json()


@pytest.mark.parametrize(("players", "options"), [(2, {}), (5, {"setup_face": "high"}), (3, {"custom_sector": True})])
def test_games_from_the_compiled_setup_play_as_the_reference(players: int, options: dict[str, Any]) -> None:
    assert _play(players, range(20, 24), True, views=False, **options) > 0
