"""The OpenSpiel games: load, OpenSpiel's random simulation test, returns, observations, resampling."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("cosmodeck.rl.openspiel")

# OpenSpiel's random_sim_test clones and checks every state of a game: a short game of each is enough.
GAMES = [("cosmodeck_shooting_star", 2), ("cosmodeck_shooting_star", 4), ("cosmodeck_blast_off", 2),
         ("cosmodeck_meteor", 1)]


@pytest.mark.parametrize("name,players", GAMES)
def test_openspiels_random_simulation_test_passes(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "max_steps": 400})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _random_game(game: object, rng: np.random.Generator) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) == openspiel.DEALS and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(int(rng.integers(0, openspiel.DEALS)))
        else:
            p = state.current_player()
            legal = state.legal_actions()
            assert legal and legal == sorted(legal)
            assert state.legal_actions_mask(p).count(1) == len(legal)
            state.apply_action(int(rng.choice(legal)))
    return state


@pytest.mark.parametrize("name,players,games", [("cosmodeck_shooting_star", 2, 40), ("cosmodeck_shooting_star", 3, 20),
                                                ("cosmodeck_blast_off", 2, 20), ("cosmodeck_blast_off", 4, 10),
                                                ("cosmodeck_meteor", 2, 3)])
def test_random_games_end_with_returns_as_the_game_defines(name: str, players: int, games: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    rng = np.random.default_rng(3)
    for _ in range(games):
        returns = _random_game(game, rng).returns()  # type: ignore[attr-defined]
        assert all(r in (-1.0, 0.0, 1.0) for r in returns)
        if name == "cosmodeck_meteor":
            assert len(set(returns)) == 1  # the team wins or loses together
        else:
            # a sole winner gets +1 and everyone else -1; a shared win gives the sharers 0; a cut game 0 to all
            ones, zeros = returns.count(1.0), returns.count(0.0)
            assert (ones == 1 and zeros == 0) or (ones == 0 and zeros >= 2)


def test_observations_come_from_the_players_view_only() -> None:
    game = pyspiel.load_game("cosmodeck_shooting_star", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(7)
    p = state.current_player()
    table = state.table
    assert json.loads(state.observation_string(p)) == json.loads(json.dumps(table.state.view(p)))
    assert np.allclose(state.observation_tensor(p), table.observation(p))
    assert state.information_state_string(p).endswith(" mine:")
    a = state.legal_actions()[0]
    state.apply_action(a)
    assert state.information_state_string(p).endswith(f" mine:{a}")
    other = 1 - p
    hidden = state.table.state.view(p)
    assert json.loads(state.observation_string(p)) == json.loads(json.dumps(hidden))
    assert state.observation_string(other) != state.observation_string(p)


@pytest.mark.parametrize("name,players", [("cosmodeck_shooting_star", 3), ("cosmodeck_blast_off", 3),
                                          ("cosmodeck_meteor", 2)])
def test_resample_from_infostate_keeps_what_the_player_sees(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(5):
        sample = state.resample_from_infostate(p, sampler)
        assert sample.current_player() == p
        assert sample.observation_string(p) == state.observation_string(p)
        assert sample.legal_actions() == state.legal_actions()
        differs |= sample.table.state.to_json() != state.table.state.to_json()
        clone = sample.clone()
        clone.apply_action(clone.legal_actions()[0])  # the sample plays on, independently of the original
        assert sample.observation_string(p) == state.observation_string(p)
    assert differs, "resampling never changed a hidden card"


def test_openspiels_ismcts_bot_plays_a_whole_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("cosmodeck_shooting_star", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(0))
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(0, openspiel.DEALS)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves >= 5


def test_bot_prior_evaluator_weights_the_bots_move_and_guides_openspiels_mcts() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("cosmodeck_shooting_star", {"players": 2})
    evaluator = openspiel.BotPriorEvaluator(game, "heuristic", weight=0.5, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    state.apply_action(9)
    prior = dict(evaluator.prior(state))
    assert sorted(prior) == state.legal_actions()
    assert sum(prior.values()) == pytest.approx(1.0)
    top = max(prior, key=prior.__getitem__)
    assert prior[top] > 0.5 and sorted(prior.values())[-2] < 0.01
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator,
                       random_state=np.random.RandomState(0), child_selection_fn=mcts.SearchNode.puct_value)
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert bot.step(sample) in state.legal_actions()
    with pytest.raises(ValueError):
        openspiel.BotPriorEvaluator(game, "heuristic", weight=1.5)
