from typing import Any

from cosmodeck.games.meteor.state import MeteorState

def public(st: MeteorState) -> dict[str, Any]: ...
