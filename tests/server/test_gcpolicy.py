"""Issue 15: the garbage collector's policy of ``cosmodeck serve`` (``server.gcpolicy``).

Each check runs in a fresh interpreter: the policy changes the process's collector, which must not
leak into the test session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, tmp_path: Path) -> Any:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_serve_applies_the_policy(tmp_path: Path) -> None:
    """What ``cosmodeck serve`` calls before it listens: start-up objects frozen, young collections
    only (the older generations wait for the timer)."""
    got = _run("""
        import gc, json
        from cosmodeck.cli.serve_cmd import _tune_gc
        from cosmodeck.server import gcpolicy
        before = gcpolicy.tuned()
        _tune_gc()
        print(json.dumps({"before": before, "after": gcpolicy.tuned(), "threshold": gc.get_threshold(),
                          "frozen": gc.get_freeze_count()}))
    """, tmp_path)
    assert got["before"] is False and got["after"] is True
    assert got["threshold"] == [2000, 1 << 30, 1 << 30]
    assert got["frozen"] > 10_000  # the modules loaded so far


def test_cycles_outliving_a_young_collection_wait_for_the_full_one(tmp_path: Path) -> None:
    """A reference cycle that was alive at a young collection is not freed by later young collections
    (that is the point: the older generations are not scanned), but the timer's full collection frees it."""
    got = _run("""
        import asyncio, gc, json, weakref
        from cosmodeck.server import gcpolicy
        gcpolicy.tune()

        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        gc.collect(0)  # the cycle survives a young collection: it is older now
        del a, b
        for _ in range(50):
            junk = [[] for _ in range(3000)]  # young collections run automatically
            del junk
        after_young = alive() is not None

        async def main():
            task = asyncio.ensure_future(gcpolicy.full_collections(0.05))
            await asyncio.sleep(0.3)
            task.cancel()

        asyncio.run(main())
        print(json.dumps({"after_young": after_young, "after_full": alive() is not None,
                          "young_collections": gc.get_stats()[0]["collections"]}))
    """, tmp_path)
    assert got["young_collections"] >= 10
    assert got["after_young"] is True
    assert got["after_full"] is False


def test_the_app_runs_the_full_collections_only_when_tuned(tmp_path: Path) -> None:
    """``create_app``'s lifespan starts the timer's task (named ``gc``) in a tuned process, and not in
    an untuned one (a test's server in a thread leaves the collector as it is)."""
    code = """
        import asyncio, json, sys
        from cosmodeck.server import ServerConfig, create_app, gcpolicy
        if sys.argv[-1] == "tuned":
            gcpolicy.tune()

        async def main():
            app = create_app(ServerConfig(db="rooms.db"))
            async with app.router.lifespan_context(app):
                names = sorted(t.get_name() for t in asyncio.all_tasks())
            left = sorted(t.get_name() for t in asyncio.all_tasks() if not t.done())
            return names, left

        names, left = asyncio.run(main())
        print(json.dumps({"gc": "gc" in names, "gc_after": "gc" in left}))
    """
    tuned = _run(code.replace('sys.argv[-1] == "tuned"', "True"), tmp_path)
    untuned = _run(code.replace('sys.argv[-1] == "tuned"', "False"), tmp_path)
    assert tuned == {"gc": True, "gc_after": False}
    assert untuned == {"gc": False, "gc_after": False}
