"""The simulator's real-time loop plays exactly the games of its readable reference (issue 15).

``sim.runner._play_realtime`` computes who may act, the cue and the next deadline once per change of the
state, and does not ask a ``steady`` bot again at a state it already waited at (its reaction time is still
drawn at every look). ``_play_realtime_reference`` recomputes everything and asks every bot at every look.
Both must give the same records, decisions, events and the same position in the bots' random stream.
A longer run is ``_compare`` over more seeds (docs/ENGINE.md, "Speed").
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic
from cosmodeck.bots.heuristic.meteor_team import MeteorTeam
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.events import Event
from cosmodeck.sim.runner import bot_rng, play_game


class SteadyMeteor(MeteorHeuristic):
    """The Meteor heuristic, which declares itself steady (its waiting answer reads only the view and the legal
    list; if it ever reads how long it waited, these cases fail and it may not), counting its asks."""

    steady = True
    asks = 0

    def act(self, view: Any, legal: Any, rng: Any) -> Any:
        type(self).asks += 1
        return super().act(view, legal, rng)


class ViewHasher:
    """A steady bot of any game that depends on no other module's strategy: it acts (``legal[h % n]``) or,
    while the view shows a running clock (else nothing would ever change), waits, by a hash ``h`` of its
    view; so its answer at an unchanged state never changes."""

    name = "view-hasher"
    steady = True

    def __init__(self, odds: int) -> None:
        self.odds = odds

    def act(self, view: Any, legal: Any, rng: Any) -> Any:
        h = zlib.crc32(json.dumps(dict(view), sort_keys=True, default=str).encode())
        clock = view.get("deadline") is not None or bool((view.get("timer") or {}).get("running"))
        if not legal or (clock and h % self.odds):
            return None
        return legal[(h // self.odds) % len(legal)]

    def reaction_time(self, rng: Any) -> float:
        return rng.lognormal(1.0, 0.35)

    def call_reaction_time(self, rng: Any) -> float:
        return 0.2 + rng.lognormal(0.5, 0.3)


def _bots(game_id: str, spec: str, players: int, game: Any) -> list[Any]:
    if spec == "steady":
        return [SteadyMeteor(game) for _ in range(players)]
    if spec == "hasher":
        return [ViewHasher(3 + seat) for seat in range(players)]
    return list(make_bots(game_id, spec, players, game))


def _play(game_id: str, spec: str, players: int, options: dict[str, Any], seed: int,
          reference: bool) -> tuple[str, int, list[str], float]:
    game = load_game(game_id, **options)
    state = game.new_game(players=players, seed=seed)
    events: list[str] = []

    def sink(seat: int | None, evs: list[Event]) -> None:
        events.append(f"{seat} {state.now!r} {[str(e) for e in evs]}")

    rng = bot_rng(seed)
    decisions = play_game(state, _bots(game_id, spec, players, game), rng, 100_000, sink, reference=reference)
    record = json.dumps(state.record(), sort_keys=True, default=str)
    return record, decisions, events, rng.random()


def _compare(game_id: str, spec: str, players: int, options: dict[str, Any], seeds: range) -> int:
    steps = 0
    for seed in seeds:
        fast = _play(game_id, spec, players, options, seed, reference=False)
        ref = _play(game_id, spec, players, options, seed, reference=True)
        assert fast == ref, (game_id, spec, players, options, seed)
        steps += fast[1]
    return steps


CASES: list[tuple[str, str, int, dict[str, Any], range]] = [
    ("meteor", "hasher", 3, {}, range(2)),
    ("blast-off", "hasher", 4, {}, range(3)),
    ("meteor", "steady", 4, {}, range(6)),
    ("meteor", "steady", 3, {"difficulty": "advanced"}, range(3)),
    ("meteor", "heuristic", 4, {}, range(2)),
    ("meteor", "team", 4, {"difficulty": "expert"}, range(2)),
    ("meteor", "heuristic,team,random", 3, {}, range(2)),
    ("meteor", "random", 2, {}, range(2)),
    ("blast-off", "heuristic", 4, {}, range(3)),
    ("blast-off", "random", 3, {}, range(2)),
]


@pytest.mark.parametrize(("game_id", "spec", "players", "options", "seeds"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}p-{json.dumps(c[3])}" for c in CASES])
def test_the_fast_loop_plays_the_reference_games(game_id: str, spec: str, players: int, options: dict[str, Any],
                                                 seeds: range) -> None:
    assert _compare(game_id, spec, players, options, seeds) > 10 * len(seeds)


def test_a_steady_bot_is_asked_less_and_a_subclass_must_say_it_again() -> None:
    from cosmodeck.sim.runner import _steady

    SteadyMeteor.asks = 0
    _play("meteor", "steady", 4, {}, 0, reference=True)
    every_look = SteadyMeteor.asks
    SteadyMeteor.asks = 0
    _play("meteor", "steady", 4, {}, 0, reference=False)
    assert SteadyMeteor.asks * 2 < every_look  # the waits at unchanged states are skipped

    class ReadsTheClock(SteadyMeteor):
        pass

    game = load_game("meteor")
    assert _steady(SteadyMeteor(game))
    assert not _steady(ReadsTheClock(game))  # inherits the attribute, not the promise
    assert _steady(MeteorHeuristic(game))
    assert not _steady(MeteorTeam(game))  # the team bot adds the time it waited to the view's clock
