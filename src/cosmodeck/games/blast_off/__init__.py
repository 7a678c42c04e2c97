"""Blast Off! ("Despegue"): a shedding game with a real-time countdown race and mission cards (2-6 players).

Rules: ``shared/rules/blast-off.md`` (clauses BLO-0..BLO-13, rulings R1..R27, scenarios
BLO-S1..S23) and the Spanish original. Action notation: :mod:`cosmodeck.games.blast_off.actions`.
Options: :mod:`cosmodeck.games.blast_off.options` (``timing="realtime"|"steps"`` and every ruling).
Clause map: ``docs/clauses/blast-off.md``.
"""

from cosmodeck.engine.registry import GameSpec, register
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.state import BlastOffState

register(GameSpec(
    game_cls=BlastOffGame,
    data_package="cosmodeck.games.blast_off.data",
    data_file="default.json",
    file_options=("missions",),
    rules_en="blast-off.md",
    rules_es="blast-off.txt",
))

__all__ = ["BlastOffGame", "BlastOffState"]
