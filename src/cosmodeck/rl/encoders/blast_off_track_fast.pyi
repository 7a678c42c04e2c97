from collections.abc import Mapping
from typing import Any

from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.state import BlastOffState

class FastLogTrack:
    def __init__(self) -> None: ...
    def log(self, g: BlastOffGame, owner: object, public: Mapping[str, Any]) -> FastPublicLog: ...
    def log_state(self, g: BlastOffGame, st: BlastOffState, direct: Any) -> FastPublicLog: ...
