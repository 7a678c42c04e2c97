"""The terminal board: rendering, event lines, and whole games in real time and on a virtual clock."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from cosmodeck.cli.boards import blast_off as board
from tests.blast_off.helpers import game, stack


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, force_terminal=False), out


def test_render_shows_pile_hand_missions_countdown_and_duties() -> None:
    st = stack(game(), hands={1: "CD O7 W", 2: "O2 G2"}, top="O9", inforce=("M01",))
    st.apply(1, "play O7", at=0.0)
    st.apply(2, "play O2", at=0.5)
    con, out = _console()
    board.render(st.view(1), con)
    text = out.getvalue()
    assert "Your hand" in text and "Mission M01 Houston" in text and "You owe: announce HOUSTON" in text
    st2 = stack(game(), hands={1: "CD O1", 2: "O9"}, top="O9")
    st2.apply(1, "play CD", at=0.0)
    st2.advance(3.0)
    con, out = _console()
    board.render(st2.view(2), con)
    assert "COUNTDOWN" in out.getvalue() and ">9<" in out.getvalue()


def test_event_lines_and_help() -> None:
    st = stack(game(), hands={1: "CD O1", 2: "O9 O2"}, top="O9")
    ev = st.apply(1, "play CD", at=0.0) + st.advance(2.5) + st.apply(2, "slap O9 9", at=2.6)
    lines = board.event_lines([d for d in (e.for_seat(2) for e in ev) if d])
    assert any("COUNTDOWN" in x for x in lines) and any("▶ 9" in x for x in lines)
    assert any("slaps O9 for 9" in x for x in lines)
    assert "slap O6 6" in board.action_help() and "catch 1" in board.action_help()


@pytest.mark.parametrize("opts", [{}, {"timing": "steps"}, {"mission_out_of_control": True}])
def test_virtual_clock_game_reads_lines_until_the_end(opts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["1", "", "2"] * 3000)))
    con, out = _console()
    board.play(game(**opts), {0}, {1: "random", 2: "random"}, 3, con)
    assert "Game over" in out.getvalue()


def test_realtime_loop_with_a_test_clock_runs_a_bot_game() -> None:
    t = [0.0]

    def clock() -> float:
        t[0] += 0.05
        return t[0]

    con, out = _console()
    board.play(game(), set(), {0: "random", 1: "random", 2: "random"}, 8, con, clock=clock, lines=[],
               sleep=lambda _s: None, max_time=5000.0)
    assert "Game over" in out.getvalue() and "▶" in out.getvalue()


def test_realtime_human_lines_and_shortcuts() -> None:
    t = [0.0]

    def clock() -> float:
        t[0] += 0.05
        return t[0]

    con, out = _console()
    board.play(game(), {0}, {1: "random"}, 2, con, clock=clock, lines=["?", "v", "1", "q"],
               sleep=lambda _s: None, max_time=60.0)
    text = out.getvalue()
    assert "Actions:" in text and "Game abandoned." in text
