"""The fast Shooting Star scores (the compiled kernel and the NumPy path) equal the readable reference's, bit
for bit, on seeded games."""

from __future__ import annotations

from typing import Any

import pytest

import cosmodeck
from cosmodeck.bots.heuristic.shooting_star import ShsEval, scores
from cosmodeck.bots.heuristic.shooting_star_fast import _codes, fast_scores
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.game import ShootingStarGame


def _check(game: ShootingStarGame, view: dict[str, Any], legal: list[Any], where: Any) -> bool:
    """Reference, NumPy path and compiled kernel agree on ``view``; True if the kernel scored it."""
    ref = scores(game, view, legal)
    for compiled in (False, True):
        fast = fast_scores(game, view, legal, compiled=compiled)
        assert fast == ref, (where, compiled, [(str(legal[i]), r, f) for i, (r, f)
                                               in enumerate(zip(ref, fast, strict=True)) if r != f][:5])
    kernel = _codes(game).kernel
    assert kernel is not None
    got = kernel.scores(view, legal)
    if got is None:  # only what it does not cover: here, the custom sector's planet placements
        assert not all(isinstance(a, Place) for a in legal), where
        return False
    assert got == ref, where
    best = kernel.best(view, legal)
    assert best is not None and legal
    top = max(ref)
    assert best == [i for i, v in enumerate(ref) if v >= top - 1e-12], where
    return True


def _compare(players: int, seeds: range, game: ShootingStarGame | None = None, **options: Any) -> tuple[int, int]:
    game = game or cosmodeck.load_game("shooting-star", **options)
    views = compiled = 0
    for seed in seeds:
        st = game.new_game(players=players, seed=seed)
        rng = Rng(seed + 1000)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            compiled += _check(game, st.view(seat), legal, (seed, st.decisions))
            views += 1
            st.apply(seat, legal[rng.randbelow(len(legal))])
    return views, compiled


def test_the_compiled_kernel_is_built_and_used() -> None:
    """CI must build it: without it the bot silently runs the slower NumPy path (the same scores)."""
    import importlib

    from cosmodeck.bots.heuristic import shooting_star_fast

    mod = importlib.import_module("cosmodeck.bots.heuristic.shooting_star_kernel")
    assert shooting_star_fast.Kernel is mod.Kernel
    game = cosmodeck.load_game("shooting-star")
    assert isinstance(_codes(game).kernel, mod.Kernel)
    st = game.new_game(players=4, seed=3)
    seat = min(st.to_act)
    assert shooting_star_fast.best_indices(game, st.view(seat), st.legal_actions(seat)) is not None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fast_scores_equal_the_reference_on_seeded_random_games(players: int) -> None:
    views, compiled = _compare(players, range(6))
    assert views > 0 and compiled == views


def test_fast_scores_equal_the_reference_with_two_orientations_and_the_custom_sector() -> None:
    views, compiled = _compare(3, range(4), orientations=2)
    assert views > 0 and compiled == views
    views, compiled = _compare(2, range(3), custom_sector=True)  # PlacePlanet decisions go to the reference
    assert 0 < compiled < views


def test_fast_scores_equal_the_reference_in_heuristic_games() -> None:
    """Heuristic play reaches other boards than random play (captures, shields, isolations)."""
    from cosmodeck.bots.registry import make_bots

    game = cosmodeck.load_game("shooting-star")
    for seed in range(4):
        players = 2 + seed % 4
        st = game.new_game(players=players, seed=seed)
        bots = make_bots("shooting-star", "heuristic", players, game)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            view = st.view(seat)
            assert _check(game, view, legal, (seed, st.decisions))
            ev = ShsEval(game, view)  # the kernel's mission gains, for every planet (captures abound here)
            kernel = _codes(game).kernel
            assert kernel is not None
            assert [kernel.mission_gain(view, p) for p in game.data.planets] == [
                ev.mission_gain(p) for p in game.data.planets]
            st.apply(seat, bots[seat].act(view, legal, rng))


def test_the_bot_plays_the_reference_choice() -> None:
    """``act`` (compiled best indices, no noise) picks what the reference scores pick, tie draws included."""
    from cosmodeck.bots.heuristic.shooting_star import ShootingStarHeuristic

    game = cosmodeck.load_game("shooting-star")
    bot = ShootingStarHeuristic(game)
    ties = 0
    for seed in range(3):
        st = game.new_game(players=4, seed=seed)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            view = st.view(seat)
            vals = scores(game, view, legal)
            best = [i for i, v in enumerate(vals) if v >= max(vals) - 1e-12]
            ties += len(best) > 1
            want = legal[best[Rng(seed + st.decisions).randbelow(len(best))] if len(best) > 1 else best[0]]
            assert bot.act(view, legal, Rng(seed + st.decisions)) is want
            st.apply(seat, legal[rng.randbelow(len(legal))])
    assert ties > 0


