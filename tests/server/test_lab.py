"""The design lab's API (``cosmodeck serve --lab``): off means 404, caps, field errors, jobs, cancel, CPU budget."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cosmodeck.api import default_data
from cosmodeck.server import ServerConfig, create_app
from cosmodeck.server.lab import Lab, LabLimits

ROOT = Path(__file__).resolve().parents[2]
P8_TWO = (ROOT / "tests" / "sim" / "data" / "shooting_star_p8_two_cells.json").read_text(encoding="utf-8")
TOKEN = "test-lab-token-0123456789"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db=str(tmp_path / "lab.db"), lab=True, lab_token=TOKEN))
    with TestClient(app) as c:
        assert c.post("/api/lab/login", json={"token": TOKEN}).status_code == 200  # the lab cookie
        yield c
        lab: Lab = app.state.lab
        lab.close()


def lab_of(client: TestClient) -> Lab:
    lab: Lab = client.app.state.lab  # type: ignore[attr-defined]
    return lab


def packaged(game: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(default_data(game).text)
    return doc


def wait_job(client: TestClient, job_id: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        job: dict[str, Any] = client.get(f"/api/lab/jobs/{job_id}").json()
        if job["status"] != "running" or time.monotonic() > deadline:
            return job
        time.sleep(0.2)


def test_without_lab_no_lab_route_exists(tmp_path: Path) -> None:
    with TestClient(create_app(ServerConfig(db=str(tmp_path / "off.db")))) as c:
        assert c.get("/lab").status_code == 404
        assert c.get("/api/lab/games").status_code == 404
        assert c.post("/api/lab/jobs", json={"game": "shooting-star"}).status_code == 404
        assert c.post("/api/lab/validate", json={"game": "meteor", "data": "{}"}).status_code == 404
        assert c.post("/api/lab/login", json={"token": TOKEN}).status_code == 404


def test_the_lab_page_and_its_games(client: TestClient) -> None:
    page = client.get("/lab")
    assert page.status_code == 200 and "/static/lab.js" in page.text
    games = {g["id"]: g for g in client.get("/api/lab/games").json()}
    assert set(games) == {"blast-off", "meteor", "shooting-star"}
    assert json.loads(games["shooting-star"]["data"])["destruction_set"][0]["id"] == "P8"
    assert games["meteor"]["min_players"] == 1 and games["meteor"]["bots"] == ["random", "heuristic"]


def test_every_loader_error_is_reported_with_its_field(client: TestClient) -> None:
    doc = packaged("shooting-star")
    doc["destruction_set"][0]["hits"] = [[0, -9]]
    doc["destruction_set"][3]["priority"] = "high"
    doc["planets"][0]["moons"] = 99
    r = client.post("/api/lab/validate", json={"game": "shooting-star", "data": json.dumps(doc)})
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is False
    fields = {e["field"]: e["problem"] for e in body["errors"]}
    assert set(fields) == {"destruction_set[0].hits", "destruction_set[3].priority", "planets[0].moons"}
    assert "outside every grid" in fields["destruction_set[0].hits"]
    ok = client.post("/api/lab/validate", json={"game": "shooting-star", "data": P8_TWO}).json()
    assert ok == {"ok": True, "errors": [], "warnings": []}


def test_a_job_with_bad_data_is_refused_with_the_field_errors(client: TestClient) -> None:
    doc = packaged("meteor")
    doc["rockets"][0]["damage"] = 0
    r = client.post("/api/lab/jobs", json={"game": "meteor", "mode": "compare", "players": 2, "games": 10,
                                           "data": json.dumps(doc)})
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "bad_data" and [e["field"] for e in body["errors"]] == ["rockets[0].damage"]
    r = client.post("/api/lab/jobs", json={"game": "meteor", "mode": "simulate", "players": 2, "games": 10,
                                           "data": "{not json"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "(file)"
    assert not lab_of(client).jobs  # nothing started


@pytest.mark.parametrize(("change", "status", "words"), [
    ({"games": 2001}, 400, "games must be between 2 and 2,000"),
    ({"players": 6}, 400, "Shooting Star takes 2 to 5 players"),
    ({"bots": "ismcts:iters=200"}, 400, "the lab's bots are random and heuristic"),
    ({"bots": "heuristic,random;x"}, 400, "the lab's bots"),
    ({"game": "chess"}, 404, "no game 'chess'"),
    ({"mode": "race"}, 400, "mode"),
    ({"extra": 1}, 400, "extra"),
    ({"data": None}, 400, "compare needs edited card data"),
    ({"data": default_data("shooting-star").text}, 400, "the same as the packaged data"),
    ({"data": " " * 600_000}, 413, "larger than"),
])
def test_caps_and_bad_requests_are_refused_clearly(client: TestClient, change: dict[str, Any], status: int,
                                                   words: str) -> None:
    body = {"game": "shooting-star", "mode": "compare", "players": 2, "games": 10, "data": P8_TWO, **change}
    r = client.post("/api/lab/jobs", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["message"]
    assert not lab_of(client).jobs


def test_a_compare_job_runs_in_a_worker_and_serves_its_report(client: TestClient) -> None:
    r = client.post("/api/lab/jobs", json={"game": "shooting-star", "mode": "compare", "players": 2, "games": 30,
                                           "bots": "heuristic", "seed": 3, "data": P8_TWO})
    assert r.status_code == 201, r.text
    job = r.json()
    assert job["status"] == "running" and job["total"] == 60
    done = wait_job(client, job["id"])
    assert done["status"] == "done", done
    assert done["done"] == 60 and done["facts"]["games"] == 30
    assert {"compare.json", "units.csv", "differences.csv"} <= set(done["files"])
    page = client.get(done["report"])
    assert page.status_code == 200 and "What changed" in page.text
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'none': no script runs
    result = client.get(f"/api/lab/jobs/{job['id']}/files/compare.json").json()
    p8_hits = [u for u in result["units"] if u["id"] == "P8" and u["measure"] == "hits per game"]
    assert p8_hits and p8_hits[0]["b"] > p8_hits[0]["a"]  # the edited P8 hits two cells
    csv = client.get(f"/api/lab/jobs/{job['id']}/files/units.csv")
    assert csv.status_code == 200 and "attachment" in csv.headers["content-disposition"]
    assert client.get(f"/api/lab/jobs/{job['id']}/files/..%2Fdone.json").status_code == 404
    assert client.get("/api/lab/jobs/nope").status_code == 404


def test_a_running_job_can_be_cancelled_and_one_runs_at_a_time(client: TestClient) -> None:
    body = {"game": "meteor", "mode": "simulate", "players": 4, "games": 2000, "bots": "heuristic"}
    job = client.post("/api/lab/jobs", json=body).json()
    busy = client.post("/api/lab/jobs", json=body)
    assert busy.status_code == 429 and "another lab job is running" in busy.json()["message"]
    proc = lab_of(client).jobs[job["id"]].proc
    assert proc is not None
    cancelled = client.post(f"/api/lab/jobs/{job['id']}/cancel").json()
    assert cancelled["status"] == "cancelled" and cancelled["report"] is None
    deadline = time.monotonic() + 10
    while proc.returncode is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.returncode is not None  # the worker process is gone
    assert wait_job(client, job["id"])["status"] == "cancelled"
    again = client.post("/api/lab/jobs", json={**body, "games": 2, "players": 1})
    assert again.status_code == 201
    assert wait_job(client, again.json()["id"])["status"] == "done"


def test_a_job_over_its_cpu_budget_is_stopped(client: TestClient) -> None:
    lab = lab_of(client)
    lab.limits = replace(LabLimits(), cpu_s=1)
    job = client.post("/api/lab/jobs", json={"game": "meteor", "mode": "simulate", "players": 4, "games": 2000,
                                             "bots": "heuristic"}).json()
    done = wait_job(client, job["id"], 60)
    assert done["status"] == "failed" and "1 CPU seconds" in done["error"]


def test_serve_lab_flag_turns_the_lab_on_and_it_is_off_by_default() -> None:
    from cosmodeck.cli.main import build_parser
    from cosmodeck.cli.serve_cmd import config_from_args

    assert config_from_args(build_parser().parse_args(["serve", "--lab"])).lab is True
    assert config_from_args(build_parser().parse_args(["serve"])).lab is False


def test_lab_posts_must_be_json_so_another_site_cannot_post_a_form(client: TestClient) -> None:
    r = client.post("/api/lab/jobs", content=json.dumps({"game": "meteor"}), headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "Content-Type: application/json" in r.json()["message"]
    assert not lab_of(client).jobs


def test_too_many_data_checks_at_once_are_refused_with_429(client: TestClient) -> None:
    from cosmodeck.server.lab import MAX_WAITING_CHECKS

    lab = lab_of(client)
    lab._waiting = MAX_WAITING_CHECKS  # as if that many checks were running or queued
    r = client.post("/api/lab/validate", json={"game": "meteor", "data": "{}"})
    assert r.status_code == 429 and "too many card-data checks" in r.json()["message"]
    lab._waiting = 0
    assert client.post("/api/lab/validate", json={"game": "meteor", "data": "{}"}).status_code == 200
