from typing import Any

from cosmodeck.engine.events import Event

def make(kind: str, data: dict[str, Any], private: Any, seats: frozenset[int], public: bool) -> Event: ...

def event_init(self: Event, type: str, data: Any = ..., private: Any = None, seats: frozenset[int] = ...,
               public: bool = True) -> None: ...
