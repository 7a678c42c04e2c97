"""Observations are built from the player view only, so they cannot reveal hidden state.

For states met in random games, re-drawing another seat's secrets (``resample_hidden``) or the
secrets nobody sees must leave every other seat's observation unchanged, bit for bit. As a control
that the check can fail, re-drawing a seat's *own* secrets must change its own observation at
least sometimes.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import numpy as np
import pytest

from cosmodeck.engine import Rng
from cosmodeck.rl.table import Table
from tests.rl.conftest import CONFIGS, config_id
from tests.rl.helpers import random_decisions

Config = tuple[str, int, dict[str, Any]]


def test_the_encoder_takes_the_view_and_nothing_else() -> None:
    table = Table("shooting-star", 2)
    assert list(inspect.signature(table.encoder.encode).parameters) == ["view"]


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_observations_do_not_change_when_others_secrets_are_redrawn(cfg: Config) -> None:
    game_id, players, opts = cfg
    rng = Rng(7)
    own_changes = 0
    checked = 0
    for i, (table, _seat) in enumerate(random_decisions(game_id, players, opts, games=3)):
        if i % 3 or checked > 200:
            continue
        st = table.state
        enc = table.encoder
        for seat in range(players):
            view = st.view(seat)
            base = enc.encode(view)
            # the encoder reads the view's content only: a JSON copy encodes identically
            assert np.array_equal(enc.encode(json.loads(json.dumps(view))), base)
            for owner in [None, *range(players)]:
                other = st.resample_hidden(owner, rng)
                got = enc.encode(other.view(seat))
                if owner == seat:
                    own_changes += not np.array_equal(got, base)
                else:
                    assert np.array_equal(got, base), f"seat {seat} sees a change in {owner}'s secrets"
                    checked += 1
    assert checked > 20
    assert own_changes > 0, "re-drawing a seat's own secrets never changed its observation: the check is blind"
