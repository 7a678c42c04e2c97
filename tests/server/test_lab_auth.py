"""Who may use the design lab: a lab token exchanged once for an HttpOnly SameSite=Strict cookie.

Every lab route refuses a request without the cookie (401) or with a wrong one (403), and nothing
changes; state-changing requests from another origin are refused even with the cookie (CSRF); the
token is compared in constant time and never appears in a log line or in the database.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from cosmodeck.server import ServerConfig, create_app
from cosmodeck.server.lab import Lab
from cosmodeck.server.labauth import COOKIE
from tests.server.test_lab import P8_TWO, TOKEN, wait_job
from tests.server.util import ROOT, free_port

WRONG = "not-the-lab-token-9876543210"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    app = create_app(ServerConfig(db=str(tmp_path / "lab.db"), lab=True, lab_token=TOKEN))
    yield app
    lab: Lab = app.state.lab
    lab.close()


@pytest.fixture
def owner(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        assert c.post("/api/lab/login", json={"token": TOKEN}).status_code == 200
        yield c


def jobs_of(app: FastAPI) -> dict[str, Any]:
    lab: Lab = app.state.lab
    return dict(lab.jobs)


def a_done_job(owner: TestClient) -> str:
    r = owner.post("/api/lab/jobs", json={"game": "shooting-star", "mode": "simulate", "players": 2, "games": 2,
                                          "bots": "random"})
    assert r.status_code == 201, r.text
    job_id: str = r.json()["id"]
    assert wait_job(owner, job_id)["status"] == "done"
    return job_id


def requests_for(job_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """One request for every lab route (page, games, check, start, status, cancel, report, downloads, logout)."""
    return [
        ("GET", "/lab", None),
        ("GET", "/api/lab/games", None),
        ("POST", "/api/lab/validate", {"game": "shooting-star", "data": P8_TWO}),
        ("POST", "/api/lab/jobs", {"game": "shooting-star", "mode": "simulate", "players": 2, "games": 2}),
        ("GET", f"/api/lab/jobs/{job_id}", None),
        ("POST", f"/api/lab/jobs/{job_id}/cancel", None),
        ("GET", f"/api/lab/jobs/{job_id}/files/index.html", None),
        ("GET", f"/api/lab/jobs/{job_id}/files/games.csv", None),
        ("GET", f"/api/lab/jobs/{job_id}/files/summary.json", None),
        ("POST", "/api/lab/logout", None),
    ]


def send(c: TestClient, method: str, path: str, body: dict[str, Any] | None,
         headers: dict[str, str] | None = None) -> httpx.Response:
    return c.request(method, path, json=body, headers=headers or {})


def test_every_lab_route_is_behind_the_gate(app: FastAPI, owner: TestClient) -> None:
    """Every /lab and /api/lab route the app has (a route added later too), asked without the cookie: 401."""
    job_id = a_done_job(owner)
    routes = [(m, r.path) for r in app.routes if isinstance(r, APIRoute) for m in r.methods
              if (r.path == "/lab" or r.path.startswith("/api/lab/")) and r.path != "/api/lab/login"]
    listed = {(m, re.sub(r"/files/[^/]+$", "/files/{name}", p.replace(job_id, "{job_id}")))
              for m, p, _ in requests_for(job_id)}
    assert set(routes) == listed  # the other tests ask every route
    stranger = TestClient(app)
    for method, path in routes:
        url = path.replace("{job_id}", job_id).replace("{name}", "index.html")
        r = stranger.request(method, url, json={})
        assert r.status_code == 401, (method, path, r.status_code)
    assert owner.get("/api/lab/games").status_code == 200


@pytest.mark.parametrize("who", ["no cookie", "wrong cookie", "wrong bearer", "token as cookie"])
def test_without_the_right_token_every_lab_route_refuses_and_nothing_changes(app: FastAPI, owner: TestClient,
                                                                             who: str) -> None:
    job_id = a_done_job(owner)
    report_before = owner.get(f"/api/lab/jobs/{job_id}").json()
    before = jobs_of(app)
    stranger = TestClient(app)
    headers: dict[str, str] = {}
    if who == "wrong cookie":
        stranger.cookies.set(COOKIE, "0" * 64)
    elif who == "token as cookie":  # the cookie holds a value derived from the token, not the token
        stranger.cookies.set(COOKIE, TOKEN)
    elif who == "wrong bearer":
        headers = {"Authorization": f"Bearer {WRONG}"}
    for method, path, body in requests_for(job_id):
        r = send(stranger, method, path, body, headers)
        want = 401 if who == "no cookie" else 403
        assert r.status_code == want, (method, path, r.status_code, r.text[:200])
        assert "set-cookie" not in r.headers
        if path == "/lab":  # the door page, not the lab
            assert "lab-login.js" in r.text and "/static/lab.js" not in r.text
        else:
            body_json = r.json()
            assert body_json["code"] == ("lab_login_required" if who == "no cookie" else "lab_bad_token")
            assert "lab link" in body_json["message"] or "Bearer" in body_json["message"]
            assert "games" not in body_json and "files" not in body_json
    assert jobs_of(app) == before  # nothing started, nothing cancelled
    assert owner.get(f"/api/lab/jobs/{job_id}").json() == report_before


def test_a_running_job_is_not_cancelled_by_a_stranger(app: FastAPI, owner: TestClient) -> None:
    job = owner.post("/api/lab/jobs", json={"game": "meteor", "mode": "simulate", "players": 4, "games": 2000,
                                            "bots": "heuristic"}).json()
    stranger = TestClient(app)
    assert stranger.post(f"/api/lab/jobs/{job['id']}/cancel").status_code == 401
    stranger.cookies.set(COOKIE, "f" * 64)
    assert stranger.post(f"/api/lab/jobs/{job['id']}/cancel").status_code == 403
    assert owner.get(f"/api/lab/jobs/{job['id']}").json()["status"] == "running"
    assert owner.post(f"/api/lab/jobs/{job['id']}/cancel").json()["status"] == "cancelled"


def test_the_right_token_opens_every_route_and_the_cookie_is_httponly_samesite_strict(app: FastAPI) -> None:
    with TestClient(app) as c:
        r = c.post("/api/lab/login", json={"token": TOKEN})
        assert r.status_code == 200
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Path=/" in cookie and TOKEN not in cookie
        assert "Secure" not in cookie  # plain http here; behind TLS the cookie is Secure (next test)
        job_id = a_done_job(c)
        for method, path, body in requests_for(job_id):
            if path.endswith("/logout"):
                continue
            r = send(c, method, path, body)
            assert r.status_code in (200, 201), (method, path, r.text[:200])
        assert "/static/lab.js" in c.get("/lab").text
        # scripts: the token as a Bearer header works too (a browser never adds it by itself)
        bearer = TestClient(app)
        assert bearer.get("/api/lab/games", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        # logging out drops the cookie
        assert c.post("/api/lab/logout").status_code == 200
        assert c.get("/api/lab/games").status_code == 401


def test_behind_tls_the_cookie_is_secure(app: FastAPI) -> None:
    c = TestClient(app, base_url="https://lab.example")
    r = c.post("/api/lab/login", json={"token": TOKEN})
    assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]


def test_a_wrong_token_gets_no_cookie_and_guessing_is_rate_limited(app: FastAPI) -> None:
    c = TestClient(app)
    r = c.post("/api/lab/login", json={"token": WRONG})
    assert r.status_code == 403 and r.json()["code"] == "lab_bad_token" and "set-cookie" not in r.headers
    assert c.post("/api/lab/login", json={"token": ""}).status_code == 403
    assert c.post("/api/lab/login", json={"token": 12}).status_code == 400
    assert c.post("/api/lab/login", json={"token": "x" * 257}).status_code == 400
    assert c.post("/api/lab/login", content=json.dumps({"token": TOKEN}),
                  headers={"Content-Type": "text/plain"}).status_code == 415
    for _ in range(8):
        assert c.post("/api/lab/login", json={"token": WRONG}).status_code == 403
    limited = c.post("/api/lab/login", json={"token": WRONG})
    assert limited.status_code == 429 and "too many wrong lab tokens" in limited.json()["message"]
    # while limited even the right token is refused, so guessing learns nothing
    assert c.post("/api/lab/login", json={"token": TOKEN}).status_code == 429
    assert c.get("/api/lab/games").status_code == 401


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://testserver:9999"},  # another port of the same host: same-site, not same-origin
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
])
def test_state_changing_requests_from_another_origin_are_refused_even_with_the_cookie(
        app: FastAPI, owner: TestClient, headers: dict[str, str]) -> None:
    job = owner.post("/api/lab/jobs", json={"game": "meteor", "mode": "simulate", "players": 4, "games": 2000,
                                            "bots": "heuristic"}).json()
    for path, body in (("/api/lab/jobs", {"game": "meteor", "mode": "simulate", "players": 2, "games": 2}),
                       (f"/api/lab/jobs/{job['id']}/cancel", None),
                       ("/api/lab/validate", {"game": "meteor", "data": "{}"}),
                       ("/api/lab/login", {"token": TOKEN}),
                       ("/api/lab/logout", None)):
        r = owner.post(path, json=body, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "lab_cross_site", (path, r.text)
    assert list(jobs_of(app)) == [job["id"]]
    assert owner.get(f"/api/lab/jobs/{job['id']}").json()["status"] == "running"
    same = owner.post(f"/api/lab/jobs/{job['id']}/cancel",
                      headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200 and same.json()["status"] == "cancelled"


def test_tokens_are_compared_in_constant_time(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    from cosmodeck.server import labauth

    seen: list[tuple[int, int]] = []
    real = hmac.compare_digest

    def spy(a: bytes | str, b: bytes | str) -> bool:
        seen.append((len(a), len(b)))
        return real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(labauth.hmac, "compare_digest", spy)
    c = TestClient(app)
    c.post("/api/lab/login", json={"token": "short-one"})
    c.get("/api/lab/games", headers={"Authorization": f"Bearer {TOKEN}xxxxxxxxxxxxxxxx"})
    c.cookies.set(COOKIE, "abc")
    c.get("/api/lab/games")
    assert len(seen) == 3 and all(a == b == 32 for a, b in seen)  # fixed-length digests whatever was sent


def test_the_token_is_never_logged_nor_stored(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "lab.db"
    app = create_app(ServerConfig(db=str(db), lab=True, lab_token=TOKEN))
    assert TOKEN not in repr(ServerConfig(lab=True, lab_token=TOKEN))
    caplog.set_level(logging.DEBUG)
    with TestClient(app) as c:
        c.post("/api/lab/login", json={"token": WRONG})
        c.post("/api/lab/login", json={"token": TOKEN})
        cookie = c.cookies[COOKIE]
        job_id = a_done_job(c)
        c.get(f"/api/lab/jobs/{job_id}/files/index.html", headers={"Authorization": f"Bearer {TOKEN}"})
        c.get("/lab")
    app.state.lab.close()
    text = caplog.text
    assert text  # debug logging did run
    for secret in (TOKEN, WRONG, cookie):
        assert secret not in text
        for path in tmp_path.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path


def test_serve_makes_a_token_prints_its_link_and_logs_nothing_of_it(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("COSMODECK_LAB_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-m", "cosmodeck", "serve", "--lab", "--port", str(port),
                             "--db", str(tmp_path / "s.db"), "--log-level", "debug"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        link = ""
        deadline = time.monotonic() + 30
        while "design lab" not in link and time.monotonic() < deadline:
            link = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/lab#token=" in link, link
        token = link.strip().rsplit("#token=", 1)[1]
        assert len(token) >= 32
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(base + "/api/games", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert httpx.get(base + "/api/lab/games").status_code == 401
        with httpx.Client(base_url=base) as c:
            assert c.post("/api/lab/login", json={"token": token}).status_code == 200
            assert c.get("/api/lab/games").status_code == 200
            assert "/static/lab.js" in c.get("/lab").text
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "Uvicorn running" in err or "Application startup" in err  # its log was captured
    assert token not in err
    assert all(token.encode() not in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())


def test_serve_lab_token_flags() -> None:
    from cosmodeck.cli.main import build_parser
    from cosmodeck.cli.serve_cmd import config_from_args

    def cfg(*argv: str) -> Any:
        return config_from_args(build_parser().parse_args(["serve", *argv]))

    a, b = cfg("--lab").lab_token, cfg("--lab").lab_token
    assert a and b and a != b and len(a) >= 32  # a new random token each start
    assert cfg("--lab", "--lab-token", TOKEN).lab_token == TOKEN
    with pytest.raises(SystemExit, match="16 to 256 characters"):
        cfg("--lab", "--lab-token", "short")
    with pytest.raises(SystemExit, match="needs --lab"):
        cfg("--lab-token", TOKEN)
    os.environ["COSMODECK_LAB_TOKEN"] = TOKEN + "-env"
    try:
        assert cfg("--lab").lab_token == TOKEN + "-env"
        assert cfg().lab_token is None
    finally:
        del os.environ["COSMODECK_LAB_TOKEN"]
