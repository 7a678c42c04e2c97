"""The Blast Off! heuristic's compiled decision (``bots/heuristic/blast_off_fast.pyx``) decides exactly as the
readable one (``BlastOffHeuristic.act_readable``): seeded games played both ways give the same records (every
action, every time), decision counts, tracker restarts and self-check mismatches, in both timings, at 2-6
players, with both catchers and memories, the referee, authored missions and mixed tables."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.heuristic import blast_off as heuristic
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.rng import Rng
from cosmodeck.sim.runner import bot_rng, play_game

STEPS = {"timing": "steps"}
CASES: list[tuple[str, int, dict[str, Any], range]] = [
    ("heuristic", 4, STEPS, range(20)),
    ("heuristic", 2, STEPS, range(20)),
    ("heuristic", 6, STEPS, range(8)),
    ("heuristic:p_forget=0.5;p_catch=0.9", 3, STEPS, range(15)),
    ("heuristic:catching=guess", 4, STEPS, range(8)),
    ("heuristic:memory=flat", 3, {**STEPS, "mission_enforcement": "referee", "play_for_places": True}, range(8)),
    ("heuristic", 4, {**STEPS, "custom_missions": True, "mission_out_of_control": True}, range(8)),
    ("heuristic:p_forget=0.5;p_catch=0.9", 3, {}, range(15)),
    ("heuristic,random,heuristic", 3, {}, range(6)),
]


def _play(bots: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = load_game("blast-off", **options)
    state = game.new_game(players=players, seed=seed)
    seats = make_bots("blast-off", bots, players, game)
    decisions = play_game(state, seats, bot_rng(seed), 100_000)
    return {"record": json.dumps(state.record(), sort_keys=True, default=str), "decisions": decisions,
            "resyncs": [getattr(b, "resyncs", None) for b in seats],
            "mismatches": [getattr(b, "mismatches", None) for b in seats]}


def test_the_compiled_decision_is_built_and_used() -> None:
    fast = importlib.import_module("cosmodeck.bots.heuristic.blast_off_fast")
    assert fast.__file__ is not None and not fast.__file__.endswith((".py", ".pyx"))
    assert heuristic._ACT is fast.act


@pytest.mark.parametrize(("bots", "players", "options", "seeds"), CASES,
                         ids=[f"{b}-{n}-{'-'.join(map(str, o.values()))}" for b, n, o, _ in CASES])
def test_the_compiled_decision_plays_the_readable_games(bots: str, players: int, options: dict[str, Any],
                                                       seeds: range, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = [_play(bots, players, options, seed) for seed in seeds]
    monkeypatch.setattr(heuristic, "_ACT", None)
    readable = [_play(bots, players, options, seed) for seed in seeds]
    assert compiled == readable
    assert sum(g["decisions"] for g in compiled) > 10 * len(seeds)


def test_the_compared_games_catch_and_announce() -> None:
    """The cases above reach the evidence catches and the announcements."""
    games = [_play(b, n, o, seed) for b, n, o, seeds in CASES for seed in seeds]
    text = "".join(g["record"] for g in games)
    assert text.count('"catch ') > 5 and text.count('"announce ') > 20


@pytest.mark.parametrize("options", [STEPS, {}], ids=["steps", "realtime"])
def test_the_compiled_decision_equals_the_readable_one_look_by_look(options: dict[str, Any]) -> None:
    """Two bots, compiled and readable, look at the same views of games played at random (every step, or
    every 7th or 25th: events missed, so their trackers restart), and one game after another (a new game's
    clock restarts theirs): the same answers, draws, restarts, mismatches and tracker contents."""
    game = load_game("blast-off", **options)
    compiled = heuristic.BlastOffHeuristic(game, p_forget=0.5, p_catch=0.9)
    readable = heuristic.BlastOffHeuristic(game, p_forget=0.5, p_catch=0.9)
    looks = 0
    for every in (1, 7, 25):
        rc, rr = Rng(every), Rng(every)
        for seed in range(4):
            st = game.new_game(players=4, seed=seed)
            rng = Rng(seed + 50)
            step = 0
            while not st.is_over:
                acting = sorted(st.to_act)
                if step % every == 0 and acting:
                    seat = acting[step // every % len(acting)]
                    view, legal = st.view(seat), st.legal_actions(seat)
                    assert compiled.act(view, legal, rc) == readable.act_readable(view, legal, rr), (every, seed, step)
                    assert rc.state == rr.state
                    assert (compiled.resyncs, compiled.mismatches, compiled._log_seen, compiled._decided) == (
                        readable.resyncs, readable.mismatches, readable._log_seen, readable._decided)
                    tc, tr = compiled._tracker, readable._tracker
                    assert (tc is None) == (tr is None) and (tc is None or tc.snapshot() == tr.snapshot())
                    looks += 1
                step += 1
                d = st.next_deadline()
                if not acting or (d is not None and rng.randbelow(3) == 0):
                    assert d is not None
                    st.advance(d)
                    continue
                seat = acting[rng.randbelow(len(acting))]
                legal = st.legal_actions(seat)
                st.apply(seat, legal[rng.randbelow(len(legal))])
    assert looks > 200 and compiled.resyncs > 5


def test_a_subclass_decides_with_the_readable_code() -> None:
    """A subclass may override any method the decision calls: it never runs the compiled copy."""
    calls: list[str] = []

    class Counting(heuristic.BlastOffHeuristic):
        def act_readable(self, view: Any, legal: Any, rng: Rng) -> Any:
            calls.append("readable")
            return super().act_readable(view, legal, rng)

    game = load_game("blast-off", **STEPS)
    state = game.new_game(players=2, seed=3)
    decisions = play_game(state, [Counting(game), Counting(game)], bot_rng(3), 100_000)
    assert decisions > 0 and len(calls) == decisions
