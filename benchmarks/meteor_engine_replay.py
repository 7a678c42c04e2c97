"""Meteor's engine alone, on the calls seeded bot games make of it (issue 15: where the engine's time goes).

    PYTHONPATH=<tree>/src python benchmarks/meteor_engine_replay.py --games 30 --bots heuristic [--profile]

Plays ``--games`` seeded games as the simulator plays them (``sim.runner.play_game``), recording every call
the runner makes of the state that changes or reads it once per change (``apply`` with its action object and
time, ``advance``, then ``to_act``, ``cue``, ``next_deadline`` and the acting seats' ``legal_actions``), then
replays those calls on fresh states, with no bot, for ``--seconds`` of CPU time of this process, and prints
microseconds of engine per decision. ``--profile`` prints cProfile's top functions of the replay.
"""

from __future__ import annotations

import argparse
import cProfile
import time
from typing import Any


class _Recorder:
    """Wraps a state: forwards every attribute, records ``apply`` and ``advance`` calls."""

    def __init__(self, state: Any, calls: list[tuple[Any, ...]]) -> None:
        self.__dict__["_s"] = state
        self.__dict__["_calls"] = calls

    def __getattr__(self, name: str) -> Any:
        return getattr(self._s, name)

    def apply(self, seat: int, action: Any, at: float | None = None) -> Any:
        self._calls.append(("apply", seat, action, at))
        return self._s.apply(seat, action, at=at)

    def advance(self, at: float) -> Any:
        self._calls.append(("advance", at))
        return self._s.advance(at)


def record(game: Any, games: int, bots: str, players: int, seed: int) -> list[tuple[int, int, list[Any]]]:
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.engine.rng import derive_seed
    from cosmodeck.sim.runner import bot_rng, play_game

    out = []
    for i in range(games):
        s = derive_seed(seed, i)
        state = game.new_game(players=players, seed=s)
        calls: list[tuple[Any, ...]] = []
        play_game(_Recorder(state, calls), make_bots("meteor", bots, players, game), bot_rng(s), 100_000)  # type: ignore[arg-type]
        out.append((players, s, calls))
    return out


def replay(game: Any, games: list[tuple[int, int, list[Any]]]) -> int:
    decisions = 0
    for players, seed, calls in games:
        st = game.new_game(players=players, seed=seed)
        for c in calls:
            if c[0] == "apply":
                st.apply(c[1], c[2], at=c[3])
                decisions += 1
            else:
                st.advance(c[1])
            to_act = st.to_act
            st.cue()
            st.next_deadline()
            for seat in to_act:
                st.legal_actions(seat)
    return decisions


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--top", type=int, default=40)
    a = p.parse_args()
    from cosmodeck.api import load_game

    game = load_game("meteor")
    recorded = record(game, a.games, a.bots, a.players, a.seed)
    prof = cProfile.Profile() if a.profile else None
    if prof:
        prof.enable()
    t0 = time.process_time()
    decisions = rounds = 0
    while time.process_time() - t0 < a.seconds or not rounds:
        decisions += replay(game, recorded)
        rounds += 1
    el = time.process_time() - t0
    if prof:
        prof.disable()
    print(f"meteor {a.players}p {a.bots}: {a.games} games x {rounds}, {decisions} decisions, "
          f"{1e6 * el / decisions:.1f} us of engine per decision{' (under cProfile)' if prof else ''}")
    if prof:
        from profile_games import print_profile  # this script's folder is on the path when run as a script

        print_profile(prof, a.top)


if __name__ == "__main__":
    main()
