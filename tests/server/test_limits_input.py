"""Issue 12, items 1 and 7: rooms are built from names and uploaded documents, never server files,
and hostile input gets a clear 4xx or an error frame (the socket kept open), never a 500 or a hang."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cosmodeck.api import default_data, load_game
from cosmodeck.engine.datahash import rules_hash
from cosmodeck.engine.options import TextInput
from cosmodeck.server import ServerConfig
from cosmodeck.storage.repository import Store
from tests.server.util import ROOT, Ws, create_room, room_info, serve_in_thread

SERVER_FILES = ["/dev/stdin", "/dev/zero", "/dev/urandom", "/etc/passwd", str(ROOT / "pyproject.toml"),
                "/no/such/file.json", "../../../../etc/hostname"]


def post(base: str, body: Any, timeout: float = 10.0) -> httpx.Response:
    return httpx.post(base + "/api/rooms", json=body, timeout=timeout)


@pytest.fixture
def watched(server: str) -> Iterator[tuple[str, Ws]]:
    """The server, and a client in another room that must keep being answered."""
    r = create_room(server, "toy", 2, options={"tick": 1000})
    ws = Ws(server, r["room"], r["seats"]["0"])
    ws.until(lambda m: m["type"] == "view")
    yield server, ws
    ws.close()


def still_answered(ws: Ws) -> None:
    ws.send({"type": "ping"})
    ws.until(lambda m: m["type"] == "pong", timeout=5)


# ---- item 1: names, never paths ------------------------------------------------------------
@pytest.mark.parametrize("path", SERVER_FILES)
def test_card_data_option_naming_a_server_file_is_refused_at_once(watched: tuple[str, Ws], path: str) -> None:
    base, ws = watched
    rooms_before = len(httpx.get(base + "/api/rooms", timeout=5).json())
    r = post(base, {"game": "toy", "players": 2, "options": {"data": path}}, timeout=1.0)  # /dev/stdin hung
    assert r.status_code == 400 and r.json()["code"] == "bad_data"
    assert path not in r.text  # the error speaks of the uploaded text, never of a file
    still_answered(ws)
    assert len(httpx.get(base + "/api/rooms", timeout=5).json()) == rooms_before


@pytest.mark.parametrize("path", ["/dev/stdin", "/dev/zero", str(ROOT / "pyproject.toml")])
def test_blast_off_missions_option_naming_a_server_file_is_refused_at_once(watched: tuple[str, Ws],
                                                                            path: str) -> None:
    base, ws = watched
    r = post(base, {"game": "blast-off", "players": 2, "options": {"missions": path}}, timeout=1.0)
    assert r.status_code == 400 and r.json()["code"] == "bad_data"
    still_answered(ws)


def test_error_does_not_tell_whether_a_server_file_exists(server: str) -> None:
    existing = post(server, {"game": "toy", "players": 2, "options": {"data": str(ROOT / "README.md")}}).json()
    missing = post(server, {"game": "toy", "players": 2, "options": {"data": str(ROOT / "NO_SUCH.md")}}).json()
    assert existing["code"] == missing["code"] == "bad_data"
    assert "not found" not in existing["message"] and "not found" not in missing["message"]
    assert existing["message"].replace("README", "X") == missing["message"].replace("NO_SUCH", "X")


def test_uploaded_card_data_is_stored_with_the_room_and_shown_by_hash(server: str, db_path: str) -> None:
    doc = {"start": 4, "goal": 9}
    r = create_room(server, "toy", 2, options={"data": doc, "tick": 1000})
    text = json.dumps(doc, ensure_ascii=False)
    digest = rules_hash(text, (("texts",),))  # the data hash: of the rules, texts left out
    ws = Ws(server, r["room"], r["seats"]["0"])
    hello = ws.until(lambda m: m["type"] == "hello")
    assert hello["data"] == {"custom": True, "hash": digest}
    assert hello["options"] == {"tick": 1000}  # the document is not echoed
    assert ws.until(lambda m: m["type"] == "view")["view"]["counter"] == 4  # the uploaded data is in play
    assert room_info(server, r["room"])["data"] == {"custom": True, "hash": digest}
    store = Store(db_path)
    try:
        row = store.room(r["room"])
    finally:
        store.close()
    assert row is not None and row.header["data"]["text"] == text and row.header["data_hash"] == digest
    ws.close()


def test_uploaded_card_data_as_text_works_like_the_packaged_file(server: str) -> None:
    packaged = default_data("blast-off").text
    r = create_room(server, "blast-off", 2, options={"data": packaged})
    ws = Ws(server, r["room"], r["seats"]["0"])
    hello = ws.until(lambda m: m["type"] == "hello")
    # the same rules as the packaged file: the same data hash
    assert hello["data"] == {"custom": True, "hash": load_game("blast-off").data_hash}
    assert packaged[:40] not in "".join(ws.frames)
    ws.close()


def test_uploaded_missions_are_shown_by_hash_not_echoed(server: str) -> None:
    missions = json.loads(default_data("blast-off").text)  # a data file is not a mission file
    r = post(server, {"game": "blast-off", "players": 2, "options": {"missions": missions}})
    assert r.status_code == 400 and r.json()["code"] == "bad_data"
    packaged = (ROOT / "src/cosmodeck/games/blast_off/data/missions.json").read_text(encoding="utf-8")
    room = create_room(server, "blast-off", 2, options={"missions": packaged})
    ws = Ws(server, room["room"], room["seats"]["0"])
    hello = ws.until(lambda m: m["type"] == "hello")
    assert hello["options"]["missions"] == {"custom": True, "hash": TextInput("x", packaged).sha}
    assert packaged[:40] not in ws.frames[0]
    ws.close()


def test_a_document_larger_than_the_cap_is_refused(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, max_data=1000)) as base:
        r = post(base, {"game": "toy", "players": 2, "options": {"data": {"start": 3, "goal": 12, "pad": "x" * 2000}}})
        assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_game_construction_runs_off_the_event_loop_with_a_timeout(db_path: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from cosmodeck.server import rooms

    release = threading.Event()
    real = rooms.load_game

    def slow_load(game_id: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("tick") == 77:
            release.wait(20)  # a document that takes long to check
        return real(game_id, *args, **kwargs)

    monkeypatch.setattr(rooms, "load_game", slow_load)
    with serve_in_thread(ServerConfig(db=db_path, build_timeout_s=1.0)) as base:
        other = create_room(base, "toy", 2, options={"tick": 1000})
        ws = Ws(base, other["room"], other["seats"]["0"])
        ws.until(lambda m: m["type"] == "view")
        answer: list[httpx.Response] = []
        t = threading.Thread(target=lambda: answer.append(post(base, {"game": "toy", "players": 2,
                                                                      "options": {"tick": 77}})))
        t.start()
        still_answered(ws)  # while the slow build runs, other rooms are served
        t.join(15)
        release.set()
        assert answer and answer[0].status_code == 400 and answer[0].json()["code"] == "build_timeout"
        assert create_room(base, "toy", 2, options={"tick": 1000})["room"]  # and the server goes on
        ws.close()


# ---- item 7: no 500s, no dropped sockets ----------------------------------------------------
@pytest.mark.parametrize("data,code", [(7, "bad_data"), ([1, 2], "bad_data"), ({"start": "x"}, "bad_data"),
                                       ({"nope": 1}, "bad_data"), (True, "bad_data"), ("{", "bad_data")])
def test_card_data_of_the_wrong_kind_is_a_clear_400(server: str, data: Any, code: str) -> None:
    r = post(server, {"game": "toy", "players": 2, "options": {"data": data}})
    assert r.status_code == 400 and r.json()["code"] == code, r.text


@pytest.mark.parametrize("key", ["²", "٣", "1.0", "-1", " 1", "999", ""])
def test_a_bot_seat_that_is_not_ascii_digits_is_a_clear_400(server: str, key: str) -> None:
    r = post(server, {"game": "toy", "players": 2, "bots": {key: "random"}})
    assert r.status_code == 400 and r.json()["code"] in ("bad_request", "bad_seat"), r.text


def test_a_100k_deep_json_body_is_a_clear_400(server: str) -> None:
    body = '{"game": "toy", "players": 2, "options": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    r = httpx.post(server + "/api/rooms", content=body, headers={"content-type": "application/json"}, timeout=10)
    assert r.status_code == 400 and r.json()["code"] == "too_deep"


def test_a_body_deeper_than_the_configured_depth_is_a_clear_400(server: str) -> None:
    r = post(server, {"game": "toy", "players": 2, "options": {"tick": json.loads("[" * 40 + "]" * 40)}})
    assert r.status_code == 400 and r.json()["code"] == "too_deep"


@pytest.mark.parametrize("depth", [40, 150, 1900])
def test_a_deep_websocket_message_gets_an_error_frame_and_the_socket_stays_open(server: str, depth: int) -> None:
    r = create_room(server, "toy", 2, options={"tick": 1000})
    ws = Ws(server, r["room"], r["seats"]["0"])
    ws.until(lambda m: m["type"] == "view")
    ws.send('{"type": "chat", "text": ' + "[" * depth + "]" * depth + "}")
    err = ws.until(lambda m: m["type"] == "error")
    assert err["code"] == "too_deep"
    still_answered(ws)
    ws.close()


def test_a_huge_content_length_is_refused_before_the_body_is_read(server: str) -> None:
    import socket

    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 104857600\r\n\r\n{")  # 100 MiB announced, one byte sent
        reply = b""
        end = time.monotonic() + 5
        while b"\r\n\r\n" not in reply and time.monotonic() < end:
            reply += s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]


def test_a_streamed_body_past_the_cap_is_refused(db_path: str) -> None:
    with serve_in_thread(ServerConfig(db=db_path, max_body=10_000)) as base:
        def chunks() -> Iterator[bytes]:
            yield b'{"game": "toy", "players": 2, "options": {"x": "'
            for _ in range(100):
                yield b"x" * 1000
            yield b'"}}'

        r = httpx.post(base + "/api/rooms", content=chunks(), timeout=10)  # chunked: no Content-Length
        assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_files_named_in_the_tests_exist_so_the_refusals_mean_something() -> None:
    assert Path("/dev/zero").exists() and (ROOT / "pyproject.toml").is_file() and (ROOT / "README.md").is_file()
