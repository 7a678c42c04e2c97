"""The terminal board: rendering views and one line per SHS-D4 event."""

from __future__ import annotations

import io

from rich.console import Console

import cosmodeck
from cosmodeck.cli.boards import shooting_star as board
from cosmodeck.engine.events import redact
from cosmodeck.engine.rng import Rng


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=140, color_system=None), out


def test_SHS_D4_board_renders_every_stage_and_one_line_per_event() -> None:
    for custom in (False, True):
        game = cosmodeck.load_game("shooting-star", custom_sector=custom)
        s = game.new_game(players=3, seed=5)
        rng = Rng(2)
        lines = 0
        while not s.is_over:
            (seat,) = s.to_act
            console, out = _console()
            board.render(s.view(seat), console)
            assert "Turn" in out.getvalue()
            events = redact(s.apply(seat, rng.choice(s.legal_actions(seat))), seat)
            text = board.event_lines(events)
            assert len(text) == len(events) and all(isinstance(t, str) and t for t in text)
            assert not any(t.split(":")[0] in {e["type"] for e in events} for t in text if "=" in t)
            lines += len(text)
        console, out = _console()
        board.render(s.view(None), console)
        assert "Final scores" in out.getvalue() and lines > 20


def test_SHS_D2_board_shows_face_down_cards_without_their_face() -> None:
    game = cosmodeck.load_game("shooting-star", first_player=0)
    s = game.new_game(players=2, seed=1)
    s.apply(0, "place P6 " + ",".join(map(str, s.free_cells()[0])) + " E")
    console, out = _console()
    board.render(s.view(1), console)
    assert "face down" in out.getvalue() and "P6" not in out.getvalue().split("hand:")[0]
    assert board.event_lines([{"type": "place", "seat": 0, "cell": [1, 0], "orientation": "E"}]) == [
        "seat 0 places a card face down on (1,0), arrow E"]


def test_SHS_D1_action_help_describes_the_notation() -> None:
    text = board.action_help()
    assert "place CARD X,Y ARROW" in text and "planet PLANET X,Y FACE" in text
