"""Load benchmark: N rooms of bot clients over real WebSockets on 127.0.0.1.

Starts ``cosmodeck serve`` as a subprocess (a fresh SQLite file, or ``--db URL``), or ``--servers N``
processes sharing one PostgreSQL database, then for each level N keeps N rooms busy: every seat is a
client in this process (the load generator, a process of its own; ``--clients K``: K of them) that acts
like a player (a random legal action after a think time) and a spectator watches each room. For every accepted action it
measures the time from sending it to each client of the room receiving the view of the new version,
and reports p50/p99 per level and the most rooms with p99 < 50 ms. The first ``--warmup`` seconds of
a level (rooms being created and joined) are not measured.

With several processes, room i is created on process i mod N, and ``--connect any`` makes every client
connect to a random process: one that does not run the room sends a ``redirect`` frame, which the
client follows (docs/SERVER.md, "Several server processes").

Not part of the test run. Examples:

    .venv/bin/python benchmarks/load.py --levels 64,128,256 --duration 10
    .venv/bin/python benchmarks/load.py --pg --compare 1,2 --levels 128,192,256,320,384
    .venv/bin/python benchmarks/load.py --src ../main/src,src --levels 64,128 --duration 15 --repeat 2
    .venv/bin/python benchmarks/load.py --levels 128 --duration 20 --profile /tmp/load

Each level also reports the server's CPU time after the warm-up (from /proc: all threads, the main
thread, kernel time) per accepted action and per frame received, and this process's own CPU time: on a
shared machine wall-clock latency measures the neighbours too, CPU per action does not. ``--src A,B``
measures each level on each source tree in turn (an A/B in one run); ``--profile PREFIX`` runs the server
under cProfile (the main thread's CPU time as its clock) and writes PREFIX-N.prof when it stops;
``--stalls PREFIX`` prints, per level, every process's garbage collections, event-loop lags over 10 ms
(and whether the loop was busy or the process was not running: the neighbours) and database calls over
2 ms (``stallwatch.py``).

The load generator's own pauses count as the server's latency (a frame that arrives while its loop is
stalled is stamped late), so it runs on uvloop with its collector off during a level's measured window
(collected between levels); ``--client-gc on --client-loop asyncio`` measures as before.
``--clients K`` splits each level's rooms over K load generator processes (``load.py --worker``, room i
in process i mod K, all starting at the same moment, each running its rooms exactly as one process would);
their raw latency samples are merged before the percentiles, their CPU seconds summed (each shown), and
``--stalls`` prints a line per generator process. One process handling every socket was the busiest
process at 256 rooms, its own loop's bursts counted as the server's latency. A generator process that
fails or does not answer in time fails the run with its error output.

Network: loopback only; every loop is bounded by --duration per level and --max-seconds overall.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

try:  # installed with uvicorn[standard] (not on Windows)
    import uvloop
except ImportError:  # pragma: no cover
    uvloop = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stallwatch

TARGET_P99_MS = 50.0
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Level:
    rooms: int
    measure_from: float
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    redirects: int = 0
    frames: int = 0  # frames the clients received (all of them, from the level's start)
    wall_from: float = 0.0  # the measured window in wall-clock time (for the --stalls records)
    wall_to: float = 0.0
    # at the end of the warm-up: (server CPU, its main thread's, its kernel time, this process's CPU, actions, frames)
    warm: tuple[float, float, float, float, int, int] | None = None
    # with --clients K > 1: each generator process's CPU after the warm-up, --stalls records and measured window
    generator_cpu: list[float] | None = None
    generator_stalls: list[list[list[Any]]] = field(default_factory=list)
    generator_windows: list[tuple[float, float]] = field(default_factory=list)

    def snapshot(self) -> tuple[float, float, float, float, int, int]:
        return (cpu_seconds(SERVER_PIDS), main_thread_cpu(SERVER_PIDS), system_cpu(SERVER_PIDS), time.process_time(),
                self.actions, self.frames)

    def error(self, key: str) -> None:
        self.errors[key] = self.errors.get(key, 0) + 1


def ws_url(base: str, room: str) -> str:
    return base.replace("https://", "wss://").replace("http://", "ws://") + f"/ws/{room}"


class RoomDriver:
    """One room: a client per seat (acting like a player) and a spectator; restarts when over."""

    def __init__(self, bases: list[str], home: str, args: argparse.Namespace, level: Level, rng: random.Random,
                 stop: float, http: httpx.AsyncClient) -> None:
        self.http = http
        self.bases = bases
        self.home = home  # the process this room is created on
        self.args = args
        self.level = level
        self.rng = rng
        self.stop = stop
        self.sent: dict[int, float] = {}  # version this action should produce -> send time

    async def run(self) -> None:
        while time.monotonic() < self.stop:
            try:
                r = await self.http.post(self.home + "/api/rooms", json={
                    "game": self.args.game, "players": self.args.players, "options": {}})
                r.raise_for_status()
            except httpx.HTTPError as e:  # e.g. a kept-alive connection the server closed meanwhile
                self.level.error(f"create:{type(e).__name__}")
                await asyncio.sleep(0.1)
                continue
            data = r.json()
            try:
                await self.play(data["room"], data["seats"])
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as e:
                self.level.error(f"client:{type(e).__name__}")

    async def connect(self, room: str, token: str | None) -> tuple[Any, str]:
        """A socket to the room, authenticated; follows one ``redirect`` to the process that runs it.
        Returns the socket and its first frame."""
        base = self.home if self.args.connect == "owner" else self.rng.choice(self.bases)
        for _ in range(3):
            conn = await websockets.connect(ws_url(base, room), max_size=None)
            await conn.send(json.dumps({"type": "auth", "token": token}))
            first = await conn.recv()
            msg = json.loads(first)
            if msg["type"] != "redirect":
                return conn, first
            self.level.redirects += 1
            await conn.close()
            base = msg["server"]
        raise TimeoutError("too many redirects")

    async def play(self, room: str, seats: dict[str, str]) -> None:
        tokens: list[str | None] = [*seats.values(), None]  # the last one: a spectator
        conns: list[tuple[Any, str]] = []
        try:
            for tok in tokens:
                conns.append(await self.connect(room, tok))
            self.sent = {}
            over = asyncio.Event()
            await asyncio.gather(*(self.client(c, first, i < len(seats), over)
                                   for i, (c, first) in enumerate(conns)))
        finally:
            for c, _ in conns:
                await c.close()

    async def client(self, conn: Any, first: str, player: bool, over: asyncio.Event) -> None:
        plan: asyncio.Task[None] | None = None
        pending: list[str] = [first]
        while not over.is_set() and time.monotonic() < self.stop:
            if pending:
                raw = pending.pop()
            else:
                try:
                    raw = await asyncio.wait_for(conn.recv(),
                                                 timeout=max(0.05, min(2.0, self.stop - time.monotonic())))
                except TimeoutError:
                    continue
            now = time.monotonic()
            self.level.frames += 1
            msg = orjson.loads(raw)
            if msg["type"] == "error":
                self.level.error(msg["code"])
                continue
            if msg["type"] != "view":
                continue
            t0 = self.sent.get(msg["version"])
            if t0 is not None and t0 >= self.level.measure_from:
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


async def run_level(bases: list[str], args: argparse.Namespace, rooms: int, seed: int,
                    share: tuple[int, int] = (0, 1), start: float | None = None) -> Level:
    """Level ``rooms`` in this process: the rooms ``i`` with ``i % share[1] == share[0]`` (all of them by
    default), starting at ``start`` (``time.monotonic()``, the same clock in every process; default now)."""
    start = time.monotonic() if start is None else start
    level = Level(rooms, measure_from=start + args.warmup)
    stop = start + args.duration
    rng = random.Random(seed)
    seeds = [rng.random() for _ in range(rooms)]  # room i's seed whichever process runs it
    # one HTTP client for all rooms (each new client builds an SSL context: ~0.1 s of CPU)
    limits = httpx.Limits(max_connections=64)
    async def warmed() -> None:
        await asyncio.sleep(max(0.0, start + args.warmup - time.monotonic()))
        if args.client_gc == "off":  # no collection pauses in the measured window (collected after it)
            gc.disable()
        level.warm = level.snapshot()
        level.wall_from = time.time()

    lags = asyncio.ensure_future(WATCH.lag_monitor()) if args.stalls else None

    await asyncio.sleep(max(0.0, start - time.monotonic()))
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        drivers = [RoomDriver(bases, bases[i % len(bases)], args, level, random.Random(seeds[i]), stop, http)
                   for i in range(rooms) if i % share[1] == share[0]]
        await asyncio.gather(warmed(), *(d.run() for d in drivers))
    level.wall_to = time.time()
    gc.enable()
    if lags is not None:
        lags.cancel()
    return level


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))] * 1000


class GeneratorFailed(Exception):
    """A load generator process (``--clients K``) failed or did not answer in time."""


def part_result(level: Level, cpu_s: float, records: list[list[Any]]) -> dict[str, Any]:
    """What a generator process of ``--clients K`` reports for its share of a level (JSON): its raw
    latency samples, counters, its CPU seconds after the warm-up and its ``--stalls`` records."""
    warm = level.warm if level.warm is not None else (0.0, 0.0, 0.0, 0.0, 0, 0)
    return {"latencies": level.latencies, "actions": level.actions, "errors": level.errors,
            "games_finished": level.games_finished, "redirects": level.redirects, "frames": level.frames,
            "warm_actions": warm[4], "warm_frames": warm[5], "wall_from": level.wall_from,
            "wall_to": level.wall_to, "cpu_s": cpu_s,
            "stalls": [r for r in records if level.wall_from <= r[0] < level.wall_to]}


def merge_parts(rooms: int, measure_from: float, parts: list[dict[str, Any]]) -> Level:
    """One level from its generator processes' results: the raw latency samples of all of them in one
    list (percentiles are taken over the merged samples, never averaged), counters and errors summed,
    each process's CPU seconds kept (``generator_cpu``). ``warm`` holds the summed actions and frames at
    the end of the warm-up; the caller fills in the servers' CPU."""
    level = Level(rooms, measure_from=measure_from)
    for part in parts:
        level.latencies.extend(part["latencies"])
        level.actions += part["actions"]
        level.games_finished += part["games_finished"]
        level.redirects += part["redirects"]
        level.frames += part["frames"]
        for key, n in part["errors"].items():
            level.errors[key] = level.errors.get(key, 0) + n
    level.warm = (0.0, 0.0, 0.0, 0.0, sum(p["warm_actions"] for p in parts), sum(p["warm_frames"] for p in parts))
    level.generator_cpu = [p["cpu_s"] for p in parts]
    level.generator_stalls = [p["stalls"] for p in parts]
    level.generator_windows = [(p["wall_from"], p["wall_to"]) for p in parts]
    return level


