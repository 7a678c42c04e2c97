"""The direct path (observations and masks straight from the state) equals the view-based reference.

``Encoder.encode_state(state, seat)`` reads the state's fields through seat ``seat``'s information
filter instead of building ``state.view(seat)``; ``Encoder.legal_state`` computes catalog indices
straight from legal generation. Both are only allowed to be faster: on random states of every
player count of every game, for every seat, the vector is identical bit for bit to
``encode(state.view(seat))`` (which ``test_no_leak`` proves blind to others' secrets), the legal
indices are those of ``legal_map(state.legal_actions(seat), view)``, and each decodes to the same
engine action (illegal indices decode to ``ILLEGAL``). The suite checks a bounded number of states
per configuration; ``COSMODECK_DIRECT_STATES=3000`` checks thousands.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np
import pytest

from cosmodeck.engine import Rng
from cosmodeck.rl.encoders.base import ILLEGAL, MapLegal
from cosmodeck.rl.table import Table
from tests.rl.conftest import RT

STATES = int(os.environ.get("COSMODECK_DIRECT_STATES", "150"))

CASES: list[tuple[str, int, dict[str, Any]]] = [
    *[("shooting-star", n, {}) for n in range(2, 6)],
    ("shooting-star", 3, {"orientations": 2}),
    *[("blast-off", n, {}) for n in range(2, 7)],
    ("blast-off", 3, {"timing": "realtime", **RT}),
    ("blast-off", 4, {"custom_missions": True, "play_for_places": True}),
    *[("meteor", n, RT) for n in range(1, 6)],
    ("meteor", 3, {"difficulty": "expert", **RT}),
]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    game_id, players, opts = case
    return f"{game_id}-{players}p" + "".join(f"-{k}={v}" for k, v in sorted(opts.items()))


def check_state(table: Table, rng: Rng) -> int:
    """Compare every seat's direct observation and legal set with the reference; the seats checked."""
    st, enc = table.state, table.encoder
    cache: dict[str, Any] = {}
    for seat in range(table.players):
        view = st.view(seat)
        ref = enc.encode(view)
        got = enc.encode_state(st, seat, cache)
        assert got.dtype == np.float32 and got.shape == ref.shape
        if not np.array_equal(got, ref):
            bad = [name for name, sl in enc.slices().items() if not np.array_equal(got[sl], ref[sl])]
            raise AssertionError(f"seat {seat}: direct observation differs in {bad} at {st!r}")
        row = np.full(enc.obs_size, 0.5, dtype=np.float32)  # in-place writing must clear what was there
        enc.write_state(st, seat, row, cache)
        assert np.array_equal(row, ref), f"seat {seat}: write_state differs from the view reference"
        # the table's own row: written with what the table follows from position to position (Blast Off!'s log)
        assert np.array_equal(table.observation(seat), ref), f"seat {seat}: the table's row differs"
        ref_legal = enc.legal_map(st.legal_actions(seat), view)
        mask = np.zeros(enc.num_actions, dtype=np.int8)
        enc.legal_state(st, seat).fill(mask)  # the mask written without the index list
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(ref_legal), f"seat {seat}: filled mask differs"
        # the table's own mask row (its compiled ``mask_writer`` where the encoder has one): the mask of a seat
        # of the round (with the real-time ``wait``), all zero for the others and once the game is done
        want = np.zeros_like(mask)
        if not table.done and seat in table.queue:
            want[:] = mask
            if enc.noop is not None:
                want[enc.noop] = 1
        assert np.array_equal(table.mask_row(seat), want), f"seat {seat}: the table's mask row differs"
        legal = enc.legal_state(st, seat)
        assert sorted(legal.indices) == sorted(ref_legal), f"seat {seat}: legal indices differ"
        assert len(set(legal.indices)) == len(legal.indices)
        for i, action in ref_legal.items():
            mine = legal.action(i)
            assert mine is action or mine == action, f"seat {seat}: index {i} decodes to {mine}, not {action}"
        for _ in range(8):
            i = rng.randbelow(enc.num_actions + 4) - 2
            if i not in ref_legal:
                assert legal.action(i) is ILLEGAL
    return table.players


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_direct_observations_and_masks_equal_the_view_reference(case: tuple[str, int, dict[str, Any]]) -> None:
    game_id, players, opts = case
    table = Table(game_id, players, opts)
    rng = Rng(11)
    np_rng = np.random.default_rng(3)
    states = seats = games = 0
    while states < STATES:
        table.reset(1000 + games)
        games += 1
        steps = 0
        while not table.done and states < STATES and steps < 4000:
            if steps % 3 == 0 or table.real_time is False:
                seats += check_state(table, rng)
                states += 1
            seat = table.current
            assert seat is not None
            legal = table.legal(seat)
            assert legal is not None and legal.indices
            assert table.act_index(seat, int(np_rng.choice(legal.indices)))
            steps += 1
        if table.done:  # the final position too (nobody decides: empty legal sets)
            seats += check_state(table, rng)
            states += 1
    assert seats >= STATES * players


