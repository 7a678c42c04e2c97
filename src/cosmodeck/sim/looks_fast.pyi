from collections.abc import Sequence

from cosmodeck.engine.rng import Rng
from cosmodeck.sim.looks import Reaction

def skip_waits(plans: dict[int, float], waiting: set[int], deadline: float | None,
               reactions: Sequence[Reaction], rng: Rng, idle_rounds: int) -> tuple[int, float, int]: ...
def sampled_delay(reaction: tuple[float, float, float], rng: Rng) -> float: ...
