"""BLO-13: the view's discard pile and countdown, built from precomputed face and value texts, read exactly
as the readable per-card forms (``_card``/``_pile_face``/``value_text``) on seeded random games."""

from __future__ import annotations

import cosmodeck
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.cards import value_text
from cosmodeck.games.blast_off.state import BlastOffState
from cosmodeck.games.blast_off.view import _card, _pile_face


def _readable(st: BlastOffState) -> tuple[list[dict[str, str]], list[str] | None]:
    discard = [{"card": _card(st, c), "face": _pile_face(st, c)} for c in st.disc]
    seq = [value_text(v) for v in st.cd_seq] if st.in_countdown() else None
    return discard, seq


def test_BLO_13_view_discard_and_countdown_texts_equal_the_readable_forms() -> None:
    game = cosmodeck.load_game("blast-off", timing="steps")
    wilds = countdowns = 0
    for players in (2, 3, 4):
        for seed in range(6):
            st = game.new_game(players=players, seed=seed)
            assert isinstance(st, BlastOffState)
            rng = Rng(seed + 40)
            while not st.is_over:
                discard, seq = _readable(st)
                for seat in (*range(players), None):
                    v = st.view(seat)
                    assert v["discard"] == discard
                    if seq is None:
                        assert v["countdown"] is None
                    else:
                        assert v["countdown"]["sequence"] == seq
                        assert set(v["countdown"]["slots"]) <= set(seq)
                        assert set(v["countdown"]["skipped"]) <= set(seq)
                wilds += any(c in st.wface for c in st.disc)
                countdowns += seq is not None
                if not st.to_act:
                    deadline = st.next_deadline()
                    assert deadline is not None
                    st.advance(deadline)
                    continue
                seat = min(st.to_act)
                legal = st.legal_actions(seat)
                st.apply(seat, legal[rng.randbelow(len(legal))])
    assert wilds > 0 and countdowns > 0  # both kinds of table lookups were compared


def test_BLO_12_10_recent_log_holds_each_public_event_as_a_spectator_saw_it() -> None:
    """The view's ``recent`` entries are the spectator forms of the public events, numbered one by one."""
    game = cosmodeck.load_game("blast-off", timing="steps")
    checked = 0
    for players in (2, 4):
        for seed in range(4):
            st = game.new_game(players=players, seed=seed)
            rng = Rng(seed + 90)
            seen: list[dict[str, object]] = []
            while not st.is_over:
                if not st.to_act:
                    deadline = st.next_deadline()
                    assert deadline is not None
                    events = st.advance(deadline)
                else:
                    seat = min(st.to_act)
                    legal = st.legal_actions(seat)
                    events = st.apply(seat, legal[rng.randbelow(len(legal))])
                seen += [d for d in (e.for_seat(None) for e in events) if d is not None]
                recent = st.view(None)["recent"]
                assert [e["n"] for e in recent] == list(range(len(seen) - len(recent), len(seen)))
                for entry, spectator in zip(recent, seen[len(seen) - len(recent):], strict=True):
                    assert list(entry)[:2] == ["n", "t"]
                    assert {k: v for k, v in entry.items() if k not in ("n", "t")} == spectator
                    checked += 1
    assert checked > 1000
