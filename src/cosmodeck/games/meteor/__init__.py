"""Meteor: a real-time cooperative card game for 1-5 players (rules/meteor.md, rules/es/meteor.txt)."""

from cosmodeck.engine.registry import GameSpec, register
from cosmodeck.games.meteor.game import MeteorGame

register(
    GameSpec(
        game_cls=MeteorGame,
        data_package="cosmodeck.games.meteor.data",
        data_file="default.json",
        rules_en="meteor.md",
        rules_es="meteor.txt",
    )
)

__all__ = ["MeteorGame"]
