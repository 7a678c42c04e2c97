from typing import Any

from cosmodeck.engine.rng import Rng
from cosmodeck.rl.table import Table

def randbelow(rng: Rng, n: int) -> int: ...
def run_random(table: Table, me: int, rng: Rng) -> None: ...
def vector_step(envs: list[Any], acts: list[int], obs_rows: list[Any], mask_rows: list[Any], rewards: Any,
                term: Any, trunc: Any, seats: Any) -> tuple[list[int], list[tuple[int, dict[str, Any],
                                                                                 dict[str, Any]]]]: ...
