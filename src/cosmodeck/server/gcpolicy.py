"""The garbage collector's policy for a long-running server: short pauses, a full pass on a timer.

CPython frees almost everything a room allocates by reference counting the moment it is dropped (an
old state, a sent frame); its cyclic collector is only needed for the rare reference cycles (a closed
keep-alive HTTP connection, a finished task's frames). By default, though, the collector also scans
every object that outlives one young collection, again and again: at 256 rooms the server holds about
190,000 such objects (three connections' ASGI stacks, a state and recent events per room), and each
older-generation pass over them paused every room for 50-70 ms of CPU (150-260 ms of wall time on a
busy machine), several times a minute (measured with ``benchmarks/load.py --stalls``).

So ``tune`` (called by ``cosmodeck serve`` before it listens):

- moves everything loaded at start-up out of the collector's sight (``gc.freeze``: code, modules, the
  games' data; never garbage);
- collects the young generation after ``YOUNG`` new container objects (pauses of about a millisecond),
  and never the older ones automatically;
- and ``full_collections`` (a task of the server's event loop) runs one full collection every
  ``FULL_EVERY_S`` seconds, between two callbacks: the cycles that outlived a young collection wait at
  most that long to be freed (measured at 256 rooms: 40-100 objects a second, so a few MB at most).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("cosmodeck.server")

YOUNG = 2_000
NEVER = 1 << 30  # a generation threshold never reached: that generation waits for ``full_collections``
FULL_EVERY_S = 300.0

_TUNED: list[bool] = []  # one item once ``tune`` has run in this process


def tune(young: int = YOUNG) -> None:
    """Apply the policy to this process (idempotent)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, NEVER, NEVER)
    _TUNED[:] = [True]


def tuned() -> bool:
    """Whether ``tune`` was applied (then the server must also run ``full_collections``)."""
    return bool(_TUNED)


async def full_collections(every_s: float = FULL_EVERY_S) -> None:
    """One full collection every ``every_s`` seconds (forever; cancel to stop)."""
    while True:
        await asyncio.sleep(every_s)
        t0 = time.thread_time()
        found = gc.collect()
        log.debug("full garbage collection: %d objects freed, %.1f ms of CPU", found, (time.thread_time() - t0) * 1e3)
