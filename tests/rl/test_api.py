"""PettingZoo's api_test / parallel_api_test / seed tests and Gymnasium's check_env, for every game."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from cosmodeck.rl import aec_env, gym_env, parallel_env
from tests.rl.conftest import CONFIGS, config_id

# Warnings that any dict observation ({"observation", "action_mask"}) triggers in the checkers:
# PettingZoo's own classic games get them too. Anything else fails the test.
EXPECTED = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
    "Not able to test alternative render modes due to the environment not having a spec",
)


@contextmanager
def only_expected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED)]
    assert not unexpected, unexpected


Config = tuple[str, int, dict[str, Any]]


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_pettingzoo_aec_api_test(cfg: Config) -> None:
    game_id, players, opts = cfg
    with only_expected_warnings():
        api_test(aec_env(game_id, players=players, **opts), num_cycles=200)


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_pettingzoo_parallel_api_test(cfg: Config) -> None:
    game_id, players, opts = cfg
    with only_expected_warnings():
        parallel_api_test(parallel_env(game_id, players=players, **opts), num_cycles=200)


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_pettingzoo_seed_tests(cfg: Config) -> None:
    game_id, players, opts = cfg
    make_aec: Callable[[], Any] = lambda: aec_env(game_id, players=players, **opts)  # noqa: E731
    make_par: Callable[[], Any] = lambda: parallel_env(game_id, players=players, **opts)  # noqa: E731
    with only_expected_warnings():
        seed_test(make_aec, num_cycles=100)
        parallel_seed_test(make_par, num_cycles=100)


@pytest.mark.parametrize("game_id", ["shooting-star", "blast-off", "meteor"])
def test_gymnasium_make_and_check_env_with_the_registered_ids(game_id: str) -> None:
    env = gymnasium.make(f"cosmodeck/{game_id}-v0", players=2, step_s=2.0)
    assert env.spec is not None and env.spec.id == f"cosmodeck/{game_id}-v0"
    with only_expected_warnings():
        check_env(env.unwrapped)


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_gymnasium_check_env(cfg: Config) -> None:
    game_id, players, opts = cfg
    with only_expected_warnings():
        check_env(gym_env(game_id, players=players, **opts), skip_render_check=True)
