"""Shooting Star: simultaneous-feeling hidden placement on a grid, resolved by priority (2-5 players).

Rules: ``shared/rules/shooting-star.md`` (clauses SHS-0..SHS-16, rulings R1..R29, SHS-D1..D5).
Action notation: see :mod:`cosmodeck.games.shooting_star.actions`.
"""

from cosmodeck.engine.registry import GameSpec, register
from cosmodeck.games.shooting_star.game import ShootingStarGame
from cosmodeck.games.shooting_star.state import ShootingStarState

register(GameSpec(
    game_cls=ShootingStarGame,
    data_package="cosmodeck.games.shooting_star.data",
    data_file="default.json",
    rules_en="shooting-star.md",
    rules_es="shooting-star.txt",
))

__all__ = ["ShootingStarGame", "ShootingStarState"]
