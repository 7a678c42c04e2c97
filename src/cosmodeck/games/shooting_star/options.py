"""The options of Shooting Star: every configurable ruling of §4, plus seat configuration."""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.options import Option, boolean

MAX_PLAYERS = 5


def _first_player(v: Any) -> str | None:
    if v in ("random", "youngest"):
        return None
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_PLAYERS:
        return None
    return f"must be 'random', 'youngest' or a seat index 0..{MAX_PLAYERS - 1}"


def _ages(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, (list, tuple)) or not all(
        isinstance(a, (int, float)) and not isinstance(a, bool) for a in v
    ):
        return "must be null or a list of numbers, one per seat"
    return None


def _factions(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, (list, tuple)) or not all(isinstance(f, str) for f in v):
        return "must be null or a list of faction ids, one per seat"
    if len(set(v)) != len(v):
        return "factions must be distinct (R29)"
    return None


OPTIONS: tuple[Option, ...] = (
    Option("orientations", 4, choices=(4, 2), doc="R5: arrows N/E/S/W, or only N/S"),
    Option("first_player", "random", check=_first_player, doc="R21: 'random', 'youngest' (needs ages) or a seat"),
    Option("setup_face", "random", choices=("random", "high"), doc="R2: coin per card, or the higher face"),
    Option("shield_scope", "attack", choices=("attack", "planets"), doc="R8: what an acting Shield cancels"),
    Option("dark_planet_shelters_cards", False, check=boolean, doc="R10: cards on Dark Planets are immune"),
    Option("conquest_points", "all_cards", choices=("all_cards", "planets_only"), doc="R16"),
    Option("missions_count_debris", True, check=boolean, doc="R17: missions count planets in debris"),
    Option("end_count_includes_dark", True, check=boolean, doc="R20: the end count includes Dark Planets"),
    Option("custom_sector", False, check=boolean, doc="SHS-16: players build the sector"),
    Option("ages", None, check=_ages, doc="R21: seat ages for first_player='youngest'"),
    Option("factions", None, check=_factions, doc="R29: faction id per seat (default: seat i gets faction i)"),
)

OPTION_TABLE = {o.name: o for o in OPTIONS}
