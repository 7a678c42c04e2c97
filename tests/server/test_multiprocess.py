"""Issue 15: rooms sharded across several ``cosmodeck serve`` processes on one PostgreSQL database.

Each room is run by the process that holds its advisory lock (its lease); a client that reaches
another process is redirected to the owner; a process killed with -9 loses its rooms at once and
another resumes them from the event log within 5 s, with every acknowledged move kept.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cosmodeck.storage import Store
from tests.server.util import ServerProcess, Ws, create_room


def public(port_holder: ServerProcess) -> ServerProcess:
    port_holder.extra = ("--public-url", port_holder.base)
    return port_holder


@pytest.fixture
def pair(postgres_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    one, two = public(ServerProcess(postgres_url)), public(ServerProcess(postgres_url))
    one.start()
    two.start()
    try:
        yield one, two
    finally:
        one.stop()
        two.stop()


def owner(url: str, room: str) -> str | None:
    store = Store(url)
    try:
        return store.owner_url(room)
    finally:
        store.close()


def stored_steps(url: str, room: str) -> int:
    store = Store(url)
    try:
        return len(store.steps(room))
    finally:
        store.close()


def follow(base: str, room: str, token: str | None) -> tuple[Ws, list[dict[str, Any]]]:
    """Connect as the web client does: on a ``redirect`` frame, go to the server it names."""
    seen: list[dict[str, Any]] = []
    for _ in range(3):
        ws = Ws(base, room, token)
        first = ws.recv()
        if first["type"] != "redirect":
            return ws, seen
        seen.append(first)
        assert ws.closed_code() == 4302
        base = first["server"]
    raise AssertionError(f"redirected in a loop: {seen}")


def test_a_client_of_the_process_that_does_not_run_the_room_is_redirected_to_it(
        pair: tuple[ServerProcess, ServerProcess], postgres_url: str) -> None:
    one, two = pair
    r = create_room(one.base, "toy", 2, options={"tick": 1000})
    room = r["room"]
    assert owner(postgres_url, room) == one.base
    a, redirects = follow(two.base, room, r["seats"]["0"])  # seat 0 reaches the other process
    assert redirects == [{"type": "redirect", "room": room, "server": one.base}]
    b, none = follow(one.base, room, r["seats"]["1"])
    assert none == []
    a.act("add 2", 0)
    assert b.view_at_least(1)["view"]["adds"] == [2, 0]
    assert a.view_at_least(1)["view"]["secret"] is not None  # its own seat's view
    spectator, _ = follow(two.base, room, None)
    assert spectator.view_at_least(1)["view"]["adds"] == [2, 0]
    # the other process's own rooms are its own, and it sends their clients nowhere
    r2 = create_room(two.base, "toy", 2, options={"tick": 1000})
    c, none = follow(two.base, r2["room"], r2["seats"]["0"])
    assert none == [] and owner(postgres_url, r2["room"]) == two.base
    for ws in (a, b, spectator, c):
        ws.close()


def test_kill_9_of_one_process_mid_game_its_rooms_resume_on_the_other_within_5_s_nothing_lost(
        pair: tuple[ServerProcess, ServerProcess], postgres_url: str) -> None:
    one, two = pair
    rooms = [create_room(one.base, "toy", 2, options={"tick": 1000}) for _ in range(3)]
    acked: dict[str, list[int]] = {}
    for n, r in enumerate(rooms):
        a = Ws(one.base, r["room"], r["seats"]["0"])
        b = Ws(one.base, r["room"], r["seats"]["1"])
        a.act("add 1", 0)
        b.view_at_least(1)
        b.act(f"add {n % 2 + 1}")
        assert a.view_at_least(2)["view"]["adds"] == [1, n % 2 + 1]  # both moves acknowledged to everyone
        acked[r["room"]] = [1, n % 2 + 1]
        a.close()
        b.close()
    assert {owner(postgres_url, r["room"]) for r in rooms} == {one.base}

    one.kill9()
    killed = time.monotonic()
    waiting = {r["room"] for r in rooms}
    while waiting:
        waiting = {room for room in waiting if owner(postgres_url, room) != two.base}
        assert time.monotonic() - killed < 5.0, f"rooms {sorted(waiting)} not resumed within 5 s"
        time.sleep(0.05)
    took = time.monotonic() - killed

    for r in rooms:  # a client reconnecting (to the surviving process) finds every acknowledged move
        room = r["room"]
        a, redirects = follow(two.base, room, r["seats"]["0"])
        assert redirects == []
        view = a.view_at_least(2)
        assert view["version"] == 2 and view["view"]["adds"] == acked[room]
        a.act("add 1")
        assert a.view_at_least(3)["view"]["adds"] == [acked[room][0] + 1, acked[room][1]]
        assert stored_steps(postgres_url, room) == 3
        a.close()
    print(f"rooms resumed on the other process {took:.2f} s after kill -9")
    assert took < 5.0


def test_a_hung_process_loses_its_rooms_after_its_lease_and_cannot_write_them_when_it_wakes(
        postgres_url: str) -> None:
    one, two = public(ServerProcess(postgres_url)), public(ServerProcess(postgres_url))
    for p in (one, two):
        p.extra += ("--lease", "2")
    one.start()
    two.start()
    try:
        r = create_room(one.base, "toy", 2, options={"tick": 1000})
        room = r["room"]
        a = Ws(one.base, room, r["seats"]["0"])
        Ws(one.base, room, r["seats"]["1"]).close()  # both seats joined: the game starts
        a.act("add 2", 0)
        assert a.view_at_least(1)["view"]["adds"] == [2, 0]
        assert one.proc is not None
        one.proc.send_signal(signal.SIGSTOP)  # hung: its connections stay open, it renews nothing
        try:
            stopped = time.monotonic()
            while owner(postgres_url, room) != two.base:
                assert time.monotonic() - stopped < 2 + 5, "the hung process kept the room past its lease"
                time.sleep(0.1)
            b, _ = follow(two.base, room, r["seats"]["1"])
            assert b.view_at_least(1)["view"]["adds"] == [2, 0]
            b.act("add 1")
            assert b.view_at_least(2)["view"]["adds"] == [2, 1]
        finally:
            one.proc.send_signal(signal.SIGCONT)
        a.act("add 1", 1)  # the woken process's copy is out of date: it cannot store this move
        assert a.closed_code(10) == 1012
        assert any(m.get("code") == "room_moved" for m in a.messages)
        assert stored_steps(postgres_url, room) == 2
        assert owner(postgres_url, room) == two.base
    finally:
        one.stop()
        two.stop()
