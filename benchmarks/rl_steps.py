"""RL environment steps per second: cosmodeck's environments next to RLCard's UNO, in one run.

Every environment is driven the same way: uniform random *legal* actions (one ``rng.integers`` draw
into the legal list: the mask's ``flatnonzero``, or RLCard's ``legal_actions``) from reset to the end of
the game, over and over, for ``--seconds`` each. A step is one agent decision, and each step builds the acting agent's
observation (vector + mask), as a training loop would need it.

- ``aec``: ``cosmodeck.rl.aec_env`` (PettingZoo AEC), every seat played by the random policy;
- ``parallel``: ``cosmodeck.rl.parallel_env`` (PettingZoo Parallel), every seat of the round submits at
  once; the steps counted are the decisions (seats with a non-empty mask), all seats' observations built;
- ``gym``: ``cosmodeck.rl.gym_env`` (Gymnasium) against ``random`` bots; one step = the agent's
  decision plus the bots' moves until its next one (only the agent's steps are counted);
- ``vector64``: ``cosmodeck.rl.vector_env`` with 64 sub-environments against ``random`` bots; a step
  of the batch counts 64 agent steps (episodes: games that ended); the 64 actions are drawn at once
  from the batched masks (``sample_rows``), as a batched policy would;
- ``rlcard uno``: ``rlcard.make("uno")`` (2 players, RLCard's only UNO), ``env.step`` per decision;
- ``engine`` (only with ``--engine``, turn-based games): the rules engine alone, no environment: ``new_game``,
  then per decision the seat's ``legal_actions`` list, one ``rng.integers`` draw into it and ``apply``
  (no observation, no mask). Every environment row pays this work too, so it bounds what any environment
  layer over this engine can reach.

    .venv/bin/python benchmarks/rl_steps.py --seconds 3 --repeat 3   # a Markdown table
    .venv/bin/python benchmarks/rl_steps.py --json

Real-time games (Meteor) run at ``step_s=1`` (one decision per seat per game second, ``wait``
included). Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Runner = Callable[[float], tuple[int, int, float]]  # seconds -> (episodes, steps, elapsed)
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = [time.process_time]


def clock() -> float:
    """The clock every measurement reads (``--clock``): this process's CPU time by default, which
    another process's load on a shared machine disturbs far less than wall time."""
    return _clock[0]()

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("shooting-star", 2, {}),
    ("shooting-star", 5, {}),
    ("blast-off", 2, {}),
    ("blast-off", 4, {}),
    ("meteor", 2, {"step_s": 1.0}),
    ("meteor", 4, {"step_s": 1.0}),
]


def pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    """A uniform legal index of a mask: the legal list, then one ``rng.integers`` draw (as the RLCard row
    draws from its ``legal_actions``; ``rng.choice`` would add about 10 us per step to every row but RLCard's)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def bench_aec(game_id: str, players: int, options: dict[str, Any]) -> Runner:
    from cosmodeck.rl import aec_env

    env = aec_env(game_id, players=players, **options)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            env.reset(seed=episodes)
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(pick(obs["action_mask"], rng))
                steps += 1
            episodes += 1
        return episodes, steps, clock() - t0

    return run


def bench_parallel(game_id: str, players: int, options: dict[str, Any]) -> Runner:
    from cosmodeck.rl import parallel_env

    env = parallel_env(game_id, players=players, **options)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            obs, _ = env.reset(seed=episodes)
            while env.agents:
                actions = {}
                for agent, o in obs.items():
                    if o["action_mask"].any():
                        actions[agent] = pick(o["action_mask"], rng)
                obs, *_ = env.step(actions)
                steps += len(actions)
            episodes += 1
        return episodes, steps, clock() - t0

    return run


def sample_rows(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One uniform legal index per row of a ``(K, actions)`` boolean mask, drawn for all rows at once."""
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return np.asarray(keys.argmax(axis=1))


def bench_gym(game_id: str, players: int, options: dict[str, Any]) -> Runner:
    from cosmodeck.rl import gym_env

    env = gym_env(game_id, players=players, opponents="random", **options)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            obs, _ = env.reset(seed=episodes)
            done = False
            while not done:
                obs, _, term, trunc, _ = env.step(pick(obs["action_mask"], rng))
                done = term or trunc
                steps += 1
            episodes += 1
        return episodes, steps, clock() - t0

    return run


def bench_vector(game_id: str, players: int, options: dict[str, Any], k: int = 64) -> Runner:
    from cosmodeck.rl import vector_env

    env = vector_env(game_id, players=players, num_envs=k, opponents="random", **options)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        env.reset(seed=0)
        t0 = clock()
        while clock() - t0 < seconds:
            _, _, term, trunc, _ = env.step(sample_rows(env.action_masks(), rng))
            episodes += int((term | trunc).sum())
            steps += k
        return episodes, steps, clock() - t0

    return run