async def run_level_spread(bases: list[str], args: argparse.Namespace, rooms: int, seed: int) -> Level:
    """Level ``rooms`` with its rooms split over ``args.clients`` generator processes (``load.py --worker``,
    room i in process i mod K), all starting at the same moment; merges their results (``merge_parts``).
    A process that exits with an error, or does not answer in time, fails the run with its error output."""
    k = args.clients
    spec = {"bases": bases, "args": vars(args), "rooms": rooms, "seed": seed, "parts": k}
    procs: list[asyncio.subprocess.Process] = []

    async def fail(j: int, proc: asyncio.subprocess.Process, what: str) -> GeneratorFailed:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 5)
        err = b""
        if proc.stderr is not None:
            with contextlib.suppress(TimeoutError):
                err = await asyncio.wait_for(proc.stderr.read(), 5)
        tail = err.decode(errors="replace").strip()[-3000:]
        return GeneratorFailed(f"load generator process {j} of {k} {what} (exit code {proc.returncode})"
                               + (f":\n{tail}" if tail else ""))

    async def ready(j: int, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if line.strip() != b"ready":
            raise await fail(j, proc, "failed at start-up")

    async def finish(j: int, proc: asyncio.subprocess.Process) -> dict[str, Any]:
        out, err = await proc.communicate()
        lines = out.decode().strip().splitlines()
        if proc.returncode != 0 or not lines:
            tail = err.decode(errors="replace").strip()[-3000:]
            raise GeneratorFailed(f"load generator process {j} of {k} failed (exit code {proc.returncode})"
                                  + (f":\n{tail}" if tail else ""))
        if err.strip():
            sys.stderr.write(err.decode(errors="replace"))
        result: dict[str, Any] = json.loads(lines[-1])
        return result

    try:
        for j in range(k):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(Path(__file__).resolve()), "--worker", stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            procs.append(proc)
            assert proc.stdin is not None
            proc.stdin.write(orjson.dumps({**spec, "part": j}) + b"\n")
            await proc.stdin.drain()
        try:
            await asyncio.wait_for(asyncio.gather(*(ready(j, p) for j, p in enumerate(procs))), 120)
        except TimeoutError:
            raise GeneratorFailed(f"a load generator process did not start within 120 s (of {k})") from None
        start = time.monotonic() + 0.2
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(f"{start!r}\n".encode())
            await proc.stdin.drain()
        servers_warm: list[tuple[float, float, float, float]] = []
        wall: list[float] = []

        async def warmed() -> None:
            await asyncio.sleep(max(0.0, start + args.warmup - time.monotonic()))
            servers_warm.append((cpu_seconds(SERVER_PIDS), main_thread_cpu(SERVER_PIDS), system_cpu(SERVER_PIDS),
                                 time.process_time()))
            wall.append(time.time())

        try:
            parts = await asyncio.wait_for(
                asyncio.gather(warmed(), *(finish(j, p) for j, p in enumerate(procs))), args.duration + 120)
        except TimeoutError:
            raise GeneratorFailed(f"the load generator processes did not finish within {args.duration + 120:.0f} "
                                  "s of the level's start") from None
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    level = merge_parts(rooms, start + args.warmup, parts[1:])
    assert level.warm is not None
    level.warm = (*servers_warm[0], level.warm[4], level.warm[5])
    level.wall_from, level.wall_to = wall[0], time.time()
    return level


def worker() -> int:
    """``load.py --worker``: one generator process of ``--clients K``. Reads its share of a level (JSON) on
    stdin, prints ``ready``, waits for the start time (``time.monotonic()``) on stdin, runs its rooms and
    prints its result (``part_result``) as one JSON line."""
    spec = json.loads(sys.stdin.readline())
    args = argparse.Namespace(**spec["args"])
    if args.stalls:
        WATCH.install()
    print("ready", flush=True)
    start = float(sys.stdin.readline())
    with asyncio.Runner(loop_factory=LOOPS[args.client_loop]) as runner:
        lv = runner.run(run_level(spec["bases"], args, spec["rooms"], spec["seed"], (spec["part"], spec["parts"]),
                                  start))
    gc.collect()
    warm_cpu = lv.warm[3] if lv.warm is not None else 0.0
    sys.stdout.write(orjson.dumps(part_result(lv, time.process_time() - warm_cpu, WATCH.records)).decode() + "\n")
    return 0


# ``python -c PROFILED OUT -m cosmodeck.cli.main serve ...``: the server under cProfile, writing OUT when it
# stops. uvicorn re-raises SIGTERM once it has shut down; the handler set here (restored by uvicorn) dumps then.
PROFILED = """
import cProfile, runpy, signal, sys, time
out = sys.argv[1]
sys.argv = sys.argv[3:]
prof = cProfile.Profile(time.thread_time)  # CPU time of the main thread, not wall time
def stop(*_):
    prof.disable()
    prof.dump_stats(out)
    raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
prof.enable()
try:
    runpy.run_module("cosmodeck.cli.main", run_name="__main__")
finally:
    prof.disable()
    prof.dump_stats(out)
"""


def _stat_cpu(path: str, system_only: bool = False) -> float:
    try:
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[12]) if system_only else int(fields[11]) + int(fields[12])  # stime, or utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def system_cpu(pids: list[int]) -> float:
    """CPU seconds the processes ``pids`` have spent in the kernel (sockets, the database file)."""
    return sum(_stat_cpu(f"/proc/{pid}/stat", True) for pid in pids)


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes ``pids`` have used so far (Linux: /proc/PID/stat)."""
    return sum(_stat_cpu(f"/proc/{pid}/stat") for pid in pids)


def main_thread_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes' main threads alone (the event loop; the rest: the database thread
    and worker threads)."""
    return sum(_stat_cpu(f"/proc/{pid}/task/{pid}/stat") for pid in pids)