def test_fast_scores_of_a_subset_and_of_foreign_actions() -> None:
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=3, seed=5)
    seat = min(st.to_act)
    legal = st.legal_actions(seat)
    view = st.view(seat)
    part = legal[::7]
    assert fast_scores(game, view, part) == scores(game, view, part)
    parsed = [game.parse_action(str(a)) for a in part]  # equal actions, not the interned objects
    assert fast_scores(game, view, parsed) == scores(game, view, part)
    assert fast_scores(game, view, []) == []


def test_the_shared_mission_gain_memo_is_used_and_keyed_by_what_it_reads() -> None:
    """``fast_scores`` shares ``mission_gain`` between views of the same mission situation (missions in
    order, named planets and counts captured); the reference computes it afresh (the tests above compare)."""
    from cosmodeck.bots.heuristic.shooting_star import ShsEval
    from cosmodeck.bots.heuristic.shooting_star_fast import _codes

    game = cosmodeck.load_game("shooting-star")
    for seed in range(3):
        st = game.new_game(players=4, seed=seed)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            fast_scores(game, st.view(seat), legal, compiled=False)  # the NumPy path fills the memo
            st.apply(seat, legal[rng.randbelow(len(legal))])
    gains = _codes(game).gains
    assert len(gains) > 4 and any(len(g) > 3 for g in gains.values())
    st = game.new_game(players=4, seed=9)
    view = st.view(0)
    shared = ShsEval(game, view, gains)
    fresh = ShsEval(game, view)
    for pid in game.data.planets:
        assert shared.mission_gain(pid) == fresh.mission_gain(pid)


def test_the_kernel_adds_as_python_sum_does() -> None:
    """The kernel's ``sum`` of probabilities is Python's own (plain additions up to 3.11, compensated after)."""
    import random

    from cosmodeck.bots.heuristic.shooting_star_kernel import compensated, python_sum

    r = random.Random(15)
    cases: list[list[float]] = [[], [0.1], [0.1] * 7, [1.0 / 9] * 9, [1.0, 1e100, 1.0, -1e100], [-0.0]]
    cases += [[r.choice([1.0 / 7, 1.0 / 3, r.random(), -r.random() * 1e-3]) for _ in range(r.randrange(1, 20))]
              for _ in range(3000)]
    for vals in cases:
        want = sum(vals)
        got = python_sum(vals)
        assert got == want and str(got) == str(float(want)), vals
    assert compensated() == (sum([1.0, 1e100, 1.0, -1e100]) == 2.0)


def test_a_call_inside_a_call_is_refused_not_clobbered() -> None:
    """Python code can run inside a kernel call (here a hands entry's look-up; a finaliser, another thread): a
    call made then gets ``None`` (its caller scores another way) and the outer call's buffers are untouched."""
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=4, seed=2)
    rng = Rng(2)
    for _ in range(6):
        seat = min(st.to_act)
        st.apply(seat, st.legal_actions(seat)[rng.randbelow(len(st.legal_actions(seat)))])
    seat = min(st.to_act)
    legal = st.legal_actions(seat)
    view = st.view(seat)
    kernel = _codes(game).kernel
    assert kernel is not None
    inner: list[Any] = []

    class Hand(dict[str, Any]):
        def __getitem__(self, key: str) -> Any:
            other = st.legal_actions(seat)[:5]
            inner.append((kernel.scores(view, other), kernel.best(view, other)))
            return dict.__getitem__(self, key)

    odd = dict(view)
    odd["hands"] = [Hand(h) for h in view["hands"]]
    assert kernel.scores(odd, legal) == scores(game, view, legal)
    assert inner and all(got == (None, None) for got in inner)
    assert fast_scores(game, view, legal[:5]) == scores(game, view, legal[:5])
    assert kernel.scores(view, legal) == scores(game, view, legal)  # free again


def _with_p8_hits(hits: list[list[int]]) -> ShootingStarGame:
    """The default card data (as the lab's P8 test file has it) with Destruction card P8's hits replaced."""
    import json
    from pathlib import Path

    from cosmodeck.engine.options import TextInput

    raw = json.loads((Path(__file__).parents[1] / "sim" / "data" / "shooting_star_p8_two_cells.json").read_text())
    for card in raw["destruction_set"]:
        if card["id"] == "P8":
            card["hits"] = hits
    game = cosmodeck.load_game("shooting-star", data=TextInput("p8-test", json.dumps(raw), lenient=True))
    assert isinstance(game, ShootingStarGame)
    return game


