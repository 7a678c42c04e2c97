"""The Meteor bots decide exactly as before their speed-up (issue 15): seeded games, identical records.

``tests/fixtures/meteor_bot_records.json`` holds, per seeded game, the SHA-256 of its full record
(every action with its game time and seat, the result), its decision count and its result. It was
written by this module's ``--write`` mode run on the code *before* the speed-up (main at de224c5); the
team bot's games and views were written again on purpose when its decisions changed (session 22: Boss
volleys, Powers, the Overkill cost), the heuristic and random games are still those of de224c5:

    PYTHONPATH=<main's tree>/src python tests/bots/test_meteor_bot_speed_identical.py --write

Each game is played as the simulator plays it (``sim.runner.play_game`` with ``bot_rng(seed)``), with
the heuristic bot, the team bot and random bots (random bots pick ``legal[i]``, so they also prove that
the legal actions keep their order), at several player counts, difficulties (Powers, Challenges, Boss
meteors) and first-game rules.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "meteor_bot_records.json"

# (bots, players, options, seeds)
CASES: list[tuple[str, int, dict[str, Any], tuple[int, ...]]] = [
    ("heuristic", 4, {}, (0, 1, 2, 3, 4, 5)),
    ("team", 4, {}, (0, 1, 2, 3, 4, 5)),
    ("heuristic", 2, {}, (10, 11)),
    ("heuristic", 3, {"difficulty": "advanced"}, (20, 21, 22)),
    ("team", 3, {"difficulty": "advanced"}, (20, 21, 22, 23)),
    ("team", 4, {"difficulty": "expert"}, (30, 31, 32, 33)),
    ("heuristic", 5, {"difficulty": "expert"}, (40, 41)),
    ("team", 1, {}, (50,)),
    ("team", 2, {"first_game": True}, (60, 61)),
    ("heuristic,team,random,team", 4, {"difficulty": "advanced"}, (70, 71)),
    ("random", 4, {"difficulty": "advanced"}, (80,)),
]


def _key(bots: str, players: int, options: dict[str, Any], seed: int) -> str:
    return f"{bots}|{players}|{json.dumps(options, sort_keys=True)}|{seed}"


def play(bots: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.sim.runner import bot_rng, play_game

    game = load_game("meteor", **options)
    state = game.new_game(players=players, seed=seed)
    decisions = play_game(state, make_bots("meteor", bots, players, game), bot_rng(seed), 100_000)
    record = json.dumps(state.record(), sort_keys=True, default=str)
    result = state.result
    assert result is not None
    return {"sha256": hashlib.sha256(record.encode()).hexdigest(), "decisions": decisions,
            "result": json.loads(json.dumps(result.to_dict(), default=str))}


# games whose every view (each seat and a spectator, after every action and timer step) is hashed
VIEW_CASES: list[tuple[str, int, dict[str, Any], tuple[int, ...]]] = [
    ("team", 4, {"difficulty": "expert"}, (90, 91)),
    ("team", 3, {"first_game": True}, (92,)),
    ("heuristic,team,random", 3, {"difficulty": "advanced"}, (93,)),
]


def play_views(bots: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The SHA-256 of every view's JSON (key order included) along a seeded game, and how many."""
    from cosmodeck.api import load_game
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.engine.events import Event
    from cosmodeck.sim.runner import bot_rng, play_game

    game = load_game("meteor", **options)
    state = game.new_game(players=players, seed=seed)
    digest = hashlib.sha256()
    count = 0

    def sink(seat: int | None, events: list[Event]) -> None:
        nonlocal count
        for s in [*range(players), None]:
            digest.update(json.dumps(state.view(s), default=str).encode())
            count += 1

    play_game(state, make_bots("meteor", bots, players, game), bot_rng(seed), 100_000, sink)
    return {"sha256": digest.hexdigest(), "views": count}


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


ALL = [(b, n, o, s) for b, n, o, seeds in CASES for s in seeds]


@pytest.mark.parametrize(("bots", "players", "options", "seed"), ALL,
                         ids=[_key(*c).replace(" ", "") for c in ALL])
def test_meteor_bots_play_the_same_records(bots: str, players: int, options: dict[str, Any], seed: int) -> None:
    want = _golden()["games"][_key(bots, players, options, seed)]
    got = play(bots, players, options, seed)
    assert got["decisions"] == want["decisions"]
    assert got["result"] == want["result"]
    assert got["sha256"] == want["sha256"]


VIEWS = [(b, n, o, s) for b, n, o, seeds in VIEW_CASES for s in seeds]


@pytest.mark.parametrize(("bots", "players", "options", "seed"), VIEWS,
                         ids=[_key(*c).replace(" ", "") for c in VIEWS])
def test_meteor_views_are_the_same_along_seeded_games(bots: str, players: int, options: dict[str, Any],
                                                      seed: int) -> None:
    want = _golden()["views"][_key(bots, players, options, seed)]
    got = play_views(bots, players, options, seed)
    assert got == want
    assert got["views"] > 100


def test_the_fixture_covers_every_case_and_real_games() -> None:
    games = _golden()["games"]
    assert set(games) == {_key(*c) for c in ALL}
    assert any(g["result"]["team_win"] for g in games.values())  # wins and losses, real games
    assert any(not g["result"]["team_win"] for g in games.values())
    assert min(g["decisions"] for g in games.values()) > 10


def _write() -> None:
    games = {_key(*c): play(*c) for c in ALL}
    views = {_key(*c): play_views(*c) for c in VIEWS}
    FIXTURE.write_text(json.dumps({"note": __doc__.split("\n\n")[1].strip(), "games": games, "views": views},
                                  indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(games)} games to {FIXTURE}")


if __name__ == "__main__" and "--write" in sys.argv:
    _write()


def _choose(pairs: list[tuple[int, float]], seed: int) -> tuple[int | None, float]:
    """``MeteorHeuristic.act``'s choice loop; returns the pick and the generator's next draw."""
    from cosmodeck.engine.rng import Rng

    rng = Rng(seed)
    best, best_v = None, 0.0
    for a, v in pairs:
        if v > best_v + 1e-9 or (abs(v - best_v) < 1e-9 and best is not None and rng.random() < 0.5):
            best, best_v = a, v
    return best, rng.random()


def test_the_choice_loop_over_useful_pairs_picks_and_draws_as_over_all() -> None:
    from cosmodeck.bots.heuristic.meteor import useful
    from cosmodeck.engine.rng import Rng

    rng = Rng(5)
    pool = [0.0, 0.0, 0.0, -3.0, -0.5, 0.5, 1.0, 1.0, 2.5, 4.0, 1e-10, 5e-9, -2e-9, 1.0 + 5e-10]
    trimmed = 0
    for trial in range(3000):
        values = [pool[rng.randbelow(len(pool) if trial % 3 == 0 else 10)] for _ in range(1 + rng.randbelow(30))]
        legal = list(range(len(values)))
        kept = useful(legal, values)
        trimmed += len(kept) < len(values)
        assert _choose(kept, trial) == _choose(list(zip(legal, values, strict=True)), trial)
    assert trimmed > 1000  # the filter does leave pairs out