@contextlib.contextmanager
def servers(count: int, db: str, src: Path | None = None, profile: str | None = None,
            stalls: str | None = None) -> Iterator[list[str]]:
    """``count`` server processes on ``db`` (each its own port and public URL); yields their base URLs.

    ``src``: the source tree the servers run (default: this checkout's ``src``); ``profile``: a path
    prefix: each server runs under cProfile and writes PREFIX-N.prof when it stops; ``stalls``: a path
    prefix: each server records its collections and event-loop lags in PREFIX-N.jsonl (``stallwatch``).
    The processes' ids are in ``SERVER_PIDS`` meanwhile (for their CPU time), the stall files in
    ``STALL_FILES``."""
    procs: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    tree = src if src is not None else ROOT / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")])}
    try:
        for n in range(count):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            if profile:
                head = ["-c", PROFILED, f"{profile}-{n}.prof", "-m"]
            elif stalls:
                out = f"{stalls}-{n}.jsonl"
                with contextlib.suppress(FileNotFoundError):
                    os.remove(out)
                STALL_FILES.append(out)
                head = ["-c", stallwatch.SERVE_WATCHED, out, str(Path(stallwatch.__file__).parent)]
            else:
                head = ["-m"]
            cmd = [sys.executable, *head, "cosmodeck.cli.main", "serve", "--port", str(port), "--db", db,
                   "--log-level", "warning", "--room-rate", ""]  # many rooms from one address
            if count > 1:
                cmd += ["--public-url", base]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env))
            bases.append(base)
            if n == 0:  # the first creates the tables of a new database (servers before session 24 could
                _ready(base, procs[0])  # fail when two did that at once); the others start together
        for base, proc in zip(bases, procs, strict=True):
            _ready(base, proc)
        SERVER_PIDS[:] = [p.pid for p in procs]
        yield bases
    finally:
        SERVER_PIDS.clear()
        STALL_FILES.clear()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)


