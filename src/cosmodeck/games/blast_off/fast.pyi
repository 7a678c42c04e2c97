from collections.abc import MutableSequence
from typing import Any, TypeVar

from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.state import BlastOffState

T = TypeVar("T")

class FastBlastOffState(BlastOffState):
    @property
    def is_over(self) -> bool: ...
    @property
    def to_act(self) -> frozenset[int]: ...
    def legal_actions(self, seat: int) -> list[Any]: ...
    def apply(self, seat: int, action: Any, at: float | None = None) -> list[Event]: ...

class FastRng(Rng):
    def randbelow(self, n: int) -> int: ...
    def shuffle(self, seq: MutableSequence[T]) -> None: ...
