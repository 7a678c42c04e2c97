"""The design lab in the browser (``cosmodeck serve --lab``; without it none of these routes exist).

The page (``/lab``) edits a game's card data and runs ``simulate`` or ``compare`` (A = the packaged
data, B = the edited data). Every validation and every job is a separate ``python -m cosmodeck.sim.lab``
process at low priority with a CPU-time limit, started and watched with asyncio, so lab work never runs
on the event loop or in the rooms' process. Caps (games, players, bots, data size, jobs at once) refuse
bad input with a 4xx and a sentence; docs/LAB.md "Lab in the browser" lists them.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import re
import secrets
import shutil
import sys
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.types import DecoratedCallable
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from cosmodeck.api import default_data, game_spec, list_games
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.guard import read_body
from cosmodeck.server.labauth import (
    COOKIE,
    COOKIE_MAX_AGE_S,
    MAX_TOKEN,
    LabDenied,
    LabGate,
    check_same_origin,
    new_token,
)
from cosmodeck.server.protocol import ProtocolError, parse_json

REPORT_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'"
LAB_BOTS = ("random", "heuristic")  # search bots cost too much CPU for a shared server
MAX_CHECKS = 2  # card-data checks (each a process) at once ...
MAX_WAITING_CHECKS = 8  # ... and at most this many running or waiting (the others: 429)
_BOT = re.compile(r"^([a-z_]+)(:[A-Za-z0-9_.=;]{1,80})?$")


@dataclass(frozen=True, slots=True)
class LabLimits:
    max_games: int = 2000  # games of a simulate run, or of each side of a compare
    max_jobs: int = 1  # jobs running at once (the others are refused: 429)
    cpu_s: int = 300  # CPU seconds one job may use (RLIMIT_CPU in its process)
    wall_s: float = 900.0  # seconds before a job is stopped whatever it used
    validate_s: float = 30.0  # seconds for one validation
    max_decisions: int = 20_000  # a game longer than this counts as unfinished
    keep: int = 8  # finished jobs kept (the oldest folder is deleted)


class JobRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    game: StrictStr
    mode: Literal["simulate", "compare"]
    players: StrictInt
    games: StrictInt
    seed: StrictInt = 0
    bots: StrictStr = "heuristic"
    data: StrictStr | None = None
    lenient: StrictBool = False


class LoginRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    token: Annotated[StrictStr, Field(max_length=MAX_TOKEN)]


class ValidateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    game: StrictStr
    data: StrictStr
    lenient: StrictBool = False


@dataclass
class Job:
    id: str
    request: JobRequest
    folder: Path
    total: int
    done: int = 0
    status: str = "running"  # running, done, failed, cancelled
    error: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    elapsed: float = 0.0
    proc: asyncio.subprocess.Process | None = None

    def to_json(self) -> dict[str, Any]:
        report = self.folder / "report"
        files = sorted(p.name for p in report.iterdir()) if self.status == "done" and report.is_dir() else []
        return {"id": self.id, "status": self.status, "mode": self.request.mode, "game": self.request.game,
                "done": min(self.done, self.total), "total": self.total, "error": self.error, "facts": self.facts,
                "elapsed_s": round(self.elapsed or time.monotonic() - self.started, 1),
                "report": f"/api/lab/jobs/{self.id}/files/index.html" if files else None,
                "files": [f for f in files if f.endswith((".csv", ".json"))]}


class LabRefused(ProtocolError):
    """A refused lab request with its HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(code, message)
        self.status = status


def _bad(message: str) -> ProtocolError:
    return LabRefused("bad_request", message)


