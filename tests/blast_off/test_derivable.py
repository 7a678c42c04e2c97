"""BLO-12.10 (and 12.4): every violation is derivable from the public log, so bots never need
engine state. A spectator-only tracker re-derives each hidden violation of random turn-based games."""

from __future__ import annotations

from cosmodeck.bots.blast_off_log import PublicLog
from cosmodeck.engine.rng import Rng
from tests.blast_off.helpers import steps


def test_BLO_12_10_BLO_12_4_every_violation_is_derivable_from_the_public_log() -> None:
    total = sum(_derive(seed) for seed in range(30))
    assert total > 10


def _derive(seed: int) -> int:
    g = steps()
    st = g.new_game(4, seed=seed)
    rng = Rng(seed)
    st.apply(st.cur, "declare R4") if st.phase == 3 else None
    tracker = PublicLog(g, st.view(None))
    engine: list[tuple[int, str]] = []
    for _ in range(4000):
        if st.is_over:
            break
        seat = sorted(st.to_act)[rng.randbelow(len(st.to_act))]
        legal = st.legal_actions(seat)
        # forgetful, catch-happy bots: they rarely announce, so violations happen
        quiet = [a for a in legal if not str(a).startswith(("announce", "gesture"))]
        pick = quiet if quiet and rng.random() < 0.8 else legal
        for e in st.apply(seat, pick[rng.randbelow(len(pick))]):
            if e.type == "violation":
                engine.append((e.data["seat"], e.data["mission"]))
            d = e.for_seat(None)
            if d is not None:
                tracker.feed(d)
    assert sorted(tracker.found) == sorted(engine)
    return len(engine)


def test_BLO_12_10_BLO_13_violations_are_derivable_from_the_views_alone() -> None:
    """A bot sees views, not events: the view's ``recent`` public log is enough to find every violation."""
    total = 0
    for seed in range(20):
        g = steps()
        st = g.new_game(4, seed=seed)
        rng = Rng(seed)
        tracker = PublicLog(g, st.view(None))
        seen = -1
        engine: list[tuple[int, str]] = []
        for _ in range(4000):
            if st.is_over:
                break
            seat = sorted(st.to_act)[rng.randbelow(len(st.to_act))]
            legal = st.legal_actions(seat)
            quiet = [a for a in legal if not str(a).startswith(("announce", "gesture"))]
            pick = quiet if quiet and rng.random() < 0.8 else legal
            engine += [(e.data["seat"], e.data["mission"]) for e in st.apply(seat, pick[rng.randbelow(len(pick))])
                       if e.type == "violation"]
            recent = st.view((seat + 1) % 4)["recent"]
            assert recent == st.view(None)["recent"]  # public: the same for every seat
            assert all(e["type"] not in ("violation", "violation_lapsed") for e in recent)
            assert not recent or recent[0]["n"] <= seen + 1, "the view's log dropped events between two views"
            for e in recent:
                if e["n"] > seen:
                    tracker.feed({k: v for k, v in e.items() if k not in ("n", "t")})
                    seen = e["n"]
        assert sorted(tracker.found) == sorted(engine)
        total += len(engine)
    assert total > 10
