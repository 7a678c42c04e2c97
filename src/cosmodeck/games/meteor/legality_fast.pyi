from typing import Any

from cosmodeck.games.meteor.state import MeteorState

def legal(st: MeteorState, seat: int) -> list[Any]: ...

def listed(actions: list[Any], action: Any) -> bool: ...
