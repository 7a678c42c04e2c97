"""Options of Blast Off!: every ruling with a choice (spec §4) plus the digital adaptation.

``timing`` chooses between the faithful real-time countdown (BLO-10) and the turn-based
abstraction for simulation and RL (BLO-11): ``"realtime"`` (default) or ``"steps"``.
"""

from __future__ import annotations

from typing import Any

from cosmodeck.engine.options import Option, TextInput, boolean, number

MAX_PLAYERS = 8
DEFAULT_MAX_PLAYERS = 6


def _dealer(v: Any) -> str | None:
    if v == "random" or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_PLAYERS):
        return None
    return f"must be 'random' or a seat 0..{MAX_PLAYERS - 1}"


def _reaction(v: Any) -> str | None:
    if v is None:
        return None
    ok = isinstance(v, list) and v and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in p)
        and p[0] > 0 and p[1] >= 0 for p in v)
    return None if ok else "must be null or a list of [median_s, sigma] pairs (median > 0, sigma >= 0), one per seat"


def _pool(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, list) or not v or not all(isinstance(m, dict) for m in v):
        return "must be null (the rulebook's examples X1-X3) or a non-empty list of MDL missions"
    from cosmodeck.engine.errors import DataError
    from cosmodeck.games.blast_off.mdl import parse_mission

    for i, m in enumerate(v):
        try:
            parse_mission({"id": "X", **m} if "id" not in m else m, "option custom_mission_pool", f"[{i}]")
        except DataError as e:
            return f"mission [{i}]: {e.field}: {e.problem}"
    return None


def _file(v: Any) -> str | None:
    return None if v is None or isinstance(v, TextInput) else "must be a path to a mission file"


OPTIONS: tuple[Option, ...] = (
    Option("timing", "realtime", choices=("realtime", "steps"),
           doc="BLO-10 real-time countdown and catch windows, or BLO-11 turn-based steps (simulation, RL)"),
    Option("dealer", "random", check=_dealer, doc="R23: 'random' or a seat"),
    Option("play_for_places", False, check=boolean, doc="BLO-8.2, R9: play on to rank the runners-up"),
    Option("voluntary_draw", False, check=boolean, doc="R18: may draw even with a match"),
    Option("drawn_card_play", "must", choices=("must", "may"), doc="R18: a playable drawn card must / may be played"),
    Option("two_player_reverse", "none", choices=("none", "play_again"), doc="R14"),
    Option("false_catch_penalty", 0, check=number(0, 10, integer=True), doc="R15: cards a false catch costs"),
    Option("max_players", DEFAULT_MAX_PLAYERS, check=number(2, MAX_PLAYERS, integer=True), doc="R17"),
    Option("pass_hands_direction", "left", choices=("left", "play"), doc="R24: pass_hands to seat+1 or along dir"),
    Option("declare_timeout_s", 5.0, check=number(0.1, 600), doc="R27, BLO-10.7"),
    Option("tick_s", 1.2, check=number(0.05, 60), doc="BLO-10.2: seconds per called value"),
    Option("countdown_pace", "fixed", choices=("fixed", "fast"), doc="BLO-10.5"),
    Option("obligation_s", 3.0, check=number(0.1, 600), doc="BLO-12.2 real-time deadline"),
    Option("catch_window_s", 5.0, check=number(0.1, 600), doc="BLO-12.5 real-time catch window"),
    Option("catch_window_steps", 1, check=number(1, 20, integer=True), doc="BLO-12.5 turn-based catch window"),
    Option("choose_timeout_s", 10.0, check=number(0.1, 600), doc="swap_hands target timeout (real time)"),
    Option("mission_enforcement", "catch", choices=("catch", "referee", "assist"), doc="BLO-12.7"),
    Option("mission_out_of_control", False, check=boolean, doc="BLO-9.1: missions stack"),
    Option("custom_missions", False, check=boolean, doc="BLO-9.2: the Blast Off player authors a mission"),
    Option("custom_mission_timeout_s", 60.0, check=number(1, 3600), doc="BLO-9.2"),
    Option("custom_mission_pool", None, check=_pool, doc="BLO-9.2: missions bots and steps mode pick from"),
    Option("reaction_time", None, check=_reaction,
           doc="BLO-11.2: per-seat [median_s, sigma] log-normal reaction times for collisions (null: uniform)"),
    Option("missions", None, check=_file, doc="a mission file (MDL) replacing the data file's missions"),
)

# BLO-9.2: the rulebook's three examples (the default pool).
DEFAULT_POOL: tuple[dict[str, Any], ...] = (
    {"id": "X1", "name": "Abduction", "text": "When a Wild is played, the next player skips their turn.",
     "phase": "turn", "when": {"event": "card_played", "kind": ["WILD"]}, "effect": {"type": "skip_next"}},
    {"id": "X2", "name": "U-turn", "text": "When a red or green card is played, the direction of play reverses.",
     "phase": "turn", "when": {"event": "card_played", "colour": ["RED", "GREEN"]}, "effect": {"type": "reverse"}},
    {"id": "X3", "name": "Pass It On",
     "text": "When an even card is played, every player passes their whole hand to the player on their left.",
     "phase": "turn", "when": {"event": "card_played", "parity": "even"}, "effect": {"type": "pass_hands"}},
)
