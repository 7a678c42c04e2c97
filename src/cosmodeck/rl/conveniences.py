"""What researchers expect on every environment: legal action lists, action names, a text board.

Shared by the AEC, Parallel and Gymnasium environments (each has a ``table`` and ``render_mode``).
"""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.errors import OptionError
from cosmodeck.rl.table import Table
from cosmodeck.textboard import render_text


class CatalogHelpers:
    """``legal_actions``, ``action_to_string`` and the ``ansi`` render over the environment's table."""

    table: Table
    render_mode: str | None

    def _agent_seat(self, agent: str | int | None) -> int:
        players = self.table.players
        if isinstance(agent, str) and agent.startswith("player_") and agent[7:].isdecimal():
            seat = int(agent[7:])
        elif isinstance(agent, int) and not isinstance(agent, bool):
            seat = agent
        elif agent is None:
            cur = self.table.current
            if cur is None:
                raise OptionError("no seat decides now (the episode is over): name an agent")
            seat = cur
        else:
            raise OptionError(f"an agent is 'player_N' or a seat number, not {agent!r}")
        if not 0 <= seat < players:
            raise OptionError(f"no seat {seat} in a {players}-player game")
        return seat

    def legal_actions(self, agent: str | int | None = None) -> list[int]:
        """Catalog indices that ``agent`` may choose now (default: the agent that decides), sorted."""
        seat = self._agent_seat(agent)
        return [int(i) for i in self.table.mask(seat).nonzero()[0]]

    def action_to_string(self, action: int) -> str:
        """The catalog entry of ``action`` in the game's notation (``"wait"`` is the real-time no-op)."""
        enc = self.table.encoder
        if isinstance(action, bool) or not 0 <= int(action) < enc.num_actions:
            raise OptionError(f"action {action!r} is not an index of the {enc.num_actions}-action catalog")
        return enc.actions[int(action)]

    def _render_seat(self) -> int | None:
        """Whose view ``render`` draws: ``None`` (the spectator's view, no hidden card) by default."""
        return None

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``), drawn from a view: no hidden card, no seed."""
        if self.render_mode != "ansi" or not hasattr(self.table, "state"):
            return None
        view: Any = self.table.state.view(self._render_seat())
        return render_text(self.table.game_id, view)
