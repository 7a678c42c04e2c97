"""Issue 12 item 4: seat tokens never travel in a URL, never reach a log, and are stored only as hashes."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cosmodeck.server import ServerConfig
from cosmodeck.server.auth import RedactTokens, hash_token, redact
from cosmodeck.storage import RoomRow, Store
from tests.server.util import ServerProcess, Ws, create_room, serve_in_thread


def test_a_token_in_the_url_is_refused(server: str) -> None:
    r = create_room(server, "toy", 2, options={"tick": 1000})
    ws = Ws(server, f"{r['room']}?token={r['seats']['0']}", auth=False)
    err = ws.recv()
    assert err["type"] == "error" and err["code"] == "token_in_url" and "never goes in the URL" in err["message"]
    assert ws.closed_code() == 4401


def test_the_first_message_must_authenticate(server: str) -> None:
    r = create_room(server, "toy", 2, options={"tick": 1000})
    ws = Ws(server, r["room"], auth=False)
    ws.send({"type": "act", "action": "add 1", "version": 0})
    assert ws.recv()["code"] == "auth_required"
    assert ws.closed_code() == 4401
    ws = Ws(server, r["room"], auth=False)
    ws.send({"type": "auth", "token": 7})
    assert ws.recv()["code"] == "bad_message"
    ws = Ws(server, r["room"], "not-a-token")
    assert ws.recv()["code"] == "bad_token"


def test_auth_without_a_token_joins_as_a_spectator(server: str) -> None:
    r = create_room(server, "toy", 2, options={"tick": 1000})
    for first in ({"type": "auth"}, {"type": "auth", "token": None}):
        ws = Ws(server, r["room"], auth=False)
        ws.send(first)
        hello = ws.recv()
        assert hello["type"] == "hello" and hello["seat"] is None


def test_no_token_in_the_debug_log_or_the_database(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    log = tmp_path / "server.log"
    proc = ServerProcess(str(db), log_level="debug", log_path=log)
    proc.start()
    try:
        r = create_room(proc.base, "toy", 2, options={"tick": 1000})
        tokens = list(r["seats"].values())
        refused = Ws(proc.base, f"{r['room']}?token={tokens[0]}", auth=False)  # a client doing it wrong
        assert refused.recv()["code"] == "token_in_url"
        a = Ws(proc.base, r["room"], tokens[0])
        b = Ws(proc.base, r["room"], tokens[1])
        a.act("add 1", 0)
        b.view_at_least(1)
        a.close()
        b.close()
    finally:
        proc.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "WebSocket /ws/" in text and "[redacted]" in text  # uvicorn's handshake and frame lines were logged
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("rooms.db"))
    for token in tokens:
        assert token not in text
        assert token.encode() not in stored
        assert hash_token(token).encode() in stored


def test_rooms_stored_with_plain_tokens_still_load_and_keep_only_hashes(db_path: str) -> None:
    store = Store(db_path)
    store.create_room(RoomRow(id="oldroom1", game="toy", players=2, seed=1, header={"game": "toy",
                                                                                    "options": {"tick": 1000}},
                              seats={"0": {"token": "plain-secret-0"}, "1": {"token": "plain-secret-1"}},
                              status="waiting", origin=None, created=time.time(), result=None, steps=0))
    store.close()
    with serve_in_thread(ServerConfig(db=db_path)) as base:
        a = Ws(base, "oldroom1", "plain-secret-0")
        hello = a.recv()
        assert hello["type"] == "hello" and hello["seat"] == 0
    store = Store(db_path)
    row = store.room("oldroom1")
    store.close()
    assert row is not None and row.seats == {"0": {"token_sha256": hash_token("plain-secret-0")},
                                             "1": {"token_sha256": hash_token("plain-secret-1")}}


def test_the_log_filter_hides_tokens_in_urls_frames_and_reprs() -> None:
    assert redact("GET /ws/abc?token=s3cr3t-x_y HTTP/1.1") == "GET /ws/abc?token=[redacted] HTTP/1.1"
    assert "s3cr3t" not in redact(json.dumps({"type": "auth", "token": "s3cr3t"}))
    assert "s3cr3t" not in redact("{'type': 'auth', 'token': 's3cr3t'}")
    import logging
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" %d',
                               (("127.0.0.1", 5), "/ws/abc?token=s3cr3t", 403), None)
    assert RedactTokens().filter(record)
    assert record.getMessage() == "('127.0.0.1', 5) - \"WebSocket /ws/abc?token=[redacted]\" 403"
    assert isinstance(record.args, tuple) and record.args[2] == 403  # formatters still get their arguments
