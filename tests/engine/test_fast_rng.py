"""``engine/fast_rng.pyx:FastRng`` (SplitMix64 of ``engine/splitmix.pxd`` in C) is ``engine/rng.py:Rng`` draw for draw,
and it is the one generator of both compiled game states (no copy per game)."""

from __future__ import annotations

import re

import pytest

from cosmodeck.engine.rng import Rng


def test_fast_rng_is_built_and_draws_as_rng() -> None:
    from cosmodeck.engine.fast_rng import FastRng

    for seed in range(300):
        a, b = FastRng(seed), Rng(seed)
        for n in (1, 2, 3, 5, 7, 64, 1000, 2**31 + 5, 2**61 + 1, 2**62, 2**63 + 3):
            assert a.randbelow(n) == b.randbelow(n)
        xs, ys = list(range(seed % 70)), list(range(seed % 70))
        a.shuffle(xs)
        b.shuffle(ys)
        assert xs == ys and a.state == b.state
        c = a.copy()
        assert type(c) is FastRng and c.state == a.state and c is not a
    for bad in (0, -3, 2.5, "7"):  # what Rng refuses, FastRng refuses alike (it hands such n to Rng)
        with pytest.raises(Exception) as slow_error:
            Rng(1).randbelow(bad)
        with pytest.raises(slow_error.type, match=re.escape(str(slow_error.value))):
            FastRng(1).randbelow(bad)


def test_both_compiled_games_use_the_one_generator() -> None:
    import cosmodeck
    from cosmodeck.engine.fast_rng import FastRng
    from cosmodeck.games.blast_off import fast as blast_off_fast
    from cosmodeck.games.shooting_star import fast as shooting_star_fast

    assert blast_off_fast.FastRng is FastRng and shooting_star_fast.FastRng is FastRng
    for game_id in ("blast-off", "shooting-star"):
        st = cosmodeck.load_game(game_id).new_game(players=3, seed=4)
        assert type(st.rng) is FastRng and type(st.clone().rng) is FastRng
