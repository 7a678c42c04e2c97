"""Issue 14's done-when: ``compare`` finds a one-card and a one-mission change, on the default bots.

The data files under ``tests/sim/data`` are the default data with one change each:
- ``shooting_star_p8_two_cells.json``: Destruction card P8 hits two cells (``[0,-1]`` and ``[0,1]``)
  instead of one;
- ``blast_off_m05_actor_only.json``: mission M05 ("Roger") obliges only the player of the 5, not
  every other player.

Measured (seed 0): P8's hits per game are significant after Holm's correction over every unit
from 150 paired 2-player games; M05's obligations per game (0.087 -> 0.026, p 3e-5) at 1,000 paired
4-player games (p 2e-5 to 9e-5 on seeds 0-2), because a mission comes into force only at a completed
countdown (about once a game), and M05 in about 5% of games.
"""

from __future__ import annotations

from pathlib import Path

from cosmodeck.api import read_input
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.compare import compare, with_variant

DATA = Path(__file__).parent / "data"


def _significant_ids(r: dict[str, object]) -> set[str]:
    return {u["id"] for u in r["units"] if u["significant"]}  # type: ignore[attr-defined, index]


def test_compare_finds_p8_hitting_two_cells() -> None:
    base = SimSpec("shooting-star", 2, 200, seed=0, bots="heuristic")
    r = compare(base, with_variant(base, data=read_input(DATA / "shooting_star_p8_two_cells.json")))
    assert "P8" in _significant_ids(r)
    hits = next(u for u in r["units"] if u["id"] == "P8" and u["measure"] == "hits per game")
    assert hits["significant"] and hits["diff"] > 0 and hits["ci95"][0] > 0 and hits["p"] < 0.001


def test_compare_finds_m05_obliging_only_the_player() -> None:
    base = SimSpec("blast-off", 4, 1000, seed=0, bots="heuristic")
    r = compare(base, with_variant(base, data=read_input(DATA / "blast_off_m05_actor_only.json")), workers=2)
    assert "M05" in _significant_ids(r)
    owed = next(u for u in r["units"] if u["id"] == "M05" and u["measure"] == "obligations per game")
    assert owed["significant"] and owed["diff"] < 0 and owed["ci95"][1] < 0
    # every other mission is revealed exactly as often: the seeds, deals and countdowns are the same
    revealed = [u for u in r["units"] if u["unit"] == "mission" and u["measure"] == "revealed per game"]
    assert revealed and all(not u["significant"] for u in revealed)