def _ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit("a server exited at start-up")
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


LOOPS: dict[str, Callable[[], asyncio.AbstractEventLoop] | None] = {
    "asyncio": None, **({"uvloop": uvloop.new_event_loop} if uvloop is not None else {})}
SERVER_PIDS: list[int] = []  # the servers this script started (empty with --url)
STALL_FILES: list[str] = []  # with --stalls: each server's records
WATCH = stallwatch.Watch()  # with --stalls: this process's collections and event-loop lags


def sweep(bases: list[str], args: argparse.Namespace, started: float, label: str) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for i, n in enumerate(int(x) for x in args.levels.split(",")):
        if time.monotonic() - started + args.duration > args.max_seconds:
            break
        with asyncio.Runner(loop_factory=LOOPS[args.client_loop]) as runner:
            lv = runner.run(run_level(bases, args, n, i) if args.clients == 1 else
                            run_level_spread(bases, args, n, i))
        gc.collect()
        # CPU after the warm-up (rooms created, code loaded) per action and frame after it
        end = lv.snapshot()
        warm = lv.warm if lv.warm is not None else (0.0, 0.0, 0.0, 0.0, 0, 0)
        cpu_all, loop_all, kernel, own = (end[k] - warm[k] for k in range(4))
        if lv.generator_cpu is not None:  # --clients K: the generator processes' CPU, not this one's
            own = sum(lv.generator_cpu)
        cpu = cpu_all if SERVER_PIDS else None
        loop_cpu = loop_all if SERVER_PIDS else None
        warm_actions, warm_frames = end[4] - warm[4], end[5] - warm[5]
        row = {"processes": len(bases), "rooms": n, "clients": n * (args.players + 1), "actions": lv.actions,
               "updates": len(lv.latencies), "p50_ms": round(pct(lv.latencies, 0.5), 2),
               "p99_ms": round(pct(lv.latencies, 0.99), 2),
               "mean_ms": round(statistics.fmean(lv.latencies) * 1000, 2) if lv.latencies else None,
               "games_finished": lv.games_finished, "redirects": lv.redirects, "errors": lv.errors,
               "frames": lv.frames, "server_cpu_s": None if cpu is None else round(cpu, 2),
               "server_main_thread_cpu_s": None if loop_cpu is None else round(loop_cpu, 2),
               "server_system_cpu_s": round(kernel, 2) if SERVER_PIDS else None,
               "load_generator_cpu_s": round(own, 2), "load_generator_processes": args.clients,
               "load_generator_cpu_s_each": [round(own, 2)] if lv.generator_cpu is None
               else [round(c, 2) for c in lv.generator_cpu],
               "actions_after_warmup": warm_actions, "frames_after_warmup": warm_frames,
               "server_cpu_ms_per_action": None if cpu is None or not warm_actions
               else round(cpu / warm_actions * 1e3, 3),
               "server_cpu_us_per_frame": None if cpu is None or not warm_frames else round(cpu / warm_frames * 1e6, 1)}
        results.append(row)
        if not args.json:
            cpu_text = "" if cpu is None else (f"  server CPU {cpu:6.2f} s (main thread {loop_cpu:.2f} s, "
                                               f"kernel {kernel:.2f} s) = "
                                               f"{row['server_cpu_ms_per_action']} ms/action, "
                                               f"{row['server_cpu_us_per_frame']} us/frame")
            if lv.generator_cpu is None:
                cpu_text += f"  load generator CPU {own:.2f} s (CPU: after the warm-up)"
            else:
                each = " + ".join(f"{c:.2f}" for c in lv.generator_cpu)
                cpu_text += f"  load generators' CPU {own:.2f} s ({each}) (CPU: after the warm-up)"
            print(f"{label}{n:5d} rooms  {row['clients']:5d} clients  {lv.actions:6d} actions  {lv.frames:7d} frames  "
                  f"p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms  redirects {lv.redirects}  "
                  f"errors {lv.errors}{cpu_text}", flush=True)
        if args.stalls:
            time.sleep(0.6)  # the servers write their records every half second
            for k, path in enumerate(STALL_FILES):
                text = stallwatch.summary(stallwatch.read(path), lv.wall_from, lv.wall_to)
                print(f"    stalls, server {k}: {text}", flush=True)
            if lv.generator_cpu is None:
                print(f"    stalls, load generator: {stallwatch.summary(WATCH.records, lv.wall_from, lv.wall_to)}",
                      flush=True)
            for k, (records, (w0, w1)) in enumerate(zip(lv.generator_stalls, lv.generator_windows, strict=True)):
                print(f"    stalls, load generator {k}: {stallwatch.summary(records, w0, w1)}", flush=True)
        if not row["p99_ms"] < TARGET_P99_MS * 4 and not args.all_levels:
            break
    return results


