"""Meteor's learning aids: a smaller starting field (curriculum) and potential-based reward shaping."""

from __future__ import annotations

import numpy as np
import pytest

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl import aec_env, gym_env, parallel_env
from cosmodeck.rl.meteor_aids import progress


def test_curriculum_plays_fewer_meteors_in_the_full_games_layout() -> None:
    full = aec_env("meteor", players=2)
    small = aec_env("meteor", players=2, meteors=2, first_game=True)
    small.reset(seed=1)
    view = small.table.state.view(None)
    assert len(view["field"]) == 2 and all(m["face_up"] for m in view["field"])
    assert small.observation_space("player_0") == full.observation_space("player_0")
    assert small.table.encoder.actions == full.table.encoder.actions
    assert "curriculum" in small.table.game.data_input.source


@pytest.mark.parametrize("bad", [{"meteors": 0}, {"meteors": 99}, {"meteors": 2.5}, {"meteors": True},
                                 {"shaping": -1}, {"shaping": float("nan")}, {"shaping": "yes"}])
def test_bad_aid_options_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        aec_env("meteor", players=2, **bad)


def test_the_aids_are_meteors_only() -> None:
    with pytest.raises(OptionError, match="Meteor"):
        gym_env("shooting-star", players=2, shaping=1.0)


def test_shaped_rewards_add_up_to_the_progress_made() -> None:
    """A random agent with a heuristic teammate: the teammate destroys meteors, the shaping pays for them."""
    env = gym_env("meteor", players=2, opponents="heuristic", meteors=2, first_game=True, shaping=1.0)
    rng = np.random.default_rng(0)
    made = []
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
            done = term or trunc
        result = env.table.state.result
        end = 0.0 if result is None else (1.0 if result.team_win else -1.0)
        made.append(progress(env.table.state.view(None)))
        assert total == pytest.approx(end + made[-1])
    assert max(made) > 0, "no meteor was destroyed: the test would not see the shaping"


def test_parallel_and_gym_pay_the_same_shaping() -> None:
    env = parallel_env("meteor", players=1, meteors=1, first_game=True, shaping=2.0, max_steps=3000)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total = 0.0
    while env.agents:
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()
                if o["action_mask"].any()}
        obs, rewards, *_ = env.step(acts)
        total += rewards["player_0"]
    result = env.table.state.result
    end = 0.0 if result is None else (1.0 if result.team_win else -1.0)
    assert total == pytest.approx(end + 2.0 * progress(env.table.state.view(None)))
    g = gym_env("meteor", players=1, meteors=1, first_game=True, shaping=2.0, max_steps=3000)
    o, _ = g.reset(seed=4)
    done, total = False, 0.0
    while not done:
        o, r, term, trunc, _ = g.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
        total += r
        done = term or trunc
    result = g.table.state.result
    end = 0.0 if result is None else (1.0 if result.team_win else -1.0)
    assert total == pytest.approx(end + 2.0 * progress(g.table.state.view(None)))
