from collections.abc import Sequence
from typing import Any

class Card:
    energy: bool
    rocket: bool
    tech: bool
    code: str
    damage: int
    cost: tuple[str, ...]

def plain_values(bot: Any, view: Any, legal: Sequence[Any]) -> list[float]: ...
def useful(legal: Sequence[Any], values: list[float]) -> list[tuple[Any, float]]: ...
def subset_sum(values: list[int], target: int) -> bool: ...
