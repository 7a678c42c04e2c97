"""``PublicTracker``: the heuristic's name for the shared public-log replay (``bots/blast_off_log``).

The Blast Off! heuristic follows the view's public log with it to catch on evidence (BLO-12.10);
see ``cosmodeck.bots.blast_off_log`` for what it derives and how.
"""

from cosmodeck.bots.blast_off_log import Obligation, PublicLog, Violation

PublicTracker = PublicLog

__all__ = ["Obligation", "PublicTracker", "Violation"]