def test_the_reference_is_what_the_base_class_does() -> None:
    """An encoder without a direct path falls back to the view (so a new game is correct by default)."""
    table = Table("shooting-star", 2)
    table.reset(0)
    enc = table.encoder
    seat = table.current
    assert seat is not None
    base = type(enc).__mro__[1]
    bare = copy.copy(enc)
    bare.direct = None  # type: ignore[assignment]  # an encoder without a direct path
    ref = bare.encode_state(table.state, seat)
    assert np.array_equal(ref, enc.encode(table.state.view(seat)))
    row = np.full(enc.obs_size, 7.0, dtype=np.float32)
    bare.write_state(table.state, seat, row)
    assert np.array_equal(row, ref)
    assert np.array_equal(enc.encode_state(table.state, seat), ref)  # and the direct path agrees
    fallback = base.legal_state(enc, table.state, seat)  # type: ignore[attr-defined]
    assert isinstance(fallback, MapLegal)
    assert sorted(fallback.indices) == sorted(enc.legal_state(table.state, seat).indices)


def test_meteor_direct_path_under_every_power_and_challenge() -> None:
    """Expert Meteor deals a Power and a Challenge to every seat (MET-2.8): games are played until every
    Power and every Challenge of the data (Backwards, which hides a seat's own hand, among them) has been
    held by a seat at a checked position, each position compared seat by seat with the view reference."""
    table = Table("meteor", 5, {"difficulty": "expert", **RT})
    data = None
    rng = Rng(5)
    np_rng = np.random.default_rng(9)
    seen_powers: set[str] = set()
    seen_challenges: set[str] = set()
    twin = volley = False
    for game in range(40):
        table.reset(500 + game)
        st = table.state
        data = st.data
        steps = 0
        while not table.done and steps < 150:
            if steps % 10 == 0:
                check_state(table, rng)
                seen_powers.update(p for p in table.state.powers if p is not None)
                seen_challenges.update(c for c in table.state.challenges if c is not None)
                twin = twin or any(len(s) > 1 for s in table.state.sites)
                volley = volley or table.state.window is not None
            seat = table.current
            assert seat is not None
            legal = table.legal(seat)
            assert legal is not None
            table.act_index(seat, int(np_rng.choice(legal.indices)))
            steps += 1
        if seen_powers == set(data.powers) and seen_challenges == set(data.challenges) and twin and volley:
            break
    assert data is not None
    assert seen_powers == set(data.powers) and seen_challenges == set(data.challenges)
    assert twin and volley, "no Twin Pads site or no open volley met"


TRACK_CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (6, {}),
    (3, {"timing": "realtime", **RT}),
    (4, {"custom_missions": True, "play_for_places": True}),
    (3, {"mission_enforcement": "referee"}),
]


@pytest.mark.parametrize("case", TRACK_CASES, ids=lambda c: case_id(("blast-off", *c)))
def test_blast_off_log_followed_equals_the_full_replay(case: tuple[int, dict[str, Any]]) -> None:
    """``LogTrack`` (the public log followed from the last position) gives exactly ``replay_view``'s log:
    at every position of random games (positions skipped now and then, so it also joins after gaps), the
    settled logs have the same signature (every field the replay's future and the features read) and
    every seat's log features are equal."""
    from cosmodeck.bots.blast_off_log import replay_view
    from cosmodeck.rl.encoders.blast_off import BlastOffEncoder
    from cosmodeck.rl.encoders.blast_off_track import LogTrack, signature

    players, opts = case
    table = Table("blast-off", players, opts)
    enc = table.encoder
    assert isinstance(enc, BlastOffEncoder)
    track = LogTrack()
    np_rng = np.random.default_rng(17)
    positions = games = 0
    target = max(STATES * 4, 400)
    while positions < target:
        table.reset(3000 + games)
        games += 1
        steps = 0
        while not table.done and steps < 3000:
            st = table.state
            if st.recent and st.res is None and np_rng.random() < 0.9:
                public = st.view(None)
                ref = replay_view(enc.game, public)
                got = track.log(enc.game, st, public)
                assert signature(got) == signature(ref), f"followed log differs at {st!r}"
                for me in range(players):
                    assert enc.log_features(got, float(public["now"]), me) == \
                        enc.log_features(ref, float(public["now"]), me)
                positions += 1
            seat = table.current
            assert seat is not None
            legal = table.legal(seat)
            assert legal is not None and legal.indices
            table.act_index(seat, int(np_rng.choice(legal.indices)))
            steps += 1
    assert positions >= target


