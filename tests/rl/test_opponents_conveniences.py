"""Opponents as bot specs, Bot objects or policies; legal_actions, action_to_string, render, describe."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from cosmodeck.bots import make_bot
from cosmodeck.engine.errors import OptionError
from cosmodeck.rl import aec_env, describe, gym_env, parallel_env
from cosmodeck.textboard import render_text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _play_out(env: Any, seed: int) -> tuple[int, float]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, reward, done = 0, 0.0, False
    while not done:
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not info.get("illegal_action")
        done = term or trunc
        steps += 1
    return steps, reward


class CountingPolicy:
    """A policy opponent: the lowest legal index, counting its calls and checking what it is given."""

    def __init__(self, obs_size: int, num_actions: int) -> None:
        self.calls = 0
        self.obs_size = obs_size
        self.num_actions = num_actions

    def __call__(self, observation: Any, mask: Any) -> int:
        assert observation.shape == (self.obs_size,) and mask.shape == (self.num_actions,)
        self.calls += 1
        return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("game_id,players", [("shooting-star", 3), ("blast-off", 2), ("meteor", 2)])
def test_a_policy_plays_the_opponent_seats(game_id: str, players: int) -> None:
    probe = gym_env(game_id, players=players)
    policy = CountingPolicy(probe.table.encoder.obs_size, probe.table.encoder.num_actions)
    env = gym_env(game_id, players=players, opponents=policy, **({"max_steps": 400} if game_id == "meteor" else {}))
    _play_out(env, seed=3)
    assert policy.calls > 0


def test_bot_objects_and_a_mixed_list_play_and_are_copied_per_seat() -> None:
    bot = make_bot("shooting-star", "heuristic")
    env = gym_env("shooting-star", players=3, opponents=bot)
    assert len(env.bots) == 2 and env.bots[0] is not env.bots[1] and bot not in env.bots
    _play_out(env, seed=1)
    policy = CountingPolicy(env.table.encoder.obs_size, env.table.encoder.num_actions)
    mixed = gym_env("shooting-star", players=3, opponents=["random", policy])
    _play_out(mixed, seed=2)
    assert policy.calls > 0


def test_bot_specs_are_made_for_the_environments_own_game_definition() -> None:
    env = gym_env("blast-off", players=2, opponents="heuristic", timing="realtime")
    assert env.bots[0].game is env.table.game  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [42, "", "nosuchbot", ["random", "random"], None])
def test_bad_opponents_are_refused_with_an_option_error(bad: Any) -> None:
    with pytest.raises(OptionError):
        gym_env("shooting-star", players=2, opponents=bad)


def test_a_policy_that_breaks_its_mask_is_refused() -> None:
    env = gym_env("shooting-star", players=2, opponents=lambda obs, mask: len(mask))
    with pytest.raises(OptionError, match="mask forbids"):  # at reset or at the first step, whoever moves first
        obs, _ = env.reset(seed=0)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_legal_actions_and_action_to_string_agree_with_the_mask_and_the_engine() -> None:
    env = aec_env("blast-off", players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        assert legal == env.legal_actions(agent) == [int(i) for i in np.flatnonzero(env.observe(agent)["action_mask"])]
        state = env.table.state
        seat = env.seats[agent]
        engine = {str(a) for a in state.legal_actions(seat)}
        names = {env.action_to_string(i) for i in legal}
        assert names <= engine
        env.step(int(rng.choice(legal)))
    with pytest.raises(OptionError):
        env.action_to_string(env.table.encoder.num_actions)
    with pytest.raises(OptionError):
        env.legal_actions("player_9")


def test_real_time_wait_is_named_and_parallel_legal_actions_follow_the_round() -> None:
    env = parallel_env("meteor", players=2)
    obs, _ = env.reset(seed=0)
    noop = env.table.encoder.noop
    assert noop is not None and env.action_to_string(noop) == "wait"
    for agent in env.agents:
        assert env.legal_actions(agent) == [int(i) for i in np.flatnonzero(obs[agent]["action_mask"])]


@pytest.mark.parametrize("make", [lambda: aec_env("shooting-star", players=2, render_mode="ansi"),
                                  lambda: parallel_env("meteor", players=2, render_mode="ansi"),
                                  lambda: gym_env("blast-off", players=2, render_mode="ansi")])
def test_render_draws_the_board_from_a_view_without_the_seed(make: Any) -> None:
    env = make()
    env.reset(seed=123456789)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) >= 3
    plain = ANSI.sub("", text)
    seed = str(env.table.state.seed)
    assert seed not in plain and "seed" not in plain.lower()
    assert "State" not in plain  # not the state's repr


def test_render_in_gym_draws_the_learning_seats_view() -> None:
    env = gym_env("blast-off", players=2, render_mode="ansi", seat=1)
    env.reset(seed=5)
    state = env.table.state
    assert env.render() == render_text("blast-off", state.view(1))
    assert env.render() != render_text("blast-off", state.view(0))


@pytest.mark.parametrize("game_id,players", [("shooting-star", 5), ("blast-off", 6), ("meteor", 1), ("meteor", 5)])
def test_describe_covers_every_player_count(game_id: str, players: int) -> None:
    text = describe(game_id, players)
    env = aec_env(game_id, players=players)
    enc = env.table.encoder
    assert text.startswith(f"### {game_id}, {players} players: observation {enc.obs_size}, actions {enc.num_actions}")
    assert f"| total | 0:{enc.obs_size} | {enc.obs_size} | |" in text


class OwnBot:
    """A user's own Bot class (not from the registry): the first legal action after 0.3 s of thought;
    it records the seats whose views it was given."""

    name = "own"

    def __init__(self) -> None:
        self.seats: set[int] = set()
        self.calls = 0

    def act(self, view: Any, legal: Any, rng: Any) -> Any:
        self.seats.add(int(view["seat"]))
        self.calls += 1
        return legal[0] if legal else None

    def reaction_time(self, rng: Any) -> float:
        return 0.3


@pytest.mark.parametrize("game_id,players,opts", [("shooting-star", 2, {}), ("blast-off", 3, {}),
                                                  ("meteor", 3, {"max_steps": 300, "step_s": 1.0})])
def test_a_users_own_bot_class_plays_every_opponent_seat_from_its_own_view(game_id: str, players: int,
                                                                           opts: dict[str, Any]) -> None:
    env = gym_env(game_id, players=players, opponents=OwnBot(), seat=0, **opts)
    _play_out(env, seed=4)
    bots = [b for b in env.bots if isinstance(b, OwnBot)]
    assert len(bots) == players - 1
    for seat, bot in zip(range(1, players), bots, strict=True):
        assert bot.calls > 0 and bot.seats == {seat}  # each copy sees only its own seat's view


def test_vector_env_takes_specs_bots_and_policies_mixed() -> None:
    """At 4 players, one opponent per seat: a spec, a Bot object (sub-environment 0 plays the object
    given, every other one a copy of it) and a policy (shared by every sub-environment)."""
    from cosmodeck.rl import vector_env

    probe = gym_env("shooting-star", players=4)
    policy = CountingPolicy(probe.table.encoder.obs_size, probe.table.encoder.num_actions)
    bot = OwnBot()
    env = vector_env("shooting-star", players=4, num_envs=3, opponents=["random", bot, policy])
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    copies = [e.bots[1] for e in env.envs]
    assert copies[0] is bot and all(isinstance(b, OwnBot) for b in copies) and len({id(b) for b in copies}) == 3
    assert all(b.calls > 0 and b.seats == {2} for b in copies)  # type: ignore[union-attr]
    assert policy.calls >= 3 * 10
