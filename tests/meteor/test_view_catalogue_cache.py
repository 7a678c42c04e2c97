"""MET-D4: the view's catalogue, built once per data file and cards dealt, equals a fresh build in every
view, and a view's copy is its own (changing it changes no later view)."""

from __future__ import annotations

import cosmodeck
from cosmodeck.games.meteor.view import build_catalogue


def test_MET_D4_cached_catalogue_equals_a_fresh_build_and_is_a_copy() -> None:
    seen = set()
    for difficulty, seed in [("standard", 0), ("expert", 1), ("expert", 2), ("expert", 3)]:
        st = cosmodeck.load_game("meteor", difficulty=difficulty).new_game(players=4, seed=seed)
        dealt = {c for c in (*st.powers, *st.challenges) if c is not None}
        seen.add(frozenset(dealt))
        first = st.view(0)["catalogue"]
        assert first == build_catalogue(st.data, dealt)
        first["texts"].clear()
        first["cards"][next(iter(first["cards"]))]["kind"] = "changed"
        first["energy"][0]["key"] = "changed"
        again = st.view(1)["catalogue"]
        assert again == build_catalogue(st.data, dealt) != first
        assert st.view(None)["catalogue"] == again
    assert len(seen) > 1  # different deals: different catalogues, each cached under its own key