@pytest.mark.parametrize("hits", [[[0, -1], [0, 1]], [[0, -1], [1, -1], [-1, -1], [0, -2]], [[0, -3], [3, 0], [-2, 2]]])
def test_fast_scores_equal_the_reference_with_other_card_sets(hits: list[list[int]]) -> None:
    """Card data a designer changes (the lab's P8 hitting two cells, four cells, a reach of 3 cells):
    the kernel builds its tables from the game's cards."""
    game = _with_p8_hits(hits)
    for players in (2, 4):
        views, compiled = _compare(players, range(3), game=game)
        assert views > 0 and compiled == views


def test_a_card_set_the_kernel_does_not_cover_runs_the_numpy_path() -> None:
    game = _with_p8_hits([[0, -4]])  # 4 cells away: past the kernel's memo window, within the NumPy padding
    assert _codes(game).kernel is None
    st = game.new_game(players=3, seed=1)
    rng = Rng(1)
    while not st.is_over:
        seat = min(st.to_act)
        legal = st.legal_actions(seat)
        view = st.view(seat)
        assert fast_scores(game, view, legal) == scores(game, view, legal)
        st.apply(seat, legal[rng.randbelow(len(legal))])


def test_views_the_kernel_does_not_trust_go_elsewhere() -> None:
    """The grid's bounds are checked against every planet and placement (the kernel indexes C arrays by them)."""
    game = cosmodeck.load_game("shooting-star")
    st = game.new_game(players=4, seed=4)
    seat = min(st.to_act)
    legal = st.legal_actions(seat)
    view = st.view(seat)
    kernel = _codes(game).kernel
    assert kernel is not None and kernel.scores(view, legal) == scores(game, view, legal)
    x0, y0, x1, y1 = view["grid"]["bounds"]
    for bounds in ([x0 + 1, y0, x1, y1], [x0, y0, x1, y1 - 1], [x0 - 9000, y0, x1 + 9000, y1]):
        odd = dict(view)
        odd["grid"] = dict(view["grid"], bounds=bounds)
        assert kernel.scores(odd, legal) is None and kernel.best(odd, legal) is None
        assert fast_scores(game, odd, legal) == scores(game, view, legal)
    del odd["grid"]["bounds"]  # no bounds: the kernel finds them
    assert kernel.scores(odd, legal) == scores(game, view, legal)
    import json

    parsed = json.loads(json.dumps(view))  # keys that are equal strings, not the interned ones: looked up
    assert kernel.scores(parsed, legal) == scores(game, view, legal)


def test_the_noisy_bot_draws_and_plays_as_the_list_path() -> None:
    """``noise > 0``: the kernel adds ``noise * rng.random()`` to each score in order (its own SplitMix64 steps)
    and the bot picks among the best: the reference's choice, and the generator left at the same draw."""
    from cosmodeck.bots.heuristic.shooting_star import ShootingStarHeuristic
    from cosmodeck.bots.heuristic.shooting_star_fast import noisy_best_indices_of

    game = cosmodeck.load_game("shooting-star")
    bot = ShootingStarHeuristic(game, noise=0.3)
    empty = Rng(1)
    assert noisy_best_indices_of(game)(game.new_game(players=4, seed=0).view(0), [], 0.3, empty) is None
    assert empty.state == Rng(1).state  # nothing drawn when the kernel does not pick
    for seed in range(3):
        st = game.new_game(players=3 + seed, seed=seed)
        rng = Rng(seed)
        while not st.is_over:
            seat = min(st.to_act)
            legal = st.legal_actions(seat)
            view = st.view(seat)
            ref_rng, bot_rng = Rng(seed + st.decisions), Rng(seed + st.decisions)
            vals = [v + 0.3 * ref_rng.random() for v in scores(game, view, legal)]
            best = [i for i, v in enumerate(vals) if v >= max(vals) - 1e-12]
            want = legal[best[ref_rng.randbelow(len(best))] if len(best) > 1 else best[0]]
            assert bot.act(view, legal, bot_rng) is want
            assert bot_rng.state == ref_rng.state
            st.apply(seat, legal[rng.randbelow(len(legal))])
    assert bot._noisy is not None


