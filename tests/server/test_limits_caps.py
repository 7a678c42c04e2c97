"""Issue 12, item 6: limits, configurable on ``cosmodeck serve``: room creation rate per address,
waiting rooms expire (and are not resumed at start-up), bot parameters finite and capped, a
per-room CPU budget for search bots."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
import pytest

from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.bots.registry import make_bot
from cosmodeck.cli.main import build_parser
from cosmodeck.cli.serve_cmd import config_from_args
from cosmodeck.engine.rng import Rng
from cosmodeck.server import ServerConfig
from cosmodeck.server.botlimits import CpuBudget
from cosmodeck.storage.repository import Store
from tests.server.util import Ws, create_room, room_info, serve_in_thread


def wait_for(pred: Any, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError("the condition did not hold in time")
        time.sleep(0.05)


# ---- room creation rate ----------------------------------------------------------------------
def test_room_creation_is_limited_per_address_with_429(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="3/minute")) as base:
        for _ in range(3):
            create_room(base, "toy", 2)
        r = httpx.post(base + "/api/rooms", json={"game": "toy", "players": 2}, timeout=10)
        assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
        assert 1 <= int(r.headers["retry-after"]) <= 60 and "3 per minute" in r.json()["message"]
        assert len(httpx.get(base + "/api/rooms", timeout=5).json()) == 3


def test_an_empty_rate_means_no_limit(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, room_rate="")) as base:
        for _ in range(12):
            create_room(base, "toy", 2)


# ---- waiting rooms expire ---------------------------------------------------------------------
def test_a_waiting_room_expires_and_its_clients_are_closed(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, waiting_ttl_s=0.5)) as base:
        r = create_room(base, "toy", 2, options={"tick": 1000})
        ws = Ws(base, r["room"], r["seats"]["0"])
        ws.until(lambda m: m["type"] == "hello")
        wait_for(lambda: room_info(base, r["room"])["status"] == "expired")
        assert ws.closed_code() == 1001
        again = Ws(base, r["room"], r["seats"]["1"])
        assert again.until(lambda m: m["type"] == "error")["code"] == "unknown_room"
        started = create_room(base, "toy", 2, bots={"1": "random:median_s=30"}, options={"tick": 1000})
        player = Ws(base, started["room"], started["seats"]["0"])
        player.until(lambda m: m["type"] == "view" and m["status"] == "playing")
        time.sleep(1.0)  # well past the waiting time: a started room does not expire
        assert room_info(base, started["room"])["status"] == "playing"
        player.close()


def test_an_old_waiting_room_is_expired_at_start_up_not_resumed(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path)) as base:
        old = create_room(base, "toy", 2)["room"]
    time.sleep(3.2)  # a TTL of 3 s: the young room stays young on a loaded machine (0.2 s did not)
    with serve_in_thread(ServerConfig(db=db_path, waiting_ttl_s=3.0)) as base:
        young = create_room(base, "toy", 2)["room"]
        assert room_info(base, old)["status"] == "expired"
        store = Store(db_path)
        try:
            assert [row.id for row in store.unfinished()] == [young]
        finally:
            store.close()


def test_finished_and_expired_rooms_are_not_resumed(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path)) as base:
        r = create_room(base, "toy", 2, bots={"0": "random:median_s=0.5", "1": "random:median_s=0.5"},
                        options={"data": {"start": 5, "goal": 7}, "tick": 1000})
        wait_for(lambda: room_info(base, r["room"])["status"] == "over", 30)
    store = Store(db_path)
    try:
        assert store.unfinished() == []
    finally:
        store.close()
    with serve_in_thread(ServerConfig(db=db_path)) as base:  # archived, still readable
        assert httpx.get(f"{base}/api/rooms/{r['room']}/record", timeout=5).json()["result"] is not None


# ---- bot parameters ---------------------------------------------------------------------------
@pytest.mark.parametrize("game,spec", [
    ("shooting-star", "ismcts:iters=1000000000"),
    ("shooting-star", "ismcts:median_s=nan"),
    ("shooting-star", "ismcts:median_s=inf"),
    ("shooting-star", "ismcts:ms=inf"),
    ("shooting-star", "ismcts:c=nan"),
    ("shooting-star", "ismcts:iters=１２"),
    ("meteor", "random:median_s=inf"),
    ("meteor", "random:median_s=nan"),
    ("meteor", "random:sigma=1e309"),
    ("meteor", "heuristic:min_s=1e9"),
    ("meteor", "heuristic:patience=1e12"),
    ("blast-off", "heuristic:race=1e9"),
    ("blast-off", "heuristic:median_s=-1"),
])
def test_unbounded_or_non_finite_bot_parameters_are_refused(game: str, spec: str) -> None:
    with pytest.raises(ValueError, match=r"finite|at most|out of range|not an integer"):
        make_bot(game, spec)


def test_the_server_refuses_a_bot_beyond_its_own_caps(server: str) -> None:
    for spec, needle in (("ismcts:iters=1000000000", "at most 1000000"), ("ismcts:iters=6000", "iters=5000"),
                         ("ismcts:ms=9000", "ms=5000"), ("random:median_s=nan", "finite")):
        r = httpx.post(server + "/api/rooms", json={"game": "shooting-star", "players": 2, "bots": {"1": spec}},
                       timeout=10)
        assert r.status_code == 400 and r.json()["code"] == "bad_bot" and needle in r.json()["message"], r.text
    assert create_room(server, "shooting-star", 2, bots={"1": "ismcts:iters=50"})["room"]


# ---- CPU budget ------------------------------------------------------------------------------
def test_cpu_budget_spends_refills_and_caps() -> None:
    now = [0.0]
    budget = CpuBudget(2.0, 0.5, clock=lambda: now[0])
    assert budget.available()
    budget.charge(2.5)
    assert not budget.available()
    now[0] = 0.5  # +0.25 s: still below zero
    assert not budget.available()
    now[0] = 2.0  # +1.0 s in all: 0.5 left
    assert budget.available()
    now[0] = 1000.0
    budget.charge(1.9)  # refilled to the burst (2.0), not beyond
    assert budget.available()
    budget.charge(0.2)
    assert not budget.available()


def test_a_search_bot_over_its_rooms_budget_makes_cheap_moves(db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[int] = []
    real = ISMCTSBot.act

    def counted(self: ISMCTSBot, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
        searches.append(1)
        return real(self, view, legal, rng)

    monkeypatch.setattr(ISMCTSBot, "act", counted)
    for burst, searched in ((0.0, False), (60.0, True)):
        searches.clear()
        with serve_in_thread(ServerConfig(db=db_path, bot_speed=0.02, bot_cpu_burst_s=burst)) as base:
            r = create_room(base, "shooting-star", 2, bots={"0": "ismcts:iters=20", "1": "random:median_s=0.5"})
            spectator = Ws(base, r["room"])
            spectator.until(lambda m: m["type"] == "view" and m["version"] >= 6, timeout=60)
            spectator.close()
        assert bool(searches) is searched  # with no budget the game goes on without a single search


def test_a_cheap_move_for_a_search_bot_is_its_games_heuristic() -> None:
    bot = make_bot("meteor", "ismcts:iters=10")
    cheap = CpuBudget(0.0, 0.0).cheap(0, bot)
    assert not isinstance(cheap, ISMCTSBot) and cheap.name.startswith("heuristic")


# ---- serve flags --------------------------------------------------------------------------------
def test_serve_flags_set_every_limit() -> None:
    args = build_parser().parse_args(["serve", "--room-rate", "5/hour", "--max-body", "2000", "--max-data", "1000",
                                      "--max-json-depth", "10", "--waiting-ttl", "60", "--bot-max-iters", "100",
                                      "--bot-max-ms", "50", "--bot-cpu-burst", "3", "--bot-cpu-rate", "0.1",
                                      "--keep-finished", "5", "--max-message", "1024"])
    cfg = config_from_args(args)
    assert (cfg.room_rate, cfg.max_body, cfg.max_data, cfg.max_json_depth, cfg.waiting_ttl_s, cfg.bot_max_iters,
            cfg.bot_max_ms, cfg.bot_cpu_burst_s, cfg.bot_cpu_rate, cfg.keep_finished_s, cfg.max_message) == (
        "5/hour", 2000, 1000, 10, 60.0, 100, 50.0, 3.0, 0.1, 5.0, 1024)
    defaults = config_from_args(build_parser().parse_args(["serve"]))
    assert defaults == ServerConfig()


@pytest.mark.parametrize("flags,needle", [
    (["--room-rate", "lots"], "--room-rate"), (["--bot-cpu-rate", "nan"], "--bot-cpu-rate"),
    (["--max-json-depth", "500"], "--max-json-depth"), (["--waiting-ttl", "inf"], "--waiting-ttl"),
    (["--max-data", "5000000"], "--max-data"), (["--bot-max-iters", "0"], "--bot-max-iters"),
])
def test_bad_serve_flags_are_refused_clearly(flags: list[str], needle: str) -> None:
    with pytest.raises(SystemExit, match=needle):
        config_from_args(build_parser().parse_args(["serve", *flags]))
