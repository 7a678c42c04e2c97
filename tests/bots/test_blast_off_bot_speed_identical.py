"""The Blast Off! heuristic decides exactly as before its speed-up (issue 15): seeded games, identical records.

``tests/fixtures/blast_off_bot_records.json`` holds, per seeded game, the SHA-256 of its full record, its
decision count and how often the bots' public-log trackers restarted (``resyncs``, ``mismatches``: the
log self-check). It was written by this module's ``--write`` mode on the code *before* the speed-up
(main at 9c7a1f8):

    PYTHONPATH=<main's tree>/src python tests/bots/test_blast_off_bot_speed_identical.py --write

Each game is played as the simulator plays it (``sim.runner.play_game`` with ``bot_rng(seed)``), in both
timings, at several player counts, with the evidence and guessing catchers, both memories, and the
referee, assist, custom-mission and play-for-places options.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "blast_off_bot_records.json"

STEPS = {"timing": "steps"}
# (bots, players, options, seeds)
CASES: list[tuple[str, int, dict[str, Any], tuple[int, ...]]] = [
    ("heuristic", 4, STEPS, (0, 1, 2, 3)),
    ("heuristic", 2, STEPS, (4, 5)),
    ("heuristic", 6, STEPS, (6,)),
    ("heuristic", 3, {**STEPS, "mission_enforcement": "referee"}, (7, 8)),
    ("heuristic", 4, {**STEPS, "mission_enforcement": "assist", "voluntary_draw": True, "drawn_card_play": "may"},
     (9,)),
    ("heuristic", 4, {**STEPS, "play_for_places": True, "mission_out_of_control": True, "custom_missions": True},
     (10, 11)),
    ("heuristic:catching=guess", 4, STEPS, (12,)),
    ("heuristic:memory=flat;p_catch=0.9", 3, STEPS, (13,)),
    ("heuristic", 4, {}, (20, 21, 22)),
    ("heuristic", 2, {}, (23,)),
    ("heuristic:p_catch=0.9", 5, {"mission_enforcement": "referee", "play_for_places": True}, (24, 25)),
    ("heuristic,random,heuristic", 3, {}, (26,)),
]


def _key(bots: str, players: int, options: dict[str, Any], seed: int) -> str:
    return f"{bots}|{players}|{json.dumps(options, sort_keys=True)}|{seed}"


def play(bots: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.sim.runner import bot_rng, play_game

    game = load_game("blast-off", **options)
    state = game.new_game(players=players, seed=seed)
    seats = make_bots("blast-off", bots, players, game)
    decisions = play_game(state, seats, bot_rng(seed), 100_000)
    record = json.dumps(state.record(), sort_keys=True, default=str)
    return {"sha256": hashlib.sha256(record.encode()).hexdigest(), "decisions": decisions,
            "resyncs": sum(getattr(b, "resyncs", 0) for b in seats),
            "mismatches": sum(getattr(b, "mismatches", 0) for b in seats)}


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


ALL = [(b, n, o, s) for b, n, o, seeds in CASES for s in seeds]


@pytest.mark.parametrize(("bots", "players", "options", "seed"), ALL,
                         ids=[_key(*c).replace(" ", "") for c in ALL])
def test_blast_off_bots_play_the_same_records(bots: str, players: int, options: dict[str, Any], seed: int) -> None:
    assert play(bots, players, options, seed) == _golden()["games"][_key(bots, players, options, seed)]


def test_the_fixture_covers_every_case_and_real_games() -> None:
    games = _golden()["games"]
    assert set(games) == {_key(*c) for c in ALL}
    assert min(g["decisions"] for g in games.values()) > 10


def test_the_log_self_check_is_the_multiset_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_agrees`` (counted by hand, early exit) is ``not Counter(derived) - Counter(view's)`` at every look; so is
    the compiled decision's copy (``blast_off_fast.agrees``). The games run the readable decision (which calls
    ``_agrees``)."""
    from collections import Counter

    from cosmodeck.bots.heuristic import blast_off, blast_off_fast
    from cosmodeck.bots.heuristic.blast_off import BlastOffHeuristic

    monkeypatch.setattr(blast_off, "_ACT", None)

    fast = BlastOffHeuristic._agrees
    looks = [0, 0]

    def both(view: Any, seat: int, tr: Any) -> bool:
        mine = Counter((o["mission"], o.get("expect"), o.get("deadline"), o.get("due_step"))
                       for o in view.get("obligations") or ())
        derived = Counter((o.mission, o.expect, o.deadline if tr.rt else None, None if tr.rt else o.due)
                          for o in tr.owed(seat))
        got = fast(view, seat, tr)
        assert got == (not derived - mine) == blast_off_fast.agrees(view, seat, tr)
        looks[0] += 1
        looks[1] += bool(derived)
        return got

    monkeypatch.setattr(BlastOffHeuristic, "_agrees", staticmethod(both))
    for case in ALL:
        play(*case)
    assert looks[0] > 1000 and looks[1] > 10


def _write() -> None:
    games = {_key(*c): play(*c) for c in ALL}
    FIXTURE.write_text(json.dumps({"note": __doc__.split("\n\n")[1].strip(), "games": games},
                                  indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(games)} games to {FIXTURE}")


if __name__ == "__main__" and "--write" in sys.argv:
    _write()
