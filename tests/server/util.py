"""Test helpers: a real uvicorn server on 127.0.0.1 (in a thread or a subprocess) and a WebSocket client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cosmodeck.server import ServerConfig, create_app

ROOT = Path(__file__).resolve().parents[2]

# Options that make each game's timers short enough for a test (a "test mode" per game).
FAST_OPTIONS: dict[str, dict[str, Any]] = {
    "meteor": {"zone_timer_s": 1.5, "volley_window_s": 0.3, "countdown_s": 0.3, "one_handed_interval_s": 0.1},
    # rooms make a false catch cost a card (issue 12); the tests' random players catch at random, so their
    # games would drag on: free catches keep them short (tests of the penalty pass their own options)
    "blast-off": {"false_catch_penalty": 0},
    "shooting-star": {},
    "toy": {"tick": 0.5},
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_in_thread(config: ServerConfig) -> Iterator[str]:
    """A real uvicorn server for ``config`` on a free loopback port; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


def server_env() -> dict[str, str]:
    """The environment of a server subprocess: this checkout's sources first (not an installed copy)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}


class ServerProcess:
    """``cosmodeck serve`` (with the toy game registered) as a subprocess, so it can be killed with -9."""

    def __init__(self, db: str, port: int | None = None, grace: float = 30.0, bot_speed: float = 0.05,
                 log_level: str = "warning", log_path: Path | None = None, extra: tuple[str, ...] = ()) -> None:
        """``log_path``: the server's stdout and stderr go to this file (appended), else stderr is piped.
        ``extra``: more ``serve`` flags."""
        self.db = db
        self.log_level = log_level
        self.log_path = log_path
        self.port = port or free_port()
        self.grace = grace
        self.bot_speed = bot_speed
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "tests.server.serve_toy", "--port", str(self.port), "--db", self.db,
                "--grace", str(self.grace), "--bot-speed", str(self.bot_speed), "--log-level", self.log_level,
                "--room-rate", "", *self.extra]  # tests create many rooms from one address

    def start(self) -> None:
        if self.log_path is not None:
            with open(self.log_path, "ab") as out:
                self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=server_env(), stdout=out,
                                             stderr=subprocess.STDOUT)
        else:
            self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=server_env(), stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server exited: {err}")
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.1)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no shutdown code runs
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Ws:
    """A blocking WebSocket client that records every frame it receives."""

    def __init__(self, base: str, room: str, token: str | None = None, auth: bool = True) -> None:
        """Connect to ``/ws/ROOM`` and authenticate with ``token`` (None: a spectator) as the client does;
        ``auth=False`` sends nothing, for tests of the handshake itself.

        With ``auth``, the first frame (``hello``, or the refusal) is awaited before this returns, so the
        server has seated this client (and started the game if it was the last one) by then.
        """
        url = base.replace("http://", "ws://") + f"/ws/{room}"
        # No keepalive pings: tests kill servers under open clients (kill -9), and a client's ping thread would
        # then print a "keepalive ping failed" traceback long after its test; a dead server shows in recv().
        self.conn: ClientConnection = connect(url, open_timeout=10, max_size=None, ping_interval=None).__enter__()
        self.token = token
        self._pending: list[str] = []
        if auth:
            self.conn.send(json.dumps({"type": "auth", "token": token}))
            try:
                first = self.conn.recv(timeout=10)
            except ConnectionClosed:
                pass  # refused: recv() reports the close
            else:
                assert isinstance(first, str)
                self._pending.append(first)
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None  # the latest view message

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = self._pending.pop(0) if self._pending else self.conn.recv(timeout=timeout)
        assert isinstance(raw, str)
        self.frames.append(raw)
        msg: dict[str, Any] = json.loads(raw)
        self.messages.append(msg)
        if msg["type"] == "view":
            self.view = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        """Receive until a message satisfies ``pred``; return it."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout}s; last: {self.messages[-3:]}")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def view_at_least(self, version: int, timeout: float = 15.0) -> dict[str, Any]:
        if self.view is not None and self.view["version"] >= version:
            return self.view
        return self.until(lambda m: m["type"] == "view" and m["version"] >= version, timeout)

    def send(self, obj: Any) -> None:
        self.conn.send(obj if isinstance(obj, str) else json.dumps(obj))

    def act(self, action: str, version: int | None = None) -> None:
        assert self.view is not None or version is not None
        self.send({"type": "act", "action": action, "version": self.view["version"] if version is None and self.view
                   else version})

    def drain(self, quiet: float = 0.2) -> None:
        """Receive until nothing arrives for ``quiet`` seconds (0: only what has already arrived)."""
        while True:
            try:
                self.recv(quiet if quiet > 0 else 0.001)
            except TimeoutError:
                return

    def closed_code(self, timeout: float = 5.0) -> int | None:
        try:
            while True:
                self.recv(timeout)
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None

    def close(self) -> None:
        self.conn.close()


def create_room(base: str, game: str, players: int, bots: dict[str, str] | None = None,
                options: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, "bots": bots or {}, "options": options or {}}
    if seed is not None:
        body["seed"] = seed
    r = httpx.post(base + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def room_info(base: str, room: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/rooms/{room}", timeout=10)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out
