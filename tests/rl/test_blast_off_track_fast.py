"""Blast Off!'s compiled log tracker (``rl/encoders/blast_off_track_fast.pyx``, ``FastLogTrack``) against the
readable ``LogTrack`` (``blast_off_track.py``) and the full replay (``replay_view``).

At every decision of seeded random games (a few positions skipped now and then, so the trackers also join
after gaps), both timings, 2-6 players and the options that make the log matter (authored missions,
play for places, the referee), the settled log of the compiled tracker has the same signature as the
readable tracker's and the full replay's (every field the replay's future and the features read), and every
seat's log features (``owed``, ``owed_left``, ``violations``, ``violation_left``) are equal. The public facts
are the direct path's (``BlastOffDirect.public_facts``) and, on every other game, the view's (``view(None)``);
a third tracker per table reads them from the state itself (``FastLogTrack.log_state``, as the compiled writer
asks it).
A second table interleaved with the first shares a pair of trackers (as the compiled writer's pool of tracks
can be asked about another state), so owner switches and fresh starts are checked too.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog
from cosmodeck.rl.encoders.base import MEMO
from cosmodeck.rl.table import Table
from tests.rl.conftest import RT

#: games per case; ``COSMODECK_TRACK_GAMES=200`` for a long run
GAMES = int(os.environ.get("COSMODECK_TRACK_GAMES", "3"))
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (5, {}),
    (6, {}),
    (2, {"timing": "realtime", **RT}),
    (4, {"timing": "realtime", **RT}),
    (4, {"custom_missions": True, "play_for_places": True}),
    (5, {"timing": "realtime", "custom_missions": True, **RT}),
    (3, {"mission_enforcement": "referee"}),
]


def test_the_compiled_tracker_is_importable_and_used() -> None:
    from cosmodeck.rl.encoders import blast_off_direct, blast_off_track_fast

    assert blast_off_track_fast.__file__ is not None and not blast_off_track_fast.__file__.endswith((".py", ".pyx"))
    assert blast_off_direct.TRACK is blast_off_track_fast.FastLogTrack
    table = Table("blast-off", 2, {})
    direct = table.encoder.direct  # type: ignore[attr-defined]
    assert direct.track is blast_off_track_fast.FastLogTrack
    table.reset(1)
    while not table.state.recent:
        seat = table.current
        assert seat is not None
        table.act_index(seat, table.legal(seat).indices[0])  # type: ignore[union-attr]
    memo: dict[str, Any] = {}
    log = direct.public_log(table.state, {MEMO: memo})  # as the compiled writer and the readable table ask it
    assert isinstance(memo["blast_off_track"], blast_off_track_fast.FastLogTrack)
    assert isinstance(log, FastPublicLog)


def _case_id(case: tuple[int, dict[str, Any]]) -> str:
    players, opts = case
    return f"{players}p" + "".join(f"-{k}={v}" for k, v in sorted(opts.items()))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_compiled_tracker_equals_the_readable_one_and_the_replay(case: tuple[int, dict[str, Any]]) -> None:
    from cosmodeck.bots.blast_off_log import replay_view
    from cosmodeck.rl.encoders.blast_off import BlastOffEncoder
    from cosmodeck.rl.encoders.blast_off_track import LogTrack, signature
    from cosmodeck.rl.encoders.blast_off_track_fast import FastLogTrack

    players, opts = case
    tables = [Table("blast-off", players, opts), Table("blast-off", players, opts)]
    enc = tables[0].encoder
    assert isinstance(enc, BlastOffEncoder)
    own = [(LogTrack(), FastLogTrack()), (LogTrack(), FastLogTrack())]
    by_state = [FastLogTrack(), FastLogTrack()]  # asked with ``log_state`` (the public facts read from the state)
    shared = (LogTrack(), FastLogTrack())
    rng = np.random.default_rng(players * 7 + len(opts))
    positions = owed = open_ = caught = authored = 0
    for game in range(GAMES):
        for k, table in enumerate(tables):
            table.reset(5000 + 2 * game + k)
        steps = 0
        while not all(t.done for t in tables) and steps < 6000:
            k = int(rng.integers(2)) if not any(t.done for t in tables) else (0 if tables[1].done else 1)
            table = tables[k]
            st = table.state
            if st.recent and st.res is None and rng.random() < 0.9:
                public = enc.direct.public_facts(st) if game % 2 == 0 else st.view(None)
                now = float(public["now"])
                ref = replay_view(enc.game, public)
                want = signature(ref)
                feats = [enc.log_features(ref, now, me) for me in range(players)]
                pairs = [own[k]] + ([shared] if rng.random() < 0.5 else [])
                for slow, fast in pairs:
                    py = slow.log(enc.game, st, public)
                    cy = fast.log(enc.game, st, public)
                    assert signature(py) == want, f"readable tracker differs at {st!r}"
                    assert cy.signature() == want, f"compiled tracker differs at {st!r}"
                    for me in range(players):
                        assert enc.log_features(cy, now, me) == feats[me], f"seat {me} at {st!r}"
                got = by_state[k].log_state(enc.game, st, enc.direct)
                assert got.signature() == want, f"compiled tracker (from the state) differs at {st!r}"
                for me in range(players):
                    assert enc.log_features(got, now, me) == feats[me], f"seat {me} at {st!r} (from the state)"
                positions += 1
                owed += bool(ref.obls)
                open_ += any(feats[0][2])
                caught += any(v.caught for v in ref.viols)
                authored += any(m.get("source") for m in public.get("missions") or ())
            seat = table.current
            assert seat is not None
            legal = table.legal(seat)
            assert legal is not None and legal.indices
            table.act_index(seat, int(rng.choice(legal.indices)))
            steps += 1
    assert positions >= 100 * GAMES
    print(f"{_case_id(case)}: {positions} positions, {owed} with obligations, {open_} with open violations, "
          f"{caught} with a caught one, {authored} with authored missions")
    # what makes the log matter was met (else the features compared were all zero)
    if opts.get("custom_missions"):
        assert authored
    if opts.get("mission_enforcement") == "referee":
        assert owed  # (violations are drawn for at once: none stays open)
    elif not (opts.get("custom_missions") and opts.get("timing") == "realtime"):
        assert owed and open_
    if opts.get("timing") == "realtime" and not opts.get("custom_missions"):
        assert caught


def test_the_compiled_writer_keeps_no_finished_game_alive() -> None:
    """The compiled writer keeps a tracker per state followed (its pool); the tracker holds its state weakly and
    a dead state's memo leaves the pool, so the states of finished games (their histories) are freed."""
    import gc
    import weakref

    from cosmodeck.rl import aec_env

    env = aec_env("blast-off", players=2)
    assert env._fast is not None  # the compiled steps, through the compiled writer's hooks
    rng = np.random.default_rng(3)
    refs = []
    for seed in range(4):
        env.reset(seed=seed)
        refs.append(weakref.ref(env.table.state))
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])  # type: ignore[index]
            env.step(int(legal[rng.integers(legal.size)]))
    env.reset(seed=99)
    gc.collect()
    assert all(r() is None for r in refs), "a finished game's state is still alive"
