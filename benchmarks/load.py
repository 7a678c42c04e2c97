"""Load benchmark: N rooms of bot clients over real WebSockets on 127.0.0.1.

Starts ``cosmodeck serve`` as a subprocess (a fresh SQLite file, or ``--db URL``), then for each
level N keeps N rooms busy: every seat is a client in this process that acts like a player (a
random legal action after a think time) and a spectator watches each room. For every accepted
action it measures the time from sending it to each client of the room receiving the view of the
new version, and reports p50/p99 per level and the most rooms with p99 < 50 ms.

Not part of the test run. Example:

    .venv/bin/python benchmarks/load.py --levels 1,4,16,64,128 --duration 8

Network: loopback only; every loop is bounded by --duration per level and --max-seconds overall.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

TARGET_P99_MS = 50.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Level:
    rooms: int
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0


class RoomDriver:
    """One room: a client per seat (acting like a player) and a spectator; restarts when over."""

    def __init__(self, base: str, args: argparse.Namespace, level: Level, rng: random.Random, stop: float,
                 http: httpx.AsyncClient) -> None:
        self.http = http
        self.base = base
        self.args = args
        self.level = level
        self.rng = rng
        self.stop = stop
        self.sent: dict[int, float] = {}  # version this action should produce -> send time

    async def run(self) -> None:
        while time.monotonic() < self.stop:
            r = await self.http.post(self.base + "/api/rooms", json={
                "game": self.args.game, "players": self.args.players, "options": {}, "seed": self.rng.randrange(2**31)})
            r.raise_for_status()
            data = r.json()
            try:
                await self.play(data["room"], data["seats"])
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as e:
                key = f"client:{type(e).__name__}"
                self.level.errors[key] = self.level.errors.get(key, 0) + 1

    async def play(self, room: str, seats: dict[str, str]) -> None:
        ws_base = self.base.replace("http://", "ws://")
        conns = [await websockets.connect(f"{ws_base}/ws/{room}?token={tok}", max_size=None)
                 for tok in seats.values()]
        conns.append(await websockets.connect(f"{ws_base}/ws/{room}", max_size=None))
        self.sent = {}
        over = asyncio.Event()
        try:
            await asyncio.gather(*(self.client(c, i < len(seats), over) for i, c in enumerate(conns)))
        finally:
            for c in conns:
                await c.close()

    async def client(self, conn: Any, player: bool, over: asyncio.Event) -> None:
        plan: asyncio.Task[None] | None = None
        while not over.is_set() and time.monotonic() < self.stop:
            try:
                raw = await asyncio.wait_for(conn.recv(), timeout=max(0.05, min(2.0, self.stop - time.monotonic())))
            except TimeoutError:
                continue
            now = time.monotonic()
            msg = json.loads(raw)
            if msg["type"] == "error":
                self.level.errors[msg["code"]] = self.level.errors.get(msg["code"], 0) + 1
                continue
            if msg["type"] != "view":
                continue
            t0 = self.sent.get(msg["version"])
            if t0 is not None:
                self.level.latencies.append(now - t0)
            if msg["view"]["over"]:
                self.level.games_finished += player
                over.set()
                return
            if player and msg["status"] == "playing" and msg["legal"]:
                if plan is not None:
                    plan.cancel()
                plan = asyncio.create_task(self.act_later(conn, msg))

    async def act_later(self, conn: Any, msg: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.think)
        if time.monotonic() >= self.stop:
            return
        action = self.rng.choice(msg["legal"])
        self.sent[msg["version"] + 1] = time.monotonic()
        self.level.actions += 1
        await conn.send(json.dumps({"type": "act", "action": action, "version": msg["version"]}))


async def run_level(base: str, args: argparse.Namespace, rooms: int, seed: int) -> Level:
    level = Level(rooms)
    stop = time.monotonic() + args.duration
    rng = random.Random(seed)
    # one HTTP client for all rooms (each new client builds an SSL context: ~0.1 s of CPU)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        drivers = [RoomDriver(base, args, level, random.Random(rng.random()), stop, http) for _ in range(rooms)]
        await asyncio.gather(*(d.run() for d in drivers))
    return level


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="shooting-star")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--levels", default="1,4,16,32,64,128,256", help="numbers of rooms, comma-separated")
    ap.add_argument("--duration", type=float, default=8.0, help="seconds per level")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a client thinks before acting")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--max-seconds", type=float, default=600.0, help="stop after this long in total")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="cosmodeck-load-")
    db = args.db or os.path.join(tmp, "load.db")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "cosmodeck.cli.main", "serve", "--port", str(port),
                               "--db", db, "--log-level", "warning", "--room-rate", ""],  # many rooms from one address
                              stdout=subprocess.DEVNULL)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        for _ in range(100):
            try:
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        for i, n in enumerate(int(x) for x in args.levels.split(",")):
            if time.monotonic() - started + args.duration > args.max_seconds:
                break
            lv = asyncio.run(run_level(base, args, n, i))
            row = {"rooms": n, "clients": n * (args.players + 1), "actions": lv.actions,
                   "updates": len(lv.latencies), "p50_ms": round(pct(lv.latencies, 0.5), 2),
                   "p99_ms": round(pct(lv.latencies, 0.99), 2),
                   "mean_ms": round(statistics.fmean(lv.latencies) * 1000, 2) if lv.latencies else None,
                   "games_finished": lv.games_finished, "errors": lv.errors}
            results.append(row)
            if not args.json:
                print(f"{n:5d} rooms  {row['clients']:5d} clients  {lv.actions:6d} actions  "
                      f"p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms  errors {lv.errors}", flush=True)
            if row["p99_ms"] >= TARGET_P99_MS * 4:
                break
    finally:
        server.terminate()
        server.wait(10)
    ok = [r["rooms"] for r in results if r["p99_ms"] < TARGET_P99_MS]
    summary = {"game": args.game, "players": args.players, "think_s": args.think, "cores": os.cpu_count(),
               "levels": results, "max_rooms_p99_under_50ms": max(ok) if ok else 0}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"most rooms with p99 < {TARGET_P99_MS:.0f} ms: {summary['max_rooms_p99_under_50ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
