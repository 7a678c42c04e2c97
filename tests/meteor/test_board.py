"""The terminal board (cli/boards/meteor.py): real-time play on an injected clock, rendering, event lines."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from cosmodeck.cli.boards import meteor as board
from tests.meteor.helpers import load, make, ref
from tests.meteor.test_scenarios_traits import volley


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, dt: float) -> None:
        self.t += dt


def run(players: int, humans: set[int], lines: list[str] | None = None, **options: Any) -> str:
    buf = io.StringIO()
    clock = FakeClock()
    bots = {s: "random" for s in range(players) if s not in humans}
    board.play(load(**options), humans, bots, 11, Console(file=buf, width=120), clock=clock,
               sleep=clock.sleep, lines=lines)
    return buf.getvalue()


def test_MET_3_1_MET_D2_board_plays_a_whole_game_on_the_host_clock() -> None:
    out = run(3, set())
    assert "Game over" in out and "⏳" in out and ("the team wins" in out or "the team loses" in out)


def test_MET_3_5_board_humans_type_notation_or_menu_numbers() -> None:
    out = run(2, {0}, ["v", "?", "start", "bogus action", "signal launch", "1: pass", "q"], difficulty="advanced")
    assert "Game abandoned." in out and "is not a Meteor action" in out
    assert '"launch!"' in out and "no such human seat" in out


def test_MET_D4_render_and_event_lines_cover_every_event() -> None:
    st = make(3, field=["M03", "M15", "B08", "M01"], sites={0: ["R13", "S", "E"]}, hands={1: ["F", "A"]},
              meteor_deck=["M07"], powers={0: "P07"}, challenges={1: "C04"}, difficulty="advanced")
    events = st.apply(0, f"launch s0 {ref(st, 'M03')}", at=1)
    events += st.advance(4) + volley(st, "B08", ["R01"]) + volley(st, "M15", ["R13"])
    events += st.apply(1, "signal pass") + st.apply(1, f"emote point {ref(st, 'M01')}")
    events += st.apply(0, "time_out", at=st.now)
    lines = board.event_lines([e.for_seat(0) for e in events if e.for_seat(0) is not None])  # type: ignore[misc]
    assert any(line.startswith("LAUNCH!") for line in lines) and any("ZONE" in line for line in lines)
    assert any("revealed" in line for line in lines) and any("volley at" in line for line in lines)
    buf = io.StringIO()
    for seat in (None, 0, 1):
        board.render(st.view(seat), Console(file=buf, width=100))
    text = buf.getvalue()
    assert "TIME OUT" in text and "Meteor field" in text and "sharpshooter" in text
    assert "M03" not in board.action_help()
