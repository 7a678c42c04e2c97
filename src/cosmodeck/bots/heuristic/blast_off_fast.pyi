from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.heuristic.blast_off import BlastOffHeuristic
from cosmodeck.engine.rng import Rng

def act(bot: BlastOffHeuristic, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None: ...
def agrees(view: Mapping[str, Any], seat: int, tr: Any) -> bool: ...
