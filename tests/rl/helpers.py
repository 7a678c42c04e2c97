"""Random play through a ``Table`` (masked uniform actions), yielding every decision point."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from cosmodeck.rl.table import Table


def random_decisions(game_id: str, players: int, opts: dict[str, Any], games: int, seed: int = 0,
                     max_steps: int = 3000) -> Iterator[tuple[Table, int]]:
    """Yield ``(table, seat)`` before each decision of ``games`` random games (AEC order)."""
    table = Table(game_id, players, opts)
    rng = np.random.default_rng(seed)
    for g in range(games):
        table.reset(seed + g)
        steps = 0
        while table.current is not None and steps < max_steps:
            seat = table.current
            yield table, seat
            mask = table.mask(seat)
            legal = np.flatnonzero(mask)
            assert legal.size, f"seat {seat} must decide but has no legal catalog action"
            assert table.act_index(seat, int(rng.choice(legal)))
            steps += 1


def same(a: Any, b: Any) -> bool:
    """Gymnasium's exact equality of what environments hand out (nested dicts, tuples, arrays)."""
    from gymnasium.utils.env_checker import data_equivalence

    return bool(data_equivalence(a, b, exact=True))


def aec_state(env: Any) -> tuple[Any, ...]:
    """Everything an AEC environment's bookkeeping shows after a step."""
    return (list(env.agents), env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards),
            dict(env.terminations), dict(env.truncations), {a: dict(i) for a, i in env.infos.items()})
