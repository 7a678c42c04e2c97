from typing import Any

from cosmodeck.games.meteor.state import MeteorState

def legal(st: MeteorState, seat: int) -> list[Any]: ...
