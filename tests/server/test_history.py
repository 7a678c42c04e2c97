"""A client that (re)joins gets the recent steps' events back (its log), redacted for its seat."""

from __future__ import annotations

from cosmodeck.server import ServerConfig
from tests.server.util import Ws, create_room, serve_in_thread


def test_a_rejoining_client_gets_recent_events_as_history_before_the_view(server: str) -> None:
    r = create_room(server, "toy", 2, options={"tick": 1000})
    a = Ws(server, r["room"], r["seats"]["0"])
    b = Ws(server, r["room"], r["seats"]["1"])
    a.view_at_least(0)
    b.view_at_least(0)
    a.act("add 2")
    b.view_at_least(1)
    b.act("add 1")
    a.view_at_least(2)
    b.close()
    b2 = Ws(server, r["room"], r["seats"]["1"])
    b2.view_at_least(2)
    kinds = [m["type"] for m in b2.messages]
    history = [m for m in b2.messages if m["type"] == "events"]
    assert [(m["version"], m["history"]) for m in history] == [(1, True), (2, True)]
    assert history[0]["events"] == [{"type": "add", "seat": 0, "amount": 2}]
    assert history[1]["events"] == [{"type": "add", "seat": 1, "amount": 1}]
    assert kinds.index("events") < kinds.index("view")  # the log is back before the board
    # live events are not marked as history
    a.act("add 1")
    live = b2.until(lambda m: m["type"] == "events" and m["version"] == 3)
    assert "history" not in live


def test_history_shows_a_hidden_card_only_to_its_owner(server: str) -> None:
    r = create_room(server, "shooting-star", 2)
    socks = {s: Ws(server, r["room"], r["seats"][str(s)]) for s in (0, 1)}
    first = None
    for s, ws in socks.items():
        v = ws.until(lambda m: m["type"] == "view" and m["status"] == "playing")
        if v["legal"]:
            first, action = s, v["legal"][0]
    assert first is not None
    socks[first].act(action)
    other = 1 - first
    socks[other].until(lambda m: m["type"] == "events")
    for s in (0, 1):
        socks[s].close()
        again = Ws(server, r["room"], r["seats"][str(s)])
        ev = again.until(lambda m: m["type"] == "events")
        assert ev["history"] is True
        place = next(e for e in ev["events"] if e["type"] == "place")
        assert ("card" in place) == (s == first), place
        again.close()


def test_after_a_restart_the_reloaded_room_resends_its_last_steps(db_path: str) -> None:
    config = ServerConfig(db=db_path, bot_speed=0.02, grace_s=30.0, event_history=2)
    with serve_in_thread(config) as base:
        r = create_room(base, "toy", 2, options={"tick": 1000})
        a = Ws(base, r["room"], r["seats"]["0"])
        b = Ws(base, r["room"], r["seats"]["1"])
        a.view_at_least(0)
        b.view_at_least(0)
        for i, amount in enumerate((1, 2, 1)):
            mover = a if i % 2 == 0 else b
            mover.view_at_least(i)  # it acts on the newest version it has seen
            mover.act(f"add {amount}")
            a.view_at_least(i + 1)
        a.close()
        b.close()
    with serve_in_thread(config) as base:  # a new server process loads the room from storage
        again = Ws(base, r["room"], r["seats"]["1"])
        again.view_at_least(3)
        history = [m for m in again.messages if m["type"] == "events"]
        assert [m["version"] for m in history] == [2, 3]  # only the last event_history steps
        assert all(m["history"] for m in history)
        assert history[-1]["events"] == [{"type": "add", "seat": 0, "amount": 1}]
        again.close()
