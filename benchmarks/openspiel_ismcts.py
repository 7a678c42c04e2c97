"""OpenSpiel's own search bots against a uniform random player on cosmodeck's OpenSpiel games.

    .venv/bin/python benchmarks/openspiel_ismcts.py --games 100 --sims 100                       # ISMCTS
    .venv/bin/python benchmarks/openspiel_ismcts.py --algo mcts --prior heuristic --games 100    # MCTS

``--algo ismcts``: OpenSpiel's ISMCTS bot (it expands every legal move once before it follows a prior).
``--algo mcts``: OpenSpiel's MCTS bot on the information state: at each move it searches a state drawn
with ``resample_from_infostate`` (PUCT with the evaluator's prior). Seats alternate; prints the bot's
score (win 1, shared win 0.5, loss 0) with a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cosmodeck.rl.openspiel import BotPriorEvaluator


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play(game: pyspiel.Game, bot: Any, bot_seat: int, rng: np.random.Generator, resample: bool) -> float:
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(0, game.max_chance_outcomes())))
        elif state.current_player() == bot_seat:
            searched = state.resample_from_infostate(bot_seat, sampler) if resample else state
            state.apply_action(bot.step(searched))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    r = state.returns()[bot_seat]
    return 1.0 if r > 0 else 0.5 if r == 0 else 0.0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="cosmodeck_shooting_star")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--algo", choices=("ismcts", "mcts"), default="ismcts")
    ap.add_argument("--prior", default="uniform", help="'uniform' (random rollouts only) or a cosmodeck bot "
                    "whose move gets half the prior (PUCT), e.g. 'heuristic'")
    a = ap.parse_args(argv)
    game = pyspiel.load_game(a.game, {"players": a.players})
    rng = np.random.default_rng(a.seed)
    if a.prior == "uniform":
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(a.seed))
        policy = ismcts.ChildSelectionPolicy.UCT
    else:
        evaluator = BotPriorEvaluator(game, a.prior, random_state=np.random.RandomState(a.seed))
        policy = ismcts.ChildSelectionPolicy.PUCT
    bot: Any
    if a.algo == "ismcts":
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=a.sims,
                               random_state=np.random.RandomState(a.seed), child_selection_policy=policy)
    else:
        select = mcts.SearchNode.uct_value if a.prior == "uniform" else mcts.SearchNode.puct_value
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=a.sims, evaluator=evaluator,
                           random_state=np.random.RandomState(a.seed), child_selection_fn=select)
    score = 0.0
    t0 = time.perf_counter()
    for i in range(a.games):
        score += play(game, bot, i % a.players, rng, resample=a.algo == "mcts")
    lo, hi = wilson(score, a.games)
    print(f"{a.game} {a.players}p, {a.algo} {a.sims} simulations ({a.prior} prior) vs uniform random: "
          f"{score:g}/{a.games} = {score / a.games:.3f} [95% {lo:.3f}, {hi:.3f}] "
          f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
