from typing import Any

from cosmodeck.games.blast_off.state import BlastOffState

def full_view(st: BlastOffState, seat: int | None) -> dict[str, Any]: ...
