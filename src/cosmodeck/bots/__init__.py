"""Bots see only ``(view, legal actions, rng)``, never the state, so they cannot cheat."""

from cosmodeck.bots.base import Bot, LazyView, parse_bot_spec
from cosmodeck.bots.registry import make_bot, make_bots

__all__ = ["Bot", "LazyView", "make_bot", "make_bots", "parse_bot_spec"]
