"""Every registered game through the server: humans over WebSockets, bots, timers, no leaks."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest

import cosmodeck
from cosmodeck.storage import Store
from tests.server.util import FAST_OPTIONS, Ws, create_room

GAMES = cosmodeck.list_games()


def leaves(obj: Any) -> set[str]:
    """Every string in a JSON value (keys excluded)."""
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= leaves(v)
    return out


def keys(obj: Any) -> set[str]:
    """Every dict key in a JSON value."""
    out: set[str] = set()
    if isinstance(obj, dict):
        out |= set(obj)
        for v in obj.values():
            out |= keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= keys(v)
    return out


def carried(msg: Any, *schema: Any) -> set[str]:
    """The strings a frame carries: every value, and every key that is not a key of the views' schema
    (``schema``: views the receiver may see). A secret that is also a field name, such as the token
    ``colour`` next to a card's ``"colour"`` key, is not carried by the key."""
    known: set[str] = set()
    for v in schema:
        known |= keys(v)
    return leaves(msg) | (keys(msg) - known)


Seen = dict[int, dict[int | None, Any]]


def views_by_version(db: str, room: str, seats: list[int | None]) -> tuple[Seen, Seen]:
    """The engine's view of every seat after each stored step (version), and the events of that step
    addressed to each seat (its own private events), by replaying the steps once."""
    store = Store(db)
    try:
        row = store.room(room)
        steps = store.steps(room)
    finally:
        store.close()
    assert row is not None
    st = cosmodeck.load_game(row.game, **row.header["options"]).new_game(players=row.players, seed=row.seed)
    out = {0: {s: st.view(s) for s in seats}}
    seen: Seen = {0: {s: [] for s in seats}}
    for i, step in enumerate(steps, start=1):
        events = st.advance(step.at) if step.seat is None else st.apply(step.seat, step.action, at=step.at)
        out[i] = {s: st.view(s) for s in seats}
        seen[i] = {s: [e.for_seat(s) for e in events if s is not None and s in e.seats] for s in seats}
    return out, seen


CHATTER = ("announce", "catch", "emote", "signal", "chat", "gesture")


def pick(legal: list[str], rng: random.Random) -> str:
    """A random legal action; mostly moves that advance the game rather than talk, calls or pauses."""
    moves = [a for a in legal if not a.startswith(CHATTER) and a != "time_out"]
    calm = [a for a in legal if a != "time_out"] or legal  # nobody pauses the game in these tests
    return rng.choice(moves if moves and rng.random() < 0.9 else calm)


def play_randomly(clients: list[Ws], watchers: list[Ws], rng: random.Random, timeout: float) -> None:
    """Each client acts at random on its latest view until the game is over."""
    end = time.monotonic() + timeout
    while True:
        assert time.monotonic() < end, "the game did not end in time"
        for ws in clients + watchers:
            ws.drain(0.0 if ws.view is not None else 0.05)
        if all(ws.view is not None and ws.view["view"]["over"] for ws in clients):
            return
        for ws in clients:
            v = ws.view
            if v is not None and v["legal"] and rng.random() < 0.5:
                ws.act(pick(v["legal"], rng))
        time.sleep(0.01)


@pytest.mark.parametrize("game", [g for g in GAMES if g != "toy"])
def test_two_humans_play_a_whole_game_and_nothing_hidden_leaks(game: str, server: str, db_path: str) -> None:
    info = cosmodeck.load_game(game).info
    players = max(2, info.min_players)
    r = create_room(server, game, players, options=FAST_OPTIONS.get(game, {}))  # a seed drawn by the server
    clients = [Ws(server, r["room"], r["seats"][str(s)]) for s in range(players)]
    spectator = Ws(server, r["room"])
    play_randomly(clients, [spectator], random.Random(3), timeout=150)
    spectator.view_at_least(clients[0].view["version"] if clients[0].view else 0)
    # every view is exactly the engine's view of that seat at that version, and no frame carries
    # a string that only another seat may see at that version
    checked = 0
    seats: list[int | None] = [*range(players), None]
    views, events = views_by_version(db_path, r["room"], seats)
    for seat, ws in [*enumerate(clients), (None, spectator)]:
        version = 0
        for raw, msg in zip(ws.frames, ws.messages, strict=True):
            if msg["type"] not in ("view", "events"):
                continue
            version = msg["version"]
            at = views[version]
            if msg["type"] == "view":
                assert msg["view"] == json.loads(json.dumps(at[seat]))
            if at[None]["over"]:
                continue
            # an event addressed to the seat is its own (an obligation of its own raised and lapsed
            # within one late timer step, say), even where its view no longer shows it
            visible = leaves(at[seat]) | leaves(at[None]) | leaves(events[version][seat])
            sent = carried(json.loads(raw), at[seat], at[None])
            for other in range(players):
                if other == seat:
                    continue
                for secret in leaves(at[other]) - visible:
                    assert secret not in sent, f"seat {seat} received {secret!r} of seat {other}"
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("game", GAMES)
def test_bots_play_a_whole_game_and_the_record_replays(game: str, server: str) -> None:
    info = cosmodeck.load_game(game).info
    players = max(2, info.min_players)
    r = create_room(server, game, players, bots={str(s): "random:median_s=0.5" for s in range(players)},
                    options=FAST_OPTIONS.get(game, {}), seed=11)
    assert r["seats"] == {}
    spectator = Ws(server, r["room"])
    end = spectator.until(lambda m: m["type"] == "view" and m["view"]["over"], timeout=120)
    record = httpx.get(f"{server}/api/rooms/{r['room']}/record").json()
    final = cosmodeck.replay(record)
    assert final.is_over
    assert json.loads(json.dumps(final.view(None))) == end["view"]
