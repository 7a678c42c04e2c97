"""Terminal board for Shooting Star: the text board (``cosmodeck.textboard.shooting_star``) is all it needs."""

from cosmodeck.textboard.shooting_star import action_help, card_legend, event_lines, mission_text, render

__all__ = ["action_help", "card_legend", "event_lines", "mission_text", "render"]
