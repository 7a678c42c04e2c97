"""Learning aids for Meteor, whose only reward (the team's win or loss) random play never reaches.

Both are environment options, off by default, documented in docs/rl.md:

- ``meteors=K`` (curriculum): the game is played with K meteors in the starting field instead of the
  Set-Up Chart's count for the player count. The environment builds that game from the card data with
  the chart's ``meteors`` changed, and keeps the observation layout and action catalog of the full game
  (built from the unchanged data), so a policy trained on a small field plays the full game as it is.
  Meteor's own ``first_game=True`` (meteors face up, free talk) is the other step of a curriculum.
- ``shaping=W`` (reward shaping): every step pays ``W * (progress after - progress before)``, where
  progress is the share of the meteors that have been in the field that are destroyed (removed),
  read from the spectator's view (public information). It is potential-based (Ng, Harada and Russell
  1999): over an episode the shaped rewards add up to ``W`` times the final progress, and with
  ``gamma=1`` the policies that maximise the win reward are unchanged. The end-of-game reward
  (+1 / -1) is paid as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cosmodeck.api import default_data
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.options import TextInput

MAX_SHAPING = 10.0


def curriculum_data(players: int, meteors: object) -> TextInput:
    """Meteor's default card data with ``meteors`` in the starting field at ``players`` players."""
    if isinstance(meteors, bool) or not isinstance(meteors, int) or meteors < 1:
        raise OptionError(f"option 'meteors': {meteors!r} must be a positive number of meteors")
    base = default_data("meteor")
    doc = json.loads(base.text)
    row = doc["setup_chart"][str(players)]
    if meteors > row["meteors"]:
        raise OptionError(f"option 'meteors': at most {row['meteors']} at {players} players (the Set-Up Chart's count)")
    row["meteors"] = meteors
    return TextInput(f"{base.source} (curriculum: {meteors} meteors at {players} players)", json.dumps(doc))


def shaping_weight(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_SHAPING:
        raise OptionError(f"option 'shaping': {value!r} must be a number in [0, {MAX_SHAPING:g}]")
    return float(value)


def progress(view: Mapping[str, Any]) -> float:
    """Share of the meteors that have been in the field that are now destroyed (removed)."""
    removed = len(view["removed"])
    seen = removed + len(view["field"])
    return removed / seen if seen else 0.0
