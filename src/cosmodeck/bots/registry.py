"""Bot names and the ``--bots`` syntax: one name for every seat, or one per seat."""

from __future__ import annotations

from collections.abc import Callable

from cosmodeck.bots.base import Bot, parse_bot_spec
from cosmodeck.bots.random_bot import RandomBot

BotFactory = Callable[[str, dict[str, str]], Bot]


def _random(game_id: str, params: dict[str, str]) -> Bot:
    known = {"median_s", "sigma"}
    unknown = set(params) - known
    if unknown:
        raise ValueError(f"random bot: unknown parameter(s) {', '.join(sorted(unknown))}")
    return RandomBot(float(params.get("median_s", 1.0)), float(params.get("sigma", 0.35)))


BOTS: dict[str, BotFactory] = {"random": _random}


def make_bot(game_id: str, spec: str) -> Bot:
    name, params = parse_bot_spec(spec)
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; available: {', '.join(sorted(BOTS))}") from None
    return factory(game_id, params)


def make_bots(game_id: str, spec: str, players: int) -> list[Bot]:
    """``"random"`` for every seat, or ``"random,random,ismcts:ms=50"`` one per seat."""
    parts = [p for p in spec.split(",") if p.strip()]
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise ValueError(f"--bots names {len(parts)} bots for {players} players (give 1 or {players})")
    return [make_bot(game_id, p) for p in parts]
