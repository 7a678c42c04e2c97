"""Train MaskablePPO (sb3-contrib, CPU) on 2-player Shooting Star against the random bot.

    .venv/bin/pip install -e '.[rl-train]'
    nice .venv/bin/python examples/train_shooting_star.py                 # the full run (~10-15 min CPU)
    .venv/bin/python examples/train_shooting_star.py --smoke --out /tmp/x  # a tiny run (CI)

The agent sits at a random seat each game (``seat="random"``); the opponent is ``random``. Every
``--eval-every`` steps the current policy plays ``--curve-games`` evaluation games; the learning
curve (training reward and evaluation win rate) goes to ``learning_curve.png``. At the end the
policy plays ``--eval-games`` fresh games (seeds never used in training) and the script prints,
and writes to ``result.json``, its win rate with a 95% Wilson interval. A draw (a shared win,
SHS-14.6) is not a win. The untrained random bot's own win rate against random is measured the
same way, as the baseline.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from cosmodeck.rl import gym_env
from cosmodeck.rl.gym_env import CosmodeckGym
from cosmodeck.sim.stats import wilson

GAME = "shooting-star"
EVAL_SEED_BASE = 10_000_000  # evaluation seeds are far from the training seeds


class VectorObs(gymnasium.ObservationWrapper[np.ndarray[Any, Any], np.int64, dict[str, Any]]):
    """Hands the policy the ``observation`` vector; the mask goes through ``action_masks()``."""

    def __init__(self, env: CosmodeckGym) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> np.ndarray[Any, Any]:
        return np.asarray(observation["observation"])

    def action_masks(self) -> np.ndarray[Any, Any]:
        inner = self.env.unwrapped
        assert isinstance(inner, CosmodeckGym)
        return inner.action_masks()


def make_env(seed: int) -> gymnasium.Env[Any, Any]:
    env = VectorObs(gym_env(GAME, players=2, opponents="random", seat="random"))
    env.reset(seed=seed)
    return Monitor(env)


def play(policy: MaskablePPO | None, games: int, seed: int) -> dict[str, int]:
    """Games of the policy (``None``: uniform random legal actions) against the random bot."""
    env = gym_env(GAME, players=2, opponents="random", seat="random")
    rng = np.random.default_rng(seed)
    out = {"wins": 0, "draws": 0, "losses": 0}
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = obs["action_mask"].astype(bool)
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                act, _ = policy.predict(obs["observation"], action_masks=mask, deterministic=True)
                action = int(act)
            obs, reward, term, trunc, _ = env.step(action)
            done = term or trunc
        out["wins" if reward > 0 else "draws" if reward == 0 else "losses"] += 1
    return out


class Curve(BaseCallback):
    """Records training episode rewards and, every ``every`` steps, an evaluation win rate."""

    def __init__(self, every: int, games: int) -> None:
        super().__init__()
        self.every = every
        self.games = games
        self.episodes: list[tuple[int, float]] = []
        self.evals: list[tuple[int, float]] = []
        self.next_eval = 0

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            ep = info.get("episode")
            if ep is not None:
                self.episodes.append((self.num_timesteps, float(ep["r"])))
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.every
            assert isinstance(self.model, MaskablePPO)
            r = play(self.model, self.games, EVAL_SEED_BASE // 2 + self.num_timesteps)
            self.evals.append((self.num_timesteps, r["wins"] / self.games))
            if self.verbose:
                print(f"  step {self.num_timesteps}: eval win rate {r['wins'] / self.games:.2f}", flush=True)
        return True


def plot(curve: Curve, baseline: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if curve.episodes:
        steps = np.array([s for s, _ in curve.episodes])
        wins = np.array([1.0 if r > 0 else 0.0 for _, r in curve.episodes])
        k = max(1, len(wins) // 50)
        smooth = np.convolve(wins, np.ones(k) / k, mode="valid")
        ax.plot(steps[k - 1:], smooth, lw=1, alpha=0.6, label=f"training win rate (moving mean of {k} games)")
    if curve.evals:
        ax.plot([s for s, _ in curve.evals], [w for _, w in curve.evals], "o-", label="evaluation win rate")
    ax.axhline(baseline, color="grey", ls="--", label=f"random vs random ({baseline:.2f})")
    ax.set_xlabel("environment steps (agent decisions)")
    ax.set_ylabel("win rate vs the random bot")
    ax.set_ylim(0, 1)
    ax.set_title("MaskablePPO on 2-player Shooting Star")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="a tiny run that checks the pipeline (CI)")
    ap.add_argument("--timesteps", type=int, default=400_000)
    ap.add_argument("--eval-games", type=int, default=500)
    ap.add_argument("--eval-every", type=int, default=25_000)
    ap.add_argument("--curve-games", type=int, default=100)
    ap.add_argument("--envs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = ap.parse_args(argv)
    if args.smoke:
        args.timesteps, args.eval_games, args.eval_every, args.curve_games, args.envs = 256, 10, 256, 4, 2
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    venv = DummyVecEnv([lambda i=i: make_env(args.seed * 1000 + i) for i in range(args.envs)])
    n_steps = 64 if args.smoke else 512
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=64 if args.smoke else 256, n_epochs=4,
                        learning_rate=3e-4, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, device="cpu", verbose=0)
    curve = Curve(args.eval_every, args.curve_games)
    curve.verbose = 0 if args.smoke else 1
    model.learn(total_timesteps=args.timesteps, callback=curve)
    train_s = time.perf_counter() - t0
    final = play(model, args.eval_games, EVAL_SEED_BASE)
    base = play(None, args.eval_games, EVAL_SEED_BASE)
    n = args.eval_games
    lo, hi = wilson(final["wins"], n)
    blo, bhi = wilson(base["wins"], n)
    result = {
        "game": GAME, "players": 2, "opponent": "random", "timesteps": args.timesteps, "train_seconds": train_s,
        "eval_games": n, "agent": final, "agent_win_rate": final["wins"] / n, "agent_win_ci95": [lo, hi],
        "random_baseline": base, "random_win_rate": base["wins"] / n, "random_win_ci95": [blo, bhi],
        "curve": {"evals": curve.evals},
    }
    plot(curve, base["wins"] / n, args.out / "learning_curve.png")
    (args.out / "result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if not args.smoke:
        model.save(args.out / "maskable_ppo_shooting_star")
    print(f"trained {args.timesteps} steps in {train_s:.0f} s")
    print(f"agent vs random: {final['wins']}/{n} wins ({final['draws']} draws) = {final['wins'] / n:.3f}, "
          f"95% Wilson [{lo:.3f}, {hi:.3f}]")
    print(f"random vs random: {base['wins']}/{n} = {base['wins'] / n:.3f}, 95% Wilson [{blo:.3f}, {bhi:.3f}]")
    return result


if __name__ == "__main__":
    main()
