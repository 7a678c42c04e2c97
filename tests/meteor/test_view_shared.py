"""A Meteor seat's view is the spectator's view of the same version with its own seat, hands and talk
(``MeteorState.view``), and the pieces ``view._public`` shares between versions are those it would build:
on every step of seeded games, every seat's and a spectator's view equals a view built from scratch by the
engine's generic ``State.view`` with the state's memo and shared entries emptied, keys in the same order."""

from __future__ import annotations

import json

from cosmodeck.api import load_game
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.meteor.state import MeteorState


def _fresh(st: MeteorState, seat: int | None) -> dict[str, object]:
    saved = st.site_entries
    st.site_entries = {}
    st.touch()
    try:
        return State.view(st, seat)
    finally:
        st.site_entries = saved
        st.touch()


def _same(a: object, b: object) -> bool:
    return json.dumps(a) == json.dumps(b)  # equal values, and dict keys in the same order


def test_views_equal_views_built_afresh() -> None:
    checked = 0
    for difficulty in ("standard", "expert"):
        game = load_game("meteor", difficulty=difficulty)
        for seed in range(6):
            players = 1 + seed % 5
            st = game.new_game(players=players, seed=seed)
            assert isinstance(st, MeteorState)
            rng = Rng(seed)
            steps = 0
            while not st.is_over and steps < 150:
                if steps % 3 == 0:
                    for seat in [*range(players), None]:
                        mine = st.view(seat)
                        assert _same(mine, _fresh(st, seat)), (seed, steps, seat)
                        assert _same(st.view(seat), mine)  # the memoised copy
                        checked += 1
                seat = rng.randbelow(players)
                st.advance(st.now + rng.random() * 3)
                if st.is_over:
                    break
                legal = [a for a in st.legal_actions(seat) if type(a).__name__ not in ("Signal", "Emote", "Chat")]
                if legal:
                    st.apply(seat, legal[rng.randbelow(len(legal))])
                steps += 1
    assert checked > 500
