from collections.abc import MutableSequence
from typing import TypeVar

from cosmodeck.engine.rng import Rng

T = TypeVar("T")

class FastRng(Rng):
    def randbelow(self, n: int) -> int: ...
    def shuffle(self, seq: MutableSequence[T]) -> None: ...
    def copy(self) -> FastRng: ...
