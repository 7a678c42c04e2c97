"""``--report DIR``: an HTML page with matplotlib plots, plus the raw numbers as JSON and CSV.

Written for simulate, compare and tournament. The page is static (PNG images next to it),
so it opens in any browser and can be attached to an issue as a folder.
"""

from __future__ import annotations

from cosmodeck.sim.report.compare import compare_report
from cosmodeck.sim.report.simulate import outcome_rows, simulate_report
from cosmodeck.sim.report.tournament import tournament_report

__all__ = ["compare_report", "outcome_rows", "simulate_report", "tournament_report"]
