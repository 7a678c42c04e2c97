"""Meteor's compiled writer (``rl/encoders/meteor_fast.pyx``) against the readable ``MeteorDirect``.

The compiled writer is Meteor's ``row_writer`` hook and its ``legal_state``: the tables and environments
write observations and masks with it. At every decision of seeded random games (one to five players, expert
Powers and Challenges, Backwards among them), every seat's compiled row equals the readable direct path's,
written into a row holding other values, and its legal map (catalog index -> the very action) equals
``MeteorDirect.legal``'s; an AEC environment with the hooks equals one without them step by step.
``tests/rl/test_direct.py`` also checks the hooked table's rows and masks against ``view(seat)``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from cosmodeck.rl import aec_env
from cosmodeck.rl.table import Table
from tests.rl.conftest import RT
from tests.rl.helpers import random_decisions

GAMES = int(os.environ.get("COSMODECK_STEPS_EPISODES", "3"))
CASES: list[tuple[int, dict[str, Any]]] = [(1, RT), (2, RT), (3, RT), (5, RT), (4, {"difficulty": "expert", **RT})]


def test_the_compiled_writer_is_importable_and_hooked() -> None:
    from cosmodeck.rl.encoders import meteor_fast

    assert meteor_fast.__file__ is not None and not meteor_fast.__file__.endswith((".py", ".pyx"))
    enc = Table("meteor", 2, RT).encoder
    assert enc.row_writer is not None and enc.direct.compiled is not None
    assert enc.row_writer.__self__ is enc.direct.compiled  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p" + "".join(f"-{v}" for k, v in c[1].items()
                                                                           if k != "step_s"))
def test_compiled_rows_equal_the_readable_direct_path(case: tuple[int, dict[str, Any]]) -> None:
    players, opts = case
    checked = 0
    powers: set[str] = set()
    for table, _seat in random_decisions("meteor", players, opts, games=GAMES, seed=7 * players, max_steps=400):
        st, enc = table.state, table.encoder
        powers.update(p for p in st.powers if p is not None)
        for seat in range(players):
            want = np.zeros(enc.obs_size, dtype=np.float32)
            enc.direct.write(st, seat, memoryview(want.data))
            row = np.full(enc.obs_size, 0.5, dtype=np.float32)  # what was there is cleared
            enc.row_writer(st, seat, row)  # type: ignore[misc]
            if not np.array_equal(row, want):
                bad = [name for name, sl in enc.slices().items() if not np.array_equal(row[sl], want[sl])]
                raise AssertionError(f"seat {seat}: the compiled row differs in {bad}")
            got, ref = enc.direct.compiled.legal(st, seat).map, enc.direct.legal(st, seat).map
            assert list(got) == list(ref) and all(got[i] is ref[i] for i in ref), f"seat {seat}: legal map"
            checked += 1
    assert checked > 200
    if opts.get("difficulty") == "expert":
        assert powers  # Powers were held (and Challenges dealt) at the positions checked


def test_aec_with_the_hook_equals_the_readable_env() -> None:
    fast, slow = aec_env("meteor", players=3, **RT), aec_env("meteor", players=3, **RT)
    slow.table.encoder.row_writer = None
    slow.table.encoder.direct.compiled = None  # (``legal_state``: the readable ``MeteorDirect.legal``)
    rng = np.random.default_rng(2)
    for episode in range(GAMES):
        fast.reset(seed=30 + episode)
        slow.reset(seed=30 + episode)
        for steps, agent in enumerate(fast.agent_iter()):
            got, want = fast.last(), slow.last()
            assert slow.agent_selection == agent
            assert np.array_equal(got[0]["observation"], want[0]["observation"])
            assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"]) and got[1:] == want[1:]
            act = None if got[2] or got[3] else int(rng.choice(np.flatnonzero(got[0]["action_mask"])))
            fast.step(act)
            slow.step(act)
            if steps > 600:
                break


def test_the_compiled_writer_refuses_bad_rows_and_seats() -> None:
    table = Table("meteor", 2, RT)
    table.reset(1)
    enc = table.encoder
    with pytest.raises(ValueError, match="observation's length"):
        enc.row_writer(table.state, 0, np.zeros(enc.obs_size - 1, dtype=np.float32))  # type: ignore[misc]
    with pytest.raises(ValueError, match="no such seat"):
        enc.row_writer(table.state, 2, np.zeros(enc.obs_size, dtype=np.float32))  # type: ignore[misc]
