"""Where batches of seeded games run: this process, local worker processes, or a Ray cluster.

A task is ``(spec, start, stop)``: games ``start..stop-1`` of ``spec``. Every game's seed is
derived from the spec's master seed and the game's index, and results come back in task
order, so the numbers are identical whatever the backend and the worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from cosmodeck.sim.batch import SimSpec, run_batch
from cosmodeck.sim.runner import GameOutcome

Progress = Callable[[int], None]
Task = tuple[SimSpec, int, int]
BACKENDS = ("local", "ray")


def chunks(total: int, workers: int, max_size: int = 500) -> list[tuple[int, int]]:
    """Split ``total`` games into batches: about 8 per worker, at most ``max_size`` games each."""
    size = max(1, min(max_size, total // max(1, workers * 8)))
    return [(i, min(total, i + size)) for i in range(0, total, size)]


def _run_task(task: Task) -> list[GameOutcome]:
    spec, start, stop = task
    return run_batch(spec, start, stop)


def run_tasks(tasks: Sequence[Task], workers: int = 1, backend: str = "local", address: str | None = None,
              progress: Progress | None = None) -> list[list[GameOutcome]]:
    """Run every task; returns their outcomes in task order."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if backend == "local":
        return _local(tasks, workers, progress)
    if backend == "ray":
        return _ray(tasks, workers, address, progress)
    raise ValueError(f"unknown backend {backend!r} (available: {', '.join(BACKENDS)})")


def _local(tasks: Sequence[Task], workers: int, progress: Progress | None) -> list[list[GameOutcome]]:
    results: list[list[GameOutcome] | None] = [None] * len(tasks)
    if workers == 1:
        for i, task in enumerate(tasks):
            results[i] = _run_task(task)
            if progress:
                progress(task[2] - task[1])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            index: dict[Future[list[GameOutcome]], int] = {pool.submit(_run_task, t): i for i, t in enumerate(tasks)}
            pending = set(index)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    results[index[fut]] = fut.result()
                    if progress:
                        progress(len(results[index[fut]] or ()))
    return [r or [] for r in results]


def _ray(tasks: Sequence[Task], workers: int, address: str | None,
         progress: Progress | None) -> list[list[GameOutcome]]:
    """On Ray: an existing cluster (``address``, or one this process already joined), else a local one.

    A cluster's workers need cosmodeck installed (the same version) to import the tasks.
    """
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'cosmodeck[ray]'") from None
    own = not ray.is_initialized()
    if own:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            ray.init(address=address, **kwargs)
        else:  # a private single-machine instance, on the loopback interface only
            ray.init(num_cpus=workers, _node_ip_address="127.0.0.1", **kwargs)
    try:
        remote = ray.remote(num_cpus=1)(_run_task)
        refs = {remote.remote(t): i for i, t in enumerate(tasks)}
        results: list[list[GameOutcome] | None] = [None] * len(tasks)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch: list[GameOutcome] = ray.get(ref)
                results[refs[ref]] = batch
                if progress:
                    progress(len(batch))
        return [r or [] for r in results]
    finally:
        if own:
            ray.shutdown()
