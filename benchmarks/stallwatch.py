"""Where a process's event loop stalls: garbage collections and event-loop lag, with their times.

Used by ``load.py --stalls``: the servers run under ``python -c SERVE_WATCHED OUT ...`` (this module
imported, then ``cosmodeck.cli.main``), which appends one JSON line per record to OUT every half second;
the load generator watches itself in-process. Each record is ``[wall time, kind, ms, cpu_ms]``:

- ``gc0``/``gc1``/``gc2``: one collection of that generation, its wall time and the collecting thread's
  CPU time (``gc.callbacks``);
- ``lag``: the event loop woke over ``LAG_MS`` late from a 5 ms sleep; ``cpu_ms`` is the main thread's
  CPU time over that sleep: close to ``ms`` means the loop was busy (a long callback, a collection),
  close to 0 means the process was not running (the machine's other processes had the cores).

- ``db:METHOD``: a ``Store`` call (mostly on the server's writer thread) that took over 2 ms.

Diagnosis only (slow): ``STALLWATCH_SIZES=1`` adds each generation's size to every collection's record;
``STALLWATCH_CENSUS=S`` records once, S seconds after start-up, the objects by type and the cyclic garbage
a full collection finds by type.

Not part of the test run.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from typing import Any

SIZES = bool(os.environ.get("STALLWATCH_SIZES"))  # also record the generations' sizes (slow: a diagnosis)
PERIOD_S = 0.005
LAG_MS = 10.0


class Watch:
    def __init__(self) -> None:
        self.records: list[list[Any]] = []
        self._t = 0.0
        self._c = 0.0
        self._sizes: list[int] = []

    def install(self) -> None:
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if SIZES:
                self._sizes = [len(gc.get_objects(g)) for g in range(info["generation"] + 1)]
            self._t, self._c = time.perf_counter(), time.thread_time()
        else:
            self.records.append([time.time(), f"gc{info['generation']}", (time.perf_counter() - self._t) * 1e3,
                                 (time.thread_time() - self._c) * 1e3, info["collected"], *self._sizes])

    async def lag_monitor(self) -> None:
        while True:
            t, c = time.perf_counter(), time.thread_time()
            await asyncio.sleep(PERIOD_S)
            lag = (time.perf_counter() - t - PERIOD_S) * 1e3
            if lag > LAG_MS:
                self.records.append([time.time(), "lag", lag, (time.thread_time() - c) * 1e3])

    async def flush_to(self, path: str) -> None:
        done = 0
        started = time.monotonic()
        census_at = float(os.environ.get("STALLWATCH_CENSUS", "0") or 0)  # a diagnosis: objects by type, once
        while True:
            await asyncio.sleep(0.5)
            if census_at and time.monotonic() - started >= census_at:
                census_at = 0
                from collections import Counter
                counts = Counter(type(o).__qualname__ for o in gc.get_objects())
                gc.collect(0)
                gc.set_debug(gc.DEBUG_SAVEALL)
                gc.collect(2)
                gc.set_debug(0)
                garbage = Counter(type(o).__qualname__ for o in gc.garbage)
                n_garbage = len(gc.garbage)
                gc.garbage.clear()
                self.records.append([time.time(), "census", gc.get_freeze_count(), gc.get_count(),
                                     [len(gc.get_objects(g)) for g in range(3)], counts.most_common(40),
                                     n_garbage, garbage.most_common(30)])
            with open(path, "a") as f:
                for rec in self.records[done:]:
                    f.write(json.dumps(rec) + "\n")
            done = len(self.records)


def serve_watched(out: str) -> None:
    """Run ``cosmodeck serve`` (``sys.argv`` as for ``-m cosmodeck.cli.main``) watching its stalls into ``out``."""
    import runpy

    import uvicorn

    watch = Watch()
    watch.install()
    serve = uvicorn.Server.serve

    async def watched(self: Any, sockets: Any = None) -> None:
        tasks = [asyncio.ensure_future(watch.lag_monitor()), asyncio.ensure_future(watch.flush_to(out))]
        try:
            await serve(self, sockets)
        finally:
            for task in tasks:
                task.cancel()

    uvicorn.Server.serve = watched  # type: ignore[method-assign]
    watch_store(watch)
    runpy.run_module("cosmodeck.cli.main", run_name="__main__")


def watch_store(watch: Watch, over_ms: float = 2.0) -> None:
    """Record every call of a ``Store`` method (a database call, mostly on the writer thread) over ``over_ms``
    as ``db:METHOD`` (the calls made while it ran wait behind it)."""
    import functools

    from cosmodeck.storage.repository import Store

    def timed(name: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            t, c = time.perf_counter(), time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                ms = (time.perf_counter() - t) * 1e3
                if ms > over_ms:
                    watch.records.append([time.time(), f"db:{name}", ms, (time.thread_time() - c) * 1e3])
        return call

    for name, fn in list(vars(Store).items()):
        if callable(fn) and not name.startswith("__"):
            setattr(Store, name, timed(name, fn))


SERVE_WATCHED = """
import sys
sys.path.insert(0, sys.argv[2])
out = sys.argv[1]
sys.argv = sys.argv[3:]
import stallwatch
stallwatch.serve_watched(out)
"""


def read(path: str) -> list[list[Any]]:
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []


def summary(records: list[list[Any]], start: float, end: float) -> str:
    """One line for the records in [start, end): collections per generation (count; CPU total and
    largest; the largest wall time) and loop lags (count; how many were the loop's own work, i.e. its
    main thread busy for at least half the lag, and the longest of those)."""
    rs = [r for r in records if start <= r[0] < end]
    parts = []
    for gen in ("gc0", "gc1", "gc2"):
        xs = [r for r in rs if r[1] == gen]
        if xs:
            parts.append(f"{gen} {len(xs)}x cpu sum {sum(r[3] for r in xs):.0f} max {max(r[3] for r in xs):.1f} ms "
                         f"(wall max {max(r[2] for r in xs):.0f})")
    db: dict[str, list[list[Any]]] = {}
    for r in rs:
        if r[1].startswith("db:"):
            db.setdefault(r[1], []).append(r)
    for name, xs in sorted(db.items()):
        parts.append(f"{name}>2ms {len(xs)}x max {max(r[2] for r in xs):.0f} ms")
    lags = [r for r in rs if r[1] == "lag"]
    if lags:
        busy = [r for r in lags if r[3] >= r[2] / 2]
        worst = max((r[3] for r in busy), default=0.0)
        parts.append(f"lags>{LAG_MS:.0f}ms {len(lags)}x (>=50ms {sum(r[2] >= 50 for r in lags)}x, "
                     f"wall max {max(r[2] for r in lags):.0f}); busy {len(busy)}x, cpu max {worst:.0f} ms")
    return "; ".join(parts) or "no collections, no lags"