def best(results: list[dict[str, Any]]) -> int:
    ok = [r["rooms"] for r in results if r["p99_ms"] < TARGET_P99_MS]
    return max(ok) if ok else 0


@contextlib.contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    if args.pg:
        sys.path.insert(0, str(ROOT))
        from tests.pg import fresh_database, postgres_server

        with postgres_server() as admin:
            yield fresh_database(admin)
        return
    if args.db:
        yield args.db
        return
    yield os.path.join(tempfile.mkdtemp(prefix="cosmodeck-load-"), "load.db")


def ab(args: argparse.Namespace, trees: list[Path], started: float) -> int:
    """Each level on each tree in turn (a fresh server and database each time), ``--repeat`` rounds;
    prints the server's CPU per action and per frame for each tree, and the ratios to the first."""
    totals: dict[Path, dict[int, list[float]]] = {t: {} for t in trees}  # tree -> rooms -> [cpu, actions, frames]
    levels = [int(x) for x in args.levels.split(",")]
    rows: list[dict[str, Any]] = []
    for rnd in range(args.repeat):
        for n in levels:
            for tree in trees if rnd % 2 == 0 else list(reversed(trees)):
                if time.monotonic() - started + args.duration > args.max_seconds:
                    break
                prof = f"{args.profile}-{trees.index(tree)}-r{rnd}-n{n}" if args.profile else None
                stalls = f"{args.stalls}-{trees.index(tree)}" if args.stalls else None
                with database(args) as db, servers(1, db, tree, prof, stalls) as bases:
                    one = argparse.Namespace(**{**vars(args), "levels": str(n), "all_levels": True})
                    row = sweep(bases, one, started, f"{tree}: ")[0]
                row["tree"] = str(tree)
                rows.append(row)
                acc = totals[tree].setdefault(n, [0.0, 0.0, 0.0])
                acc[0] += row["server_cpu_s"] or 0.0
                acc[1] += row["actions_after_warmup"]
                acc[2] += row["frames_after_warmup"]
    if args.json:
        print(json.dumps({"ab": rows}))
        return 0
    first = trees[0]
    for n in levels:
        for tree in trees:
            cpu, actions, frames = totals[tree].get(n, [0.0, 0.0, 0.0])
            if not actions or not frames:
                continue
            line = (f"{n:5d} rooms  {tree}: {cpu / actions * 1e3:7.3f} ms CPU/action  "
                    f"{cpu / frames * 1e6:7.1f} us CPU/frame")
            base = totals[first].get(n)
            if tree != first and base and base[1] and cpu:
                line += f"  ({(base[0] / base[1]) / (cpu / actions):.2f}x less CPU per action than {first})"
            print(line)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="shooting-star")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--levels", default="1,4,16,32,64,128,256", help="numbers of rooms, comma-separated")
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per level")
    ap.add_argument("--warmup", type=float, default=2.0,
                    help="seconds at the start of each level that are not measured (rooms being created)")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a client thinks before acting")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL server and use it")
    ap.add_argument("--servers", type=int, default=1, help="server processes sharing the database (>1: PostgreSQL)")
    ap.add_argument("--compare", default=None,
                    help="process counts to measure one after the other, e.g. 1,2 (fresh database each)")
    ap.add_argument("--url", default=None, help="use running servers (comma-separated base URLs) instead")
    ap.add_argument("--connect", choices=("owner", "any"), default="owner",
                    help="clients connect to the process that created the room, or to any (following redirects)")
    ap.add_argument("--all-levels", action="store_true",
                    help="run every level (by default a level whose p99 is over 4x the target ends the sweep)")
    ap.add_argument("--max-seconds", type=float, default=900.0, help="stop after this long in total")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--src", default=None,
                    help="source trees the servers run, comma-separated (default: this checkout's src); with "
                         "several, each level is measured on each tree in turn (an A/B in one run)")
    ap.add_argument("--repeat", type=int, default=1, help="with several --src trees: rounds (alternating order)")
    ap.add_argument("--profile", default=None,
                    help="path prefix: run the servers under cProfile, each writing PREFIX[-TREE]-N.prof at the end")
    ap.add_argument("--client-gc", choices=("on", "off"), default="off",
                    help="this process's garbage collector during a level's measured window (default off: "
                         "collected between levels; on, its pauses of up to 100 ms were counted as the server's)")
    ap.add_argument("--client-loop", choices=tuple(LOOPS), default="uvloop" if "uvloop" in LOOPS else "asyncio",
                    help="this process's event loop (default uvloop where installed: less CPU than asyncio's)")
    ap.add_argument("--stalls", default=None,
                    help="path prefix: record every garbage collection and event-loop lag over 10 ms of the "
                         "servers (PREFIX-N.jsonl) and of this process, and print a summary per level "
                         "(benchmarks/stallwatch.py)")
    ap.add_argument("--clients", type=int, default=1,
                    help="load generator processes: a level's rooms are split over K processes (room i in process "
                         "i mod K), their latency samples merged before the percentiles (default 1: this process)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # one of --clients K's processes
    args = ap.parse_args()
    if args.worker:
        return worker()
    if args.clients < 1:
        ap.error("--clients must be at least 1")
    if args.stalls:
        WATCH.install()

    try:
        return measure(args)
    except GeneratorFailed as e:
        print(f"load.py: {e}", file=sys.stderr)
        return 1


def measure(args: argparse.Namespace) -> int:
    started = time.monotonic()
    runs: dict[int, list[dict[str, Any]]] = {}
    trees = [Path(t).resolve() for t in args.src.split(",")] if args.src else []
    if len(trees) > 1:
        return ab(args, trees, started)
    tree = trees[0] if trees else None
    if args.url:
        bases = args.url.split(",")
        runs[len(bases)] = sweep(bases, args, started, "")
    else:
        counts = [int(x) for x in args.compare.split(",")] if args.compare else [args.servers]
        for count in counts:
            with database(args) as db, servers(count, db, tree, args.profile, args.stalls) as bases:
                runs[count] = sweep(bases, args, started, f"{count} process{'es' if count > 1 else ''}: ")
    summary = {"game": args.game, "players": args.players, "think_s": args.think, "cores": os.cpu_count(),
               "load_generator_processes": args.clients,
               "warmup_s": args.warmup, "duration_s": args.duration, "connect": args.connect,
               "runs": {str(k): {"levels": v, "max_rooms_p99_under_50ms": best(v)} for k, v in runs.items()}}
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in runs.items():
            print(f"{k} process{'es' if k > 1 else ''}: most rooms with p99 < {TARGET_P99_MS:.0f} ms: {best(v)}")
        if len(runs) > 1 and min(runs) in runs and best(runs[min(runs)]):
            one = best(runs[min(runs)])
            for k, v in runs.items():
                if k != min(runs):
                    print(f"{k} processes hold {best(v) / one:.2f}x the rooms of {min(runs)} at p99 < 50 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
