"""Shooting Star determinization: a full state from one seat's view, secrets re-drawn.

What the seat cannot see, and how it is re-drawn uniformly among the possibilities its view
allows (SHS-D2):
- each other seat's face-down card and hand: its unknown cards are the Destruction set minus
  the cards the view lists as ``used``; the face-down one is drawn from them;
- each other seat's missions: one of each value from the missions the seat does not hold;
  the rest is the box;
- the reserve: its *contents* are known (every planet not on the board, in a pile or in a
  planet hand); only which replacement comes next is hidden, so the RNG is drawn afresh;
- custom sector variant: the others' planet hands, drawn from the unseen planets.

The state is rebuilt through the game's own JSON format (``game.load_state``), so it is a
genuine ``ShootingStarState`` whatever the game's internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cosmodeck.bots.determinize import load_core
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.shooting_star.game import ShootingStarGame


def _kind(card: str) -> str:
    return card.rpartition(":")[2]


def determinize(game: ShootingStarGame, view: Mapping[str, Any], seat: int, rng: Rng) -> State:
    data = game.data
    players = int(view["players"])
    others = [s for s in range(players) if s != seat]
    cells = view["grid"]["cells"]
    board = [[c["x"], c["y"], c["planet"], 0 if c["level"] is None else c["level"]]
             for c in cells if c["planet"] is not None]
    seen: set[str] = {c["planet"] for c in cells if c["planet"] is not None}
    for pile in (*view["conquest"], *view["debris"]):
        seen.update(p for p in pile if ":" not in p)

    # hands and face-down cards
    placed_by = {p["seat"]: p for p in view["placed"]}
    hands: list[list[str]] = [[] for _ in range(players)]
    facedown: dict[int, str] = {}
    for h in view["hands"]:
        s = h["seat"]
        if s == seat:
            hands[s] = list(h["cards"])
            if s in placed_by:
                facedown[s] = _kind(placed_by[s]["card"])
            continue
        used = set(h["used"])
        unknown = [k for k in data.card_order if k not in used]
        if s in placed_by:
            pick = unknown[rng.randbelow(len(unknown))]
            facedown[s] = pick
            unknown.remove(pick)
        hands[s] = unknown
    placed = [[p["seat"], facedown[p["seat"]], p["cell"][0], p["cell"][1], p["orientation"]]
              for p in view["placed"]]

    # missions: mine are known; the others get one of each value from the rest
    mine = [m["id"] for m in (view["missions"][seat] or [])]
    missions: list[list[str]] = [[] for _ in range(players)]
    missions[seat] = mine
    box: list[str] = [] if mine else list(data.missions)  # none dealt yet (custom sector being built)
    if mine:
        for v in data.mission_values:
            pool = sorted(m.id for m in data.missions.values() if m.points == v and m.id not in mine)
            rng.shuffle(pool)
            for s in others:
                missions[s].append(pool.pop())
            box += pool

    # custom sector: my planet hand is known, the others' come from the unseen planets
    planet_hands: list[list[str]] = [[] for _ in range(players)]
    variant = view.get("planet_hands")
    if variant is not None:
        for ph in variant:
            if ph["seat"] == seat:
                planet_hands[seat] = list(ph["planets"])
                seen.update(ph["planets"])
    unseen = [p for p in data.planet_order if p not in seen]
    if variant is not None:
        rng.shuffle(unseen)
        order = {p: i for i, p in enumerate(data.planet_order)}
        for ph in variant:
            s = ph["seat"]
            if s != seat:
                planet_hands[s] = sorted((unseen.pop() for _ in range(ph["count"])), key=order.__getitem__)
    phase = view["phase"]
    core = {
        "factions": [f["id"] for f in view["factions"]],
        "shape": [] if phase == "sector" else [[c["x"], c["y"]] for c in cells],
        "phase": phase,
        "turn": view["turn"],
        "invader": view["invader"],
        "sector_next": -1 if view.get("sector_next") is None else view["sector_next"],
        "board": board,
        "placed": placed,
        "hands": hands,
        "conquest": view["conquest"],
        "debris": view["debris"],
        "reserve": sorted(unseen),
        "missions": missions,
        "box": sorted(box),
        "planet_hands": planet_hands,
        "forced": [],  # not in the view; it only narrows the variant's re-draw of planet hands
        "end": None,
    }
    return load_core(game, players, view["now"], rng.fork().state, core)