def test_shooting_star_mask_fill_on_any_row() -> None:
    """Shooting Star's mask fill (a byte pattern per hand card on a contiguous int8 row, NumPy indexing on
    any other row) sets exactly the legal indices, on int8, int64 and strided rows alike."""
    table = Table("shooting-star", 3)
    rng = np.random.default_rng(5)
    checked = 0
    for game in range(10):
        table.reset(4000 + game)
        while (seat := table.current) is not None:
            direct = table.encoder.direct
            ref = np.zeros(table.encoder.num_actions, np.int8)
            ref[direct.legal_indices(table.state, seat)] = 1
            as_int8 = np.zeros_like(ref)
            direct.fill_mask(table.state, seat, as_int8)
            as_int64 = np.zeros(ref.size, np.int64)
            direct.fill_mask(table.state, seat, as_int64)
            strided = np.zeros((ref.size, 2), np.int8)
            direct.fill_mask(table.state, seat, strided[:, 0])
            assert np.array_equal(as_int8, ref) and np.array_equal(as_int64, ref)
            assert np.array_equal(strided[:, 0], ref) and not strided[:, 1].any()
            checked += 1
            legal = np.flatnonzero(ref)
            assert legal.size
            table.act_index(seat, int(legal[rng.integers(legal.size)]))
    assert checked >= 200


# ---- Shooting Star's compiled writer (``shooting_star_fast.pyx``) -----------------------------------------------

def _shs_compiled_built() -> bool:
    from cosmodeck.rl.encoders import shooting_star_direct

    return shooting_star_direct._COMPILED is not None


# without the build only ``test_shooting_star_compiled_writer_is_importable_and_used`` fails; these are skipped
needs_shs_compiled = pytest.mark.skipif(not _shs_compiled_built(), reason="shooting_star_fast is not built")

SHS_COMPILED_CASES: list[tuple[int, dict[str, Any]]] = [
    *[(n, {}) for n in range(2, 6)],
    (3, {"orientations": 2}),
    (4, {"end_count_includes_dark": False, "shield_scope": "planets", "dark_planet_shelters_cards": True}),
    (2, {"fast": False}),  # the reference state class (no compiled engine under the compiled writer)
]