def test_the_bots_view_keys_give_the_same_scores_as_the_whole_view() -> None:
    """The entries the bot says it reads (``view_keys``, built alone by ``view.build_keys``) are enough: the
    reference, the NumPy path and the kernel score them as they score the whole view."""
    from cosmodeck.bots.heuristic.shooting_star import ShootingStarHeuristic
    from cosmodeck.bots.registry import make_bots
    from cosmodeck.games.shooting_star import view as shs_view

    keys = ShootingStarHeuristic.view_keys
    for options in ({}, {"orientations": 2}):
        game = cosmodeck.load_game("shooting-star", **options)
        for seed in range(3):
            players = 2 + seed
            st = game.new_game(players=players, seed=seed)
            bots = make_bots("shooting-star", "heuristic", players, game)
            rng = Rng(seed)
            while not st.is_over:
                seat = min(st.to_act)
                legal = st.legal_actions(seat)
                full = st.view(seat)
                part = shs_view.build_keys(st, seat, keys)  # type: ignore[arg-type]
                assert set(part) == set(keys)
                ref = scores(game, full, legal)
                assert scores(game, part, legal) == ref
                assert fast_scores(game, part, legal, compiled=False) == ref
                assert _check(game, part, legal, (seed, st.decisions))
                st.apply(seat, bots[seat].act(part, legal, rng))


def _bounded_views(game: ShootingStarGame, players: int, seed: int, heuristic: bool) -> Any:
    """(view, legal) of every decision of a seeded game, played by heuristic bots or at random."""
    from cosmodeck.bots.registry import make_bots

    st = game.new_game(players=players, seed=seed)
    bots = make_bots("shooting-star", "heuristic", players, game) if heuristic else None
    rng = Rng(seed + 77)
    while not st.is_over:
        seat = min(st.to_act)
        legal = st.legal_actions(seat)
        view = st.view(seat)
        yield view, legal
        st.apply(seat, bots[seat].act(view, legal, rng) if bots else legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize("options", [{}, {"orientations": 2}])
def test_every_score_is_at_most_the_bound_best_prunes_with(options: dict[str, Any]) -> None:
    """``best`` skips an attack whose upper bound is below the best score found (by a margin): each score of the
    reference is at most its bound, on seeded games at 2 to 5 players (heuristic play: captures, isolations,
    destroyed cards), and the bound does prune (most attacks are below the best)."""
    game = cosmodeck.load_game("shooting-star", **options)
    kernel = _codes(game).kernel
    assert kernel is not None
    checked = below = 0
    for seed in range(8):
        for view, legal in _bounded_views(game, 2 + seed % 4, seed, heuristic=seed % 2 == 0):
            bounds = kernel.bounds(view, legal)
            assert bounds is not None
            ref = scores(game, view, legal)
            top = max(ref)
            for i, (b, r) in enumerate(zip(bounds, ref, strict=True)):
                if b is None:
                    continue
                assert r <= b + 1e-9, (seed, str(legal[i]), r, b)
                checked += 1
                below += b + 1e-6 < top - 1e-12
            assert kernel.best(view, legal) == [i for i, v in enumerate(ref) if v >= top - 1e-12]
    assert checked > 10_000 and below > checked // 2


def test_choose_plays_and_draws_as_the_list_path() -> None:
    """``act`` without noise (the kernel's ``choose``: pruned scoring, ``randbelow`` in C among ties) picks the
    reference's choice and leaves the generator where the list path leaves it; a generator of another type is
    asked for its own ``randbelow``; what the kernel does not take (a tuple, no actions) is ``None``."""
    from cosmodeck.bots.base import LazyView
    from cosmodeck.bots.heuristic.shooting_star import ShootingStarHeuristic
    from cosmodeck.bots.heuristic.shooting_star_fast import chooser_of

    class Draws(Rng):
        """Not exactly ``Rng``: the kernel calls its ``randbelow``."""

        calls = 0

        def randbelow(self, n: int) -> int:
            Draws.calls += 1
            return super().randbelow(n)

    game = cosmodeck.load_game("shooting-star")
    bot = ShootingStarHeuristic(game)
    choose = chooser_of(game)
    ties = 0
    for seed in range(4):
        for view, legal in _bounded_views(game, 3 + seed % 3, seed, heuristic=seed % 2 == 1):
            vals = scores(game, view, legal)
            best = [i for i, v in enumerate(vals) if v >= max(vals) - 1e-12]
            ties += len(best) > 1
            ref_rng = Rng(seed * 1000 + len(legal))
            want = legal[best[ref_rng.randbelow(len(best))] if len(best) > 1 else best[0]]
            for wrap in (False, True):
                rng = Rng(seed * 1000 + len(legal))
                got = bot.act(LazyView(lambda v=view: v) if wrap else view, legal, rng)
                assert got is want and rng.state == ref_rng.state, (seed, wrap)
            other = Draws(seed * 1000 + len(legal))
            assert choose(view, legal, other) is want and other.state == ref_rng.state
            untouched = Rng(5)
            assert choose(view, tuple(legal), untouched) is None and choose(view, [], untouched) is None
            assert untouched.state == Rng(5).state
    assert ties > 0 and Draws.calls > 0
    assert bot._choose is not None
