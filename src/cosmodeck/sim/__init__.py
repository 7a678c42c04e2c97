"""Run many games: a virtual clock for real-time games, statistics, backends."""

from cosmodeck.sim.runner import GameOutcome, StuckGameError, play_game, random_playout

__all__ = ["GameOutcome", "StuckGameError", "play_game", "random_playout"]
