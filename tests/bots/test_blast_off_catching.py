"""The Blast Off! heuristic catches on evidence from the view's public log (BLO-12.10), never falsely."""

from __future__ import annotations

from collections import Counter

import cosmodeck
from cosmodeck.bots import make_bots
from cosmodeck.sim.runner import bot_rng, play_game


def _penalties(spec: str, games: int = 30) -> Counter[str]:
    game = cosmodeck.load_game("blast-off", timing="steps", false_catch_penalty=1)
    kinds: Counter[str] = Counter()
    for seed in range(games):
        state = game.new_game(players=4, seed=seed)
        play_game(state, make_bots("blast-off", spec, 4, game), bot_rng(seed))
        kinds.update(p["kind"] for p in state.view(None)["penalties"])
    return kinds


def test_evidence_catches_are_valid_and_only_happen_when_bots_catch() -> None:
    catching = _penalties("heuristic:p_forget=0.5;p_catch=1")
    assert catching["caught"] > 0
    assert catching["false_catch"] == 0
    silent = _penalties("heuristic:p_forget=0.5;p_catch=0")
    assert silent["caught"] == 0 and silent["false_catch"] == 0


def test_steps_timing_games_finish_with_heuristic_bots() -> None:
    game = cosmodeck.load_game("blast-off", timing="steps")
    for seed in range(5):
        state = game.new_game(players=3, seed=seed)
        play_game(state, make_bots("blast-off", "heuristic", 3, game), bot_rng(seed))
        assert state.is_over
