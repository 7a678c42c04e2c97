"""The compiled Meteor heuristic values (``bots/heuristic/meteor_fast.pyx``) equal the readable ones, bit for bit.

``meteor_fast.plain_values(bot, view, legal)`` must give exactly ``bot._plain_values(view, legal)`` (the
readable reference, here with fresh memos) on every seat's view of seeded games: random walks at every
difficulty and 1-5 players (dead projects, retrofits, Backwards hands, Boss meteors, zone 1 in a hurry) and
the looks of heuristic games as the simulator plays them; ``useful`` and ``subset_sum`` equal theirs on
random inputs. The floats are compared by ``float.hex`` (``-0.0`` and ``0.0`` differ there).
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cosmodeck.api import load_game
from cosmodeck.bots.base import LazyView
from cosmodeck.bots.heuristic import meteor
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic, subset_sum, useful
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import DiscardProject, Launch
from cosmodeck.games.meteor.state import MeteorState
from cosmodeck.sim.runner import bot_rng, play_game

fast = importlib.import_module("cosmodeck.bots.heuristic.meteor_fast")


def _hex(values: Sequence[float]) -> list[str]:
    return [float(v).hex() for v in values]


def _compare(bot: MeteorHeuristic, view: Mapping[str, Any], legal: Sequence[Any], seen: Counter[str]) -> None:
    ref = bot._plain_values(view, legal)  # not inside act(): fresh memos, the readable methods only
    got = fast.plain_values(bot, view, legal)
    assert _hex(got) == _hex(ref), (view["seat"], [(str(a), r, g) for a, r, g in zip(legal, ref, got, strict=False)
                                                    if r != g])
    pairs = fast.useful(legal, got)
    expected = useful(legal, ref)
    assert [(id(a), float(v).hex()) for a, v in pairs] == [(id(a), float(v).hex()) for a, v in expected]
    for a, v in zip(legal, ref, strict=True):
        if v != 0.0:
            seen[type(a).__name__] += 1
            seen[f"{type(a).__name__} {v}"] += 1
    if int(view["zone"]) == 1 and float(view["timer"]["remaining"] or 0.0) <= bot.patience:
        seen["hurry"] += 1


def test_the_compiled_module_is_built_and_used() -> None:
    assert meteor._fast is fast  # a missing build fails here (the readable path would run silently)
    calls: list[int] = []

    class Spy:
        subset_sum = staticmethod(fast.subset_sum)
        useful = staticmethod(fast.useful)

        @staticmethod
        def plain_values(bot: Any, view: Any, legal: Any) -> list[float]:
            calls.append(1)
            return fast.plain_values(bot, view, legal)  # type: ignore[no-any-return]

    game: Any = load_game("meteor")
    state = game.new_game(players=2, seed=3)
    try:
        meteor._fast = Spy  # type: ignore[assignment]
        play_game(state, [MeteorHeuristic(game), MeteorHeuristic(game)], bot_rng(3), 50)
    except Exception as e:  # the decision limit: enough looks were made
        assert "decisions" in str(e)
    finally:
        meteor._fast = fast
    assert len(calls) > 20


def test_values_equal_on_random_walks() -> None:
    seen: Counter[str] = Counter()
    for difficulty in ("standard", "advanced", "expert"):
        game: Any = load_game("meteor", difficulty=difficulty)
        bots = [MeteorHeuristic(game), MeteorHeuristic(game, patience=90.0, overkill=7),  # an int overkill too
                MeteorHeuristic(game, patience=0.0, overkill=0.0)]
        for seed in range(12):
            players = 1 + seed % 5
            st = game.new_game(players=players, seed=seed)
            assert isinstance(st, MeteorState)
            rng = Rng(seed)
            steps = 0
            while not st.is_over and steps < 400:
                if st.phase == "play" and steps % 2 == 0:
                    for seat in range(players):
                        _compare(bots[(seat + steps) % 3], st.view(seat), st.legal_actions(seat), seen)
                seat = rng.randbelow(players)
                st.advance(st.now + rng.random() * (2 if rng.random() < 0.9 else 12))
                if st.is_over:
                    break
                legal = st.legal_actions(seat)
                talkless = [a for a in legal if type(a).__name__ not in ("Signal", "Emote", "Chat")]
                if talkless:
                    st.apply(seat, talkless[rng.randbelow(len(talkless))])
                steps += 1
    # what the values cover was met: placements on projects, new rockets and techs, retrofits, launches,
    # discards of dead projects and unneeded rockets, zone 1 in a hurry
    for kind in ("PlaceCard 5.0", "PlaceCard 6.0", "PlaceCard 7.5", "PlaceCard 8.0", "PlaceCard 4.0",
                 "PlaceCard 3.5", "PlaceCard 1.2", "PlaceCard 0.4", "DiscardProject 5.0", "DiscardProject 2.5",
                 "hurry"):
        assert seen[kind] > 0, (kind, sorted(seen.items()))
    assert seen["Launch"] > 80 and seen["PlaceCard"] > 2000, seen


class _Checked(MeteorHeuristic):
    """The heuristic, comparing the compiled and readable values at every look it makes (it changes no
    method the values read, so the compiled kernel stands for its values)."""

    seen: ClassVar[Counter[str]] = Counter()

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        resolved = view.resolve() if isinstance(view, LazyView) else view
        if legal and resolved["phase"] == "play":
            _compare(self, resolved, legal, self.seen)
        return super().act(view, legal, rng)


def test_values_equal_at_every_look_of_heuristic_games() -> None:
    _Checked.seen = Counter()
    for players, difficulty, seed in ((4, "standard", 1), (3, "advanced", 2), (5, "expert", 3), (1, "standard", 4),
                                      (2, "expert", 5)):
        game: Any = load_game("meteor", difficulty=difficulty)
        state = game.new_game(players=players, seed=seed)
        play_game(state, [_Checked(game) for _ in range(players)], bot_rng(seed), 20_000)
    assert _Checked.seen["Launch"] > 50 and _Checked.seen["PlaceCard"] > 500, _Checked.seen


def test_an_action_of_a_subclass_is_valued_by_the_bots_own_value() -> None:
    game: Any = load_game("meteor")
    st = game.new_game(players=2, seed=1)
    st.apply(0, "start")
    view = st.view(0)

    class MyDiscard(DiscardProject):
        pass

    class MyLaunch(Launch):
        pass

    bot = MeteorHeuristic(game)
    legal: list[Any] = [MyDiscard(a.site) for a in st.legal_actions(0) if isinstance(a, DiscardProject)]
    sites = [s["site"] for s in view["sites"]]
    legal += [MyLaunch(st.all_sites()[0], view["field"][0]["ref"])]
    assert sites
    assert _hex(fast.plain_values(bot, view, legal)) == _hex([bot._value(view, a) for a in legal])


def test_useful_and_subset_sum_equal_the_readable_ones() -> None:
    rng = Rng(7)
    for _ in range(3000):
        n = rng.randbelow(12)
        pool = [0.0, -0.0, 1.5, -3.0, 4e-9, -2e-9, 1e-8, 7.5, 0.4, 1e-12]
        values = [pool[rng.randbelow(len(pool))] if rng.random() < 0.7 else rng.random() - 0.5 for _ in range(n)]
        legal = [object() for _ in range(n)]
        a, b = fast.useful(legal, values), useful(legal, values)
        assert [(id(x), float(v).hex()) for x, v in a] == [(id(x), float(v).hex()) for x, v in b]
        ints = [rng.randbelow(9) for _ in range(rng.randbelow(6))]
        target = rng.randbelow(30) - 4
        assert fast.subset_sum(ints, target) == subset_sum(ints, target), (ints, target)
    assert fast.subset_sum([300, 400], 700) and not fast.subset_sum([300, 400], 701)  # past the kernel's table
