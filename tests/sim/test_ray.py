"""The Ray backend gives exactly the local backend's numbers (a local Ray instance, loopback only)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import run_spec, simulate

ray = pytest.importorskip("ray")

SPEC = SimSpec("shooting-star", 2, 40, seed=99, bots="random,heuristic")


def _numbers(summary: dict) -> dict:  # type: ignore[type-arg]
    drop = {"elapsed_s", "games_per_s", "decisions_per_s", "backend", "workers"}
    return {k: v for k, v in summary.items() if k not in drop}


def test_ray_backend_matches_local() -> None:
    """The simulator starts (and stops) its own local Ray instance when none is given."""
    assert not ray.is_initialized()
    local = simulate(SPEC, workers=2, backend="local")
    on_ray = simulate(SPEC, workers=2, backend="ray")
    assert not ray.is_initialized()
    assert _numbers(on_ray) == _numbers(local) and on_ray["backend"] == "ray"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def ray_cluster() -> Iterator[str]:
    """``ray start --head`` on 127.0.0.1 in its own process group, stopped by that group's id."""
    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths must fit in 107 bytes
    ray_bin = Path(sys.executable).with_name("ray")
    proc = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false", f"--temp-dir={tmp}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, "RAY_AUTH_MODE": "disabled"},  # a throwaway loopback cluster: no token to share
    )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None:
                pytest.fail("ray start exited early")
            time.sleep(0.5)
        yield address
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)  # Ray drains for up to 30 s; the test's cluster has nothing to drain
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.slow
def test_ray_cluster_at_an_address_matches_local(ray_cluster: str) -> None:
    local = run_spec(SPEC, workers=1)
    remote = run_spec(SPEC, workers=2, backend="ray", address=ray_cluster)
    assert remote == local
