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


def test_entries_are_shared_by_the_states_of_one_game_object_only() -> None:
    """The shared entries depend on the game's data and options: every state of one game object (the next games
    of a simulation, clones) shares them, a game object with other options has its own, and views built with
    entries left by earlier games equal views built afresh."""
    game = load_game("meteor")
    other = load_game("meteor", zone_timer_s=90, volley_window_s=2.5)
    a, b, c = game.new_game(players=3, seed=1), game.new_game(players=4, seed=2), other.new_game(players=3, seed=1)
    assert isinstance(a, MeteorState) and isinstance(b, MeteorState) and isinstance(c, MeteorState)
    assert a.site_entries is b.site_entries and a.clone().site_entries is a.site_entries
    assert c.site_entries is not a.site_entries
    for st in (a, c):  # both games' views, in turn, along the same seeded walk
        st.apply(0, "start")
    assert a.view(0)["options"]["zone_timer_s"] != c.view(0)["options"]["zone_timer_s"]
    assert c.view(None)["timer"]["length"] == 90.0
    rng = Rng(5)
    for st in (a, b, c):
        if st.phase == "setup":
            st.apply(0, "start")
        for step in range(120):
            if st.is_over:
                break
            if step % 4 == 0:
                for seat in [*range(st.players), None]:
                    assert _same(st.view(seat), _fresh(st, seat)), (step, seat)
            seat = rng.randbelow(st.players)
            st.advance(st.now + rng.random() * 3)
            if st.is_over:
                break
            legal = [x for x in st.legal_actions(seat) if type(x).__name__ not in ("Signal", "Emote", "Chat")]
            if legal:
                st.apply(seat, legal[rng.randbelow(len(legal))])


def test_site_facts_are_kept_by_printed_cards_and_cost_powers() -> None:
    """A site entry's status and project are kept by its printed cards, built flag and the controller's cost
    Powers: two seats' sites holding other copies of the same cards share them, a Fuel Chemist's site does not,
    and every entry equals one built afresh. A card whose copies differ (not from the data loader) is keyed
    by its own id."""
    import dataclasses

    from cosmodeck.games.meteor.view import _printed
    from tests.meteor.helpers import make

    data = load_game("meteor").data
    printed = _printed(data)
    assert printed["F#3"] == "F" and printed["R06#2"] == "R06"
    odd = dict(data.resources)
    odd["R06#2"] = dataclasses.replace(odd["R06#2"], damage=odd["R06#2"].damage + 1)
    odd_printed = _printed(dataclasses.replace(data, resources=odd))
    assert odd_printed["R06#1"] == "R06#1" and odd_printed["R06#2"] == "R06#2" and odd_printed["F#3"] == "F"

    fuel = next(p for p, k in data.powers.items() if k == "fuel_chemist")
    st = make(3, sites={0: ["F", "A"], 1: ["F", "A"], 2: ["F", "A"]}, powers={2: fuel}, difficulty="advanced")
    st.site_entries.clear()
    sites = st.view(0)["sites"]
    assert sites[0]["cards"] != sites[1]["cards"]  # other copies of the same cards
    facts = [k for k in st.site_entries if k[0] == "facts"]
    assert len(facts) == 2, facts  # seats 0 and 1 share theirs; seat 2's Fuel Chemist has its own
    for seat in [*range(3), None]:
        assert _same(st.view(seat), _fresh(st, seat))