class Lab:
    """The lab's jobs: at most ``limits.max_jobs`` running, the last ``limits.keep`` kept."""

    def __init__(self, cfg: ServerConfig, limits: LabLimits | None = None) -> None:
        self.cfg = cfg
        self.limits = limits or LabLimits()
        self.root = Path(tempfile.mkdtemp(prefix="cosmodeck-lab-"))
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._checks = asyncio.Semaphore(MAX_CHECKS)
        self._waiting = 0
        atexit.register(self.close)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.proc is not None and job.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    job.proc.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def check_game(self, game: str) -> Any:
        if game not in lab_games():
            raise ProtocolError("unknown_game", f"no game {game!r}")
        return game_spec(game).game_cls.info

    def check_data(self, text: str | None) -> None:
        if text is not None and len(text.encode("utf-8")) > self.cfg.max_data:
            raise ProtocolError("too_large", f"the card data is larger than {self.cfg.max_data:,} bytes")

    async def _worker(self, request: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        if self._waiting >= MAX_WAITING_CHECKS:
            raise LabRefused("lab_busy", "too many card-data checks at once; try again in a moment", 429)
        self._waiting += 1
        try:
            async with self._checks:
                return await self._check_process(request, timeout)
        finally:
            self._waiting -= 1

    async def _check_process(self, request: dict[str, Any], timeout: float) -> tuple[int, bytes]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cosmodeck.sim.lab", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        try:
            out, _ = await asyncio.wait_for(proc.communicate(json.dumps(request).encode()), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise ProtocolError("busy", "checking the card data took too long; try again") from None
        return proc.returncode or 0, out

    async def validate(self, req: ValidateRequest) -> dict[str, Any]:
        self.check_game(req.game)
        self.check_data(req.data)
        code, out = await self._worker({"op": "validate", "game": req.game, "text": req.data,
                                        "lenient": req.lenient}, self.limits.validate_s)
        if code != 0:
            raise ProtocolError("busy", "the card data could not be checked; try again")
        result: dict[str, Any] = json.loads(out)
        return result

    def check_job(self, req: JobRequest) -> None:
        info = self.check_game(req.game)
        if not info.min_players <= req.players <= info.max_players:
            raise _bad(f"{info.name} takes {info.min_players} to {info.max_players} players, not {req.players}")
        low = 2 if req.mode == "compare" else 1
        if not low <= req.games <= self.limits.max_games:
            raise _bad(f"games must be between {low} and {self.limits.max_games:,}, not {req.games}")
        if not 0 <= req.seed < 2**63:
            raise _bad("the seed must be a whole number from 0 up")
        for part in req.bots.split(","):
            m = _BOT.match(part.strip())
            if m is None or m.group(1) not in LAB_BOTS:
                raise _bad(f"the lab's bots are {' and '.join(LAB_BOTS)} (optionally with parameters, "
                           f"e.g. heuristic:level=hard), not {part.strip()!r}")
        self.check_data(req.data)
        if req.mode == "compare" and req.data is None:
            raise _bad("compare needs edited card data (B) to set against the packaged data (A)")

    async def start(self, req: JobRequest) -> Job:
        self.check_job(req)
        if req.mode == "compare" and req.data is not None and _same(req.data, default_data(req.game).text):
            raise _bad("the edited card data is the same as the packaged data: change a card first")
        if req.data is not None:
            checked = await self.validate(ValidateRequest(game=req.game, data=req.data, lenient=req.lenient))
            if not checked["ok"]:
                raise LabDataError(checked["errors"])
        running = [j for j in self.jobs.values() if j.status == "running"]
        if len(running) >= self.limits.max_jobs:
            raise LabRefused("lab_busy", "another lab job is running; wait for it or cancel it", 429)
        job_id = secrets.token_hex(6)
        folder = self.root / job_id
        folder.mkdir()
        total = req.games * (2 if req.mode == "compare" else 1)
        job = Job(job_id, req, folder, total)
        self.jobs[job_id] = job
        self._prune()
        spec = {"game": req.game, "mode": req.mode, "players": req.players, "games": req.games, "seed": req.seed,
                "bots": req.bots, "data": req.data, "lenient": req.lenient,
                "max_decisions": self.limits.max_decisions}
        job.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cosmodeck.sim.lab", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        task = asyncio.create_task(self._watch(job, {"op": "job", "job": spec, "outdir": str(folder),
                                                     "cpu_s": self.limits.cpu_s}))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _watch(self, job: Job, request: dict[str, Any]) -> None:
        proc = job.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(request).encode())
        with contextlib.suppress(ConnectionError):
            await proc.stdin.drain()
        proc.stdin.close()

        async def read() -> None:
            assert proc.stdout is not None
            async for line in proc.stdout:
                word, _, k = line.decode(errors="replace").partition(" ")
                if word == "progress" and k.strip().isdigit():
                    job.done += int(k)

        try:
            await asyncio.wait_for(read(), self.limits.wall_s)
        except TimeoutError:
            proc.kill()
            job.status, job.error = "failed", f"stopped after {self.limits.wall_s:g} s (the lab's time limit)"
        code = await proc.wait()
        job.elapsed = time.monotonic() - job.started
        if job.status != "running":
            return
        done, err = job.folder / "done.json", job.folder / "error.json"
        if code == 0 and done.exists():
            job.status, job.facts = "done", json.loads(done.read_text())
        elif err.exists():
            job.status, job.error = "failed", str(json.loads(err.read_text())["error"])
        elif code == -24:  # SIGXCPU
            job.status, job.error = "failed", (f"stopped: it used its {self.limits.cpu_s} CPU seconds; "
                                               "run fewer games or use the random bots")
        else:
            job.status, job.error = "failed", f"the job process ended unexpectedly (exit code {code})"

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise LabRefused("unknown_job", f"no lab job {job_id!r}", 404)
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        if job.status == "running":
            job.status, job.error = "cancelled", None
            job.elapsed = time.monotonic() - job.started
            if job.proc is not None and job.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    job.proc.kill()
        return job

    def _prune(self) -> None:
        while len(self.jobs) > self.limits.keep:
            old = next((j for j in self.jobs.values() if j.status != "running"), None)
            if old is None:
                return
            del self.jobs[old.id]
            shutil.rmtree(old.folder, ignore_errors=True)


def lab_games() -> list[str]:
    """The packaged games (the worker process knows only those)."""
    return [g for g in list_games() if game_spec(g).data_package.startswith("cosmodeck.games.")]