def bench_engine(game_id: str, players: int, options: dict[str, Any]) -> Runner:
    from cosmodeck.rl.table import Table

    game = Table(game_id, players, options).game  # (the environments' game definition and defaults)

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            st = game.new_game(players=players, seed=episodes)
            while not st.is_over:
                to_act = st.to_act
                if not to_act:  # (a timer to run out first, as ``Table`` does)
                    deadline = st.next_deadline()
                    if deadline is None:
                        break
                    st.advance(deadline)
                    continue
                seat = min(to_act)
                legal = st.legal_actions(seat)
                st.apply(seat, legal[int(rng.integers(len(legal)))])
                steps += 1
            episodes += 1
        return episodes, steps, clock() - t0

    return run


def bench_rlcard_uno() -> Runner:
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})

    def run(seconds: float) -> tuple[int, int, float]:
        rng = np.random.default_rng(0)
        episodes = steps = 0
        t0 = clock()
        while clock() - t0 < seconds:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(rng.integers(len(legal)))])
                steps += 1
            episodes += 1
        return episodes, steps, clock() - t0

    return run


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure everything this many times, interleaved, and keep each row's median "
                         "(steadier on a shared machine)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                    help="cpu: this process's CPU time (default; steadier on a shared machine); wall: elapsed time")
    ap.add_argument("--players", type=int, action="append",
                    help="measure only these player counts (repeatable; default: every case)")
    ap.add_argument("--game", action="append",
                    help="measure only these games (repeatable: shooting-star, blast-off, meteor; default: every game)")
    ap.add_argument("--engine", action="store_true",
                    help="also measure each turn-based game's rules engine alone (the 'engine' rows: no environment)")
    args = ap.parse_args(argv)
    _clock[0] = CLOCKS[args.clock]
    from cosmodeck.rl.table import Table

    plan: list[tuple[str, str, int, Runner, int | None, int | None]] = []
    try:
        import rlcard

        uno = rlcard.make("uno")
        plan.append(("rlcard uno", "env", 2, bench_rlcard_uno(), int(np.prod(uno.state_shape[0])), uno.num_actions))
    except ImportError:
        if not args.json:
            print("rlcard uno: not installed (pip install rlcard); not measured")
    for game_id, players, opts in CASES:
        if (args.players and players not in args.players) or (args.game and game_id not in args.game):
            continue
        table = Table(game_id, players, opts)
        enc = table.encoder
        if args.engine and not table.real_time:
            plan.append((game_id, "engine", players, bench_engine(game_id, players, opts), None, None))
        plan.append((game_id, "aec", players, bench_aec(game_id, players, opts), enc.obs_size, enc.num_actions))
        if players == 2:
            plan.append((game_id, "parallel", players, bench_parallel(game_id, players, opts), enc.obs_size,
                         enc.num_actions))
        plan.append((game_id, "gym", players, bench_gym(game_id, players, opts), enc.obs_size, enc.num_actions))
        if players == 2:
            plan.append((game_id, "vector64", players, bench_vector(game_id, players, opts), enc.obs_size,
                         enc.num_actions))
    samples: list[list[tuple[int, int, float]]] = [[] for _ in plan]
    for _ in range(max(1, args.repeat)):
        for i, (_, _, _, runner, _, _) in enumerate(plan):
            runner(min(0.5, args.seconds / 5))  # warm-up
            samples[i].append(runner(args.seconds))
    rows: list[dict[str, Any]] = []
    for (name, api, players, _, obs, acts), runs in zip(plan, samples, strict=True):
        episodes, steps, elapsed = sorted(runs, key=lambda r: r[1] / r[2])[len(runs) // 2]
        rows.append({"env": name, "api": api, "players": players, "steps_per_s": steps / elapsed,
                     "episodes_per_s": episodes / elapsed, "steps_per_episode": steps / max(1, episodes),
                     "obs_size": obs, "actions": acts})
    base = next((r["steps_per_s"] for r in rows if r["env"] == "rlcard uno"), None)
    for r in rows:
        r["vs_rlcard_uno"] = None if base is None else r["steps_per_s"] / base
    if args.json:
        print(json.dumps({"python": platform.python_version(), "seconds": args.seconds, "repeat": args.repeat,
                          "clock": args.clock,
                          "results": rows}, indent=1))
        return rows
    print("| env | api | players | steps/s | x RLCard UNO | episodes/s | steps/episode | obs | actions |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "" if r["vs_rlcard_uno"] is None else f"{r['vs_rlcard_uno']:.3f}"
        sizes = f"{r['obs_size'] or ''} | {r['actions'] or ''}"  # (none for an engine row)
        print(f"| {r['env']} | {r['api']} | {r['players']} | {r['steps_per_s']:.0f} | {ratio} | "
              f"{r['episodes_per_s']:.1f} | {r['steps_per_episode']:.1f} | {sizes} |")
    return rows


if __name__ == "__main__":
    main()