def test_shooting_star_compiled_writer_is_importable_and_used() -> None:
    """The extension is built in the test environment, and the environments' rows are written by it."""
    from cosmodeck.rl.encoders import shooting_star_direct, shooting_star_fast

    assert shooting_star_fast.__file__ is not None and not shooting_star_fast.__file__.endswith((".py", ".pyx"))
    assert shooting_star_direct._COMPILED is shooting_star_fast.CompiledWriter
    table = Table("shooting-star", 2)
    table.reset(4)
    enc = table.encoder
    compiled = enc.direct.compiled  # type: ignore[attr-defined]
    assert isinstance(compiled, shooting_star_fast.CompiledWriter)
    hooks = {"row_writer": "write", "mask_writer": "fill_mask", "action_at": "action_of", "observer": "observe",
             "actor": "act"}
    for hook, method in hooks.items():  # the table's hooks are the compiled writer's methods
        got = getattr(enc, hook)
        assert got.__self__ is compiled and got.__name__ == method
    calls: list[str] = []

    def spy(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            calls.append(name)
            return real(*args)
        return call

    for hook in hooks:
        setattr(enc, hook, spy(hook, getattr(enc, hook)))
    seat = table.current
    assert seat is not None
    mask = table.mask_row(seat)
    table.observation(seat)
    table.observe(seat)
    assert table.act_index(seat, int(np.flatnonzero(mask)[0]))
    assert calls == ["mask_writer", "row_writer", "observer", "actor"]


def check_compiled(table: Table, rng: Rng) -> None:
    """Every seat: the compiled writer's row, mask and decoded actions equal the readable path's, and the
    readable path's observation equals encoding ``view(seat)`` (the compiled path now runs everywhere else)."""
    st, enc = table.state, table.encoder
    direct = enc.direct  # type: ignore[attr-defined]
    compiled = direct.compiled
    assert compiled is not None
    for seat in range(table.players):
        ref = enc.encode(st.view(seat))
        slow = [0.0] * enc.obs_size
        direct.write_py(st, seat, slow)
        assert np.array_equal(np.array(slow, dtype=np.float32), ref), f"seat {seat}: write_py differs from the view"
        row = np.full(enc.obs_size, 0.25, dtype=np.float32)  # ``write`` clears what was there
        compiled.write(st, seat, row)
        if not np.array_equal(row, ref):
            bad = [name for name, sl in enc.slices().items() if not np.array_equal(row[sl], ref[sl])]
            raise AssertionError(f"seat {seat}: the compiled observation differs in {bad} at {st!r}")
        zero = np.zeros(enc.obs_size, dtype=np.float32)
        compiled.write(st, seat, zero, False)
        assert np.array_equal(zero, ref)
        want = np.zeros(enc.num_actions, dtype=np.int8)
        direct.fill_mask_py(st, seat, want)
        got = np.full(enc.num_actions, 3, dtype=np.int8)
        compiled.fill_mask(st, seat, got)
        assert np.array_equal(got, want), f"seat {seat}: the compiled mask differs"
        assert sorted(np.flatnonzero(want).tolist()) == sorted(direct.legal_indices(st, seat))
        for i in [*np.flatnonzero(want).tolist(), *(rng.randbelow(enc.num_actions + 6) - 3 for _ in range(12))]:
            assert compiled.action_of(st, seat, i) is direct.action_of_py(st, seat, i), f"seat {seat}: index {i}"
        for active in (True, False):  # ``observe``: both fresh arrays in one call (the mask zero unless active)
            got_obs = compiled.observe(st, seat, active)
            assert set(got_obs) == {"observation", "action_mask"}
            assert got_obs["observation"].dtype == np.float32 and got_obs["action_mask"].dtype == np.int8
            assert np.array_equal(got_obs["observation"], ref)
            assert np.array_equal(got_obs["action_mask"], want if active else np.zeros_like(want))
        tries = [*np.flatnonzero(want).tolist()[:2], rng.randbelow(enc.num_actions + 6) - 3]
        for i in tries:  # ``act``: the readable decoding, then the engine's ``apply``, on clones
            mine, theirs = st.clone(), st.clone()
            action = direct.action_of_py(theirs, seat, i)
            assert compiled.act(mine, seat, i) is (action is not None)
            if action is not None:
                theirs.apply(seat, action)
            assert mine.to_json() == theirs.to_json(), f"seat {seat}: act({i}) differs from action_of + apply"


@needs_shs_compiled
@pytest.mark.parametrize("case", SHS_COMPILED_CASES, ids=lambda c: case_id(("shooting-star", *c)))
def test_shooting_star_compiled_writer_equals_the_readable_path(case: tuple[int, dict[str, Any]]) -> None:
    """On random positions (every placement of random games, the final positions included), seat by seat."""
    players, opts = case
    table = Table("shooting-star", players, opts)
    rng = Rng(23)
    np_rng = np.random.default_rng(29)
    states = games = 0
    while states < STATES:
        table.reset(7000 + games)
        games += 1
        while not table.done:
            check_compiled(table, rng)
            states += 1
            if states % 5 == 0:  # a state loaded from its JSON (the containers the codec builds) reads the same
                st = table.state
                loaded = st.game.load_state(st.to_json())
                row = np.zeros(table.encoder.obs_size, dtype=np.float32)
                table.encoder.direct.compiled.write(loaded, 0, row)  # type: ignore[attr-defined]
                assert np.array_equal(row, table.encoder.encode(st.view(0)))
            seat = table.current
            assert seat is not None
            legal = table.legal(seat)
            assert legal is not None
            assert table.act_index(seat, int(np_rng.choice(legal.indices)))
        check_compiled(table, rng)
        states += 1


@needs_shs_compiled
def test_shooting_star_compiled_writer_refuses_a_row_of_another_length() -> None:
    table = Table("shooting-star", 2)
    table.reset(1)
    compiled = table.encoder.direct.compiled  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="length"):
        compiled.write(table.state, 0, np.zeros(table.encoder.obs_size - 1, dtype=np.float32))
    with pytest.raises(ValueError, match="length"):
        compiled.fill_mask(table.state, 0, np.zeros(table.encoder.num_actions + 1, dtype=np.int8))
