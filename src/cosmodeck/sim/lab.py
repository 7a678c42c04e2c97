"""The design lab's worker: data validation and simulate/compare jobs, run as ``python -m cosmodeck.sim.lab``.

The server (``cosmodeck serve --lab``) starts this module as a separate process for every request, so
no lab work runs on the server's event loop or in the rooms' process. A job lowers its priority and
sets a CPU-time limit on itself before it loads anything, then reuses the runner and report code of
``cosmodeck simulate/compare --report``, so the page shows the same numbers and files.

Protocol: one JSON request on stdin. ``{"op": "validate", "game", "text", "lenient"}`` prints one JSON
object. ``{"op": "job", "job": {...}, "outdir", "cpu_s"}`` prints ``progress K`` lines (K games more)
and writes ``done.json`` or ``error.json`` and the report folder ``report/`` into ``outdir``.
"""

from __future__ import annotations

import copy
import json
import os
import re
import resource
import sys
import traceback
from pathlib import Path
from typing import Any

from cosmodeck.api import default_data, load_game
from cosmodeck.engine.errors import CosmodeckError, DataError
from cosmodeck.engine.options import TextInput

EDITED = "edited data"  # the source name of the designer's data in messages and reports
MAX_ERRORS = 40
CHECK_CPU_S = 20  # CPU seconds of one validation process
_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_LABEL = re.compile(r"^\s*\(.*\)\s*$")


def default_text(game: str) -> str:
    return default_data(game).text


def path_tokens(field: str) -> list[str | int]:
    """``destruction_set[7].hits`` -> ``['destruction_set', 7, 'hits']``."""
    out: list[str | int] = []
    for name, idx in _TOKEN.findall(field):
        if idx:
            out.append(int(idx))
        elif not _LABEL.match(name):  # Blast Off! writes "missions[4] (M05).when": the id is a label
            out.append(name)
    return out


def canonical(field: str, doc: Any) -> str:
    """The loader's field in one spelling: ``rockets.0.damage`` (pydantic) -> ``rockets[0].damage``."""
    out, cur = "", doc
    for t in path_tokens(field):
        if isinstance(cur, list) and str(t).isdigit():
            out += f"[{t}]"
            cur = cur[int(t)] if int(t) < len(cur) else None
        else:
            out += f".{t}" if out else str(t)
            cur = cur.get(str(t)) if isinstance(cur, dict) else None
    return out or field


def _get(doc: Any, tokens: list[str | int]) -> tuple[bool, Any]:
    cur = doc
    for t in tokens:
        if isinstance(cur, list) and str(t).isdigit() and int(t) < len(cur):
            cur = cur[int(t)]
        elif isinstance(cur, dict) and str(t) in cur:
            cur = cur[str(t)]
        else:
            return False, None
    return True, cur


def _set(doc: Any, tokens: list[str | int], value: Any) -> None:
    ok, parent = _get(doc, tokens[:-1])
    last = tokens[-1]
    if ok and isinstance(parent, list) and str(last).isdigit():
        parent[int(last)] = copy.deepcopy(value)
    elif ok and isinstance(parent, dict):
        parent[str(last)] = copy.deepcopy(value)


def _repair(work: Any, packaged: Any, field: str) -> bool:
    """Put the packaged value back where ``field`` failed (or its row), so the next error can be found."""
    tokens = path_tokens(field)
    while tokens:
        has_new, new = _get(work, tokens)
        has_old, old = _get(packaged, tokens)
        if has_old and (not has_new or new != old):
            _set(work, tokens, old)
            return True
        tokens = tokens[:-1]
    return False


def validate(game: str, text: str, lenient: bool = False) -> dict[str, Any]:
    """Every loader error of ``text`` as ``{field, problem}``, plus the warnings when it loads.

    The loader stops at its first problem, so after each one the failing field (or its row) gets
    the packaged value back and the file is checked again, until it loads or nothing can be repaired.
    """
    try:
        doc = json.loads(text)
    except ValueError as e:
        return {"ok": False, "errors": [{"field": "(file)", "problem": f"not valid JSON: {e}"}], "warnings": []}
    packaged = json.loads(default_text(game))
    work = copy.deepcopy(doc)
    errors: list[dict[str, str]] = []
    warnings: list[str] = []
    source = text
    for _ in range(MAX_ERRORS):
        try:
            g = load_game(game, data=TextInput(EDITED, source, lenient=lenient))
        except DataError as e:
            where = canonical(e.field, work)
            errors.append({"field": where, "problem": e.problem})
            if not _repair(work, packaged, where):
                break
            source = json.dumps(work)
            continue
        except CosmodeckError as e:
            errors.append({"field": "(file)", "problem": e.message})
            break
        if not errors:
            warnings = list(getattr(g.data, "warnings", ()))
        break
    return {"ok": not errors, "errors": errors, "warnings": warnings}


def run_job(job: dict[str, Any], outdir: str, cpu_s: int) -> None:
    """The body of a job process: simulate or compare ``job``, write the report into ``outdir``."""
    out = Path(outdir)
    try:
        os.nice(10)  # the rooms' processes come first
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
        _run(job, out)
    except Exception as e:  # every failure becomes a sentence for the page
        message = e.message if isinstance(e, CosmodeckError) else str(e) or type(e).__name__
        (out / "error.json").write_text(json.dumps({"error": message, "trace": traceback.format_exc()[-2000:]}))
        raise SystemExit(1) from None


def _run(job: dict[str, Any], out: Path) -> None:
    from cosmodeck.sim.batch import SimSpec
    from cosmodeck.sim.compare import compare
    from cosmodeck.sim.report import compare_report, simulate_report
    from cosmodeck.sim.runner import GameOutcome
    from cosmodeck.sim.simulate import simulate

    def advance(k: int) -> None:
        print(f"progress {k}", flush=True)

    edited = TextInput(EDITED, job["data"], lenient=job["lenient"]) if job["data"] is not None else None
    spec = SimSpec(job["game"], job["players"], job["games"], job["seed"], job["bots"], edited, {},
                   job["max_decisions"])
    step = max(1, min(10, job["games"] // 40))  # about 40 progress steps (a Meteor game can take 0.5 s)
    report = out / "report"
    if job["mode"] == "simulate":
        kept: list[GameOutcome] = []
        summary = simulate(spec, progress=advance, keep_outcomes=kept, max_batch=step)
        simulate_report(report, summary, kept)
        facts = {"games": summary["games"]}
    else:
        packaged = SimSpec(job["game"], job["players"], job["games"], job["seed"], job["bots"], None, {},
                           job["max_decisions"])
        result = compare(packaged, spec, progress=advance, labels=("the packaged card data", "your edited card data"),
                         max_batch=step)
        compare_report(report, result)
        facts = {"games": result["games"], "significant": len(result["significant"]),
                 "units_significant": len(result["units_significant"])}
    (out / "done.json").write_text(json.dumps(facts))


def main() -> int:
    request = json.loads(sys.stdin.read())
    if request["op"] == "validate":
        os.nice(10)
        resource.setrlimit(resource.RLIMIT_CPU, (CHECK_CPU_S, CHECK_CPU_S + 5))
        print(json.dumps(validate(request["game"], request["text"], bool(request.get("lenient")))))
        return 0
    if request["op"] == "job":
        run_job(request["job"], request["outdir"], int(request["cpu_s"]))
        return 0
    print(json.dumps({"error": f"unknown op {request['op']!r}"}))
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