class LabDataError(Exception):
    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("bad card data")
        self.errors = errors


def _same(a: str, b: str) -> bool:
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return False


def mount_lab(app: FastAPI, cfg: ServerConfig, web: Path, limits: LabLimits | None = None) -> Lab:
    """Add the lab's page and API to ``app`` (only called by ``create_app`` when ``cfg.lab``).

    Every route but the login sits behind ``LabGate`` (server/labauth.py): no lab cookie, 401; a wrong
    one, 403; nothing runs and nothing changes."""
    lab = Lab(cfg, limits)
    app.state.lab = lab
    gate = LabGate(cfg.lab_token or new_token())  # no token given: a random one, so nobody gets in

    async def guarded(request: Request) -> None:
        gate.check(request)

    class Guarded:  # every /api/lab route but the login goes through the gate
        @staticmethod
        def get(path: str, **kw: Any) -> Callable[[DecoratedCallable], DecoratedCallable]:
            return app.api_route("/api/lab" + path, methods=["GET"], dependencies=[Depends(guarded)], **kw)

        @staticmethod
        def post(path: str, **kw: Any) -> Callable[[DecoratedCallable], DecoratedCallable]:
            return app.api_route("/api/lab" + path, methods=["POST"], dependencies=[Depends(guarded)], **kw)

    api = Guarded()

    async def body_of(request: Request, model: type[BaseModel]) -> Any:
        # JSON only: a form on another site cannot post it without the browser asking first (CORS)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise LabRefused("bad_request", "send the body as JSON (Content-Type: application/json)", 415)
        body = parse_json(await read_body(request, cfg.max_body), cfg.max_json_depth, "the body")
        try:
            return model.model_validate(body)
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, x['loc'])) or '(body)'}: {x['msg']}" for x in e.errors())
            raise _bad(problems) from None

    @app.exception_handler(LabDataError)
    async def data_error(_request: Request, exc: LabDataError) -> JSONResponse:
        return JSONResponse({"type": "error", "code": "bad_data", "errors": exc.errors,
                             "message": "the card data has 1 problem" if len(exc.errors) == 1
                             else f"the card data has {len(exc.errors)} problems"}, status_code=422)

    @app.exception_handler(LabRefused)
    async def refused(_request: Request, exc: LabRefused) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(LabDenied)
    async def denied(_request: Request, exc: LabDenied) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status, headers={"Cache-Control": "no-store"})

    @app.get("/lab", include_in_schema=False)
    async def page(request: Request) -> FileResponse:
        try:
            gate.check(request)
        except LabDenied as e:  # the door: a page that takes the token from the link's #fragment or a paste
            return FileResponse(web / "lab-login.html", status_code=e.status, headers={"Cache-Control": "no-store"})
        return FileResponse(web / "lab.html", headers={"Cache-Control": "no-store"})

    @app.post("/api/lab/login")
    async def login(request: Request) -> JSONResponse:
        check_same_origin(request)
        given = await body_of(request, LoginRequest)
        gate.login(request, given.token)
        out = JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})
        out.set_cookie(COOKIE, gate.cookie_value, max_age=COOKIE_MAX_AGE_S, path="/", httponly=True,
                       samesite="strict", secure=request.url.scheme == "https")
        return out

    @api.post("/logout")
    async def logout() -> JSONResponse:
        out = JSONResponse({"ok": True})
        out.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return out

    @api.get("/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for gid in lab_games():
            info, text = game_spec(gid).game_cls.info, default_data(gid).text
            out.append({"id": gid, "name": info.name, "min_players": info.min_players,
                        "max_players": info.max_players, "data": text, "bots": list(LAB_BOTS),
                        "max_games": lab.limits.max_games})
        return out

    @api.post("/validate")
    async def validate(request: Request) -> dict[str, Any]:
        return await lab.validate(await body_of(request, ValidateRequest))

    @api.post("/jobs", status_code=201)
    async def start(request: Request) -> dict[str, Any]:
        return (await lab.start(await body_of(request, JobRequest))).to_json()

    @api.get("/jobs/{job_id}")
    async def status(job_id: str) -> dict[str, Any]:
        return lab.get(job_id).to_json()

    @api.post("/jobs/{job_id}/cancel")
    async def cancel(job_id: str) -> dict[str, Any]:
        return lab.cancel(job_id).to_json()

    @api.get("/jobs/{job_id}/files/{name}")
    async def file(job_id: str, name: str) -> FileResponse:
        job = lab.get(job_id)
        report = job.folder / "report"
        if job.status != "done" or name not in {p.name for p in report.iterdir()}:
            raise LabRefused("unknown_file", f"no file {name!r} in this job's report", 404)
        disposition = "attachment" if name.endswith((".csv", ".json")) else "inline"
        # the report is static: no script of it may run, whatever a designer typed into the data
        return FileResponse(report / name, headers={"Content-Disposition": f'{disposition}; filename="{name}"',
                                                    "Content-Security-Policy": REPORT_CSP,
                                                    "Cache-Control": "no-store"})

    return lab
