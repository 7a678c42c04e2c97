"""Single-field mutations of reachable states (issue 13's property).

``reachable(game_id, ...)`` plays seeded random games under several option sets and keeps
snapshots; ``mutations(obj, rng)`` yields copies of a state's JSON with exactly one field
changed (a value replaced by another type, a neighbour number, an id found elsewhere in the
state, an element removed, duplicated or swapped, a key deleted). ``check(game, text, rng)``
loads a mutant: it must either load, and then play on (views, legal actions, actions, timers,
JSON) without raising, or be refused with ``StateFormatError``; anything else is a failure.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cosmodeck
from cosmodeck.engine import Game, IllegalActionError, Rng, State, StateFormatError, derive_seed
from tests.conformance.driver import random_input

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "meteor": [{}, {"difficulty": "advanced"}, {"difficulty": "expert"}, {"first_game": True}],
    "blast-off": [{}, {"timing": "steps"}, {"custom_missions": True}, {"drawn_card_play": "may"},
                  {"timing": "steps", "custom_missions": True, "mission_out_of_control": True},
                  {"mission_enforcement": "referee"}],
    "shooting-star": [{}, {"custom_sector": True}, {"orientations": 2}],
}

Path = tuple[Any, ...]


def reachable(game_id: str, games: int, seed: int = 0, every: int = 5,
              version: int = 2) -> list[tuple[Game[Any], str]]:
    """Snapshots (every ``every``-th step) of ``games`` seeded random games per option set, as ``to_json``
    writes them in format ``version`` (2: names; 1: the integer format of older saved states)."""
    out: list[tuple[Game[Any], str]] = []
    for oi, opts in enumerate(OPTION_SETS.get(game_id, [{}])):
        game = cosmodeck.load_game(game_id, **opts)
        lo, hi = game.info.min_players, game.info.max_players
        for k in range(games):
            rng = Rng(derive_seed(seed, oi, k))
            state = game.new_game(players=lo + rng.randbelow(min(hi, 5) - lo + 1), seed=derive_seed(seed, k))
            steps = 0
            while not state.is_over and steps < 2000:
                if steps % every == 0:
                    out.append((game, state.to_json(version=version)))
                # a chosen time that rounds onto a deadline may see its action refused: the state stays valid
                with contextlib.suppress(IllegalActionError):
                    random_input(state, rng)
                steps += 1
            out.append((game, state.to_json(version=version)))
    return out


def _paths(node: Any, path: Path = ()) -> Iterator[Path]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _get(node: Any, path: Path) -> Any:
    for p in path:
        node = node[p]
    return node


def _leaves(node: Any) -> list[Any]:
    return [_get(node, p) for p in _paths(node) if not isinstance(_get(node, p), (dict, list))]


def mutate(obj: dict[str, Any], rng: Rng) -> tuple[str, dict[str, Any]]:
    """One copy of ``obj`` with one field changed, and a description of the change."""
    paths = [p for p in _paths(obj) if p and p[0] not in ("format", "game", "options", "data_hash")]
    core = [p for p in paths if p[0] == "core"]
    if core and rng.random() < 0.85:  # the log is long; most mutations go to the game's own fields
        paths = core
    path = paths[rng.randbelow(len(paths))]
    out = copy.deepcopy(obj)
    parent = _get(out, path[:-1])
    key = path[-1]
    old = parent[key]
    leaves = _leaves(obj.get("core", obj))
    choices: list[tuple[str, Any]] = [
        ("null", None), ("true", True), ("false", False), ("zero", 0), ("minus1", -1), ("huge", 10**12),
        ("float", 0.5), ("nan", math.nan), ("inf", math.inf), ("str", "x"), ("list", []), ("obj", {}),
        ("other", leaves[rng.randbelow(len(leaves))] if leaves else 0),
    ]
    if isinstance(old, bool):
        choices.append(("flip", not old))
    elif isinstance(old, (int, float)):
        choices += [("plus1", old + 1), ("minus1", old - 1), ("neg", -old)]
    elif isinstance(old, str):
        choices += [("suffix", old + "9"), ("empty", "")]
    structural: list[str] = ["delete"] if isinstance(parent, dict) else ["remove", "dup"]
    if isinstance(old, list) and old:
        structural += ["drop_first", "dup_first", "swap"]
    kind_i = rng.randbelow(len(choices) + len(structural))
    if kind_i < len(choices):
        name, value = choices[kind_i]
        parent[key] = copy.deepcopy(value)
    else:
        name = structural[kind_i - len(choices)]
        if name in {"delete", "remove"}:
            del parent[key]
        elif name == "dup":
            parent.insert(key, copy.deepcopy(old))
        elif name == "drop_first":
            old.pop(0)
        elif name == "dup_first":
            old.append(copy.deepcopy(old[0]))
        else:
            i, j = rng.randbelow(len(old)), rng.randbelow(len(old))
            old[i], old[j] = old[j], old[i]
    return f"{'.'.join(map(str, path))}: {name}", out


@dataclass
class Tally:
    loaded: int = 0
    refused: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.loaded + self.refused + len(self.failures)


def play_on(state: State, rng: Rng, steps: int = 6) -> None:
    """Use a loaded state as every caller would: views, legal actions, actions, time, JSON, validate."""
    for _ in range(steps):
        if state.is_over:
            break
        for seat in [None, *range(state.players)]:
            json.dumps(state.view(seat))
        for seat in state.to_act:
            state.legal_actions(seat)
        state.clone().to_json()
        if not state.to_act and state.next_deadline() is None:
            raise AssertionError("nobody may act and no deadline is pending")
        for seat in sorted(state.to_act):
            if not state.legal_actions(seat):
                raise AssertionError(f"seat {seat} may act but has no legal action")
        try:
            random_input(state, rng)
        except IllegalActionError as e:
            # A timer due exactly now fires before the action and may end the game: a refusal, not a crash.
            if not (e.code == "game_over" and state.is_over):
                raise
    state.validate()
    state.record()


def check(game: Game[Any], text: str, rng: Rng, tally: Tally, what: str = "") -> None:
    try:
        state = game.load_state(text)
    except StateFormatError as e:
        tally.refused += 1
        tally.codes[e.code] = tally.codes.get(e.code, 0) + 1
        return
    except Exception as e:
        tally.failures.append(f"load: {what}: {type(e).__name__}: {e}")
        return
    try:
        play_on(state, rng)
    except Exception as e:
        tally.failures.append(f"play on: {what}: {type(e).__name__}: {e}")
        return
    tally.loaded += 1


def run(game_id: str, mutations: int, seed: int = 0, games: int = 3, version: int = 2) -> Tally:
    """``mutations`` single-field mutations of reachable states of ``game_id`` (JSON format ``version``)."""
    snaps = reachable(game_id, games, seed, version=version)
    rng = Rng(derive_seed(seed, 7))
    tally = Tally()
    for _ in range(mutations):
        game, text = snaps[rng.randbelow(len(snaps))]
        what, obj = mutate(json.loads(text), rng)
        check(game, json.dumps(obj), rng, tally, what)
    return tally
