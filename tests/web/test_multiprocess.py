"""Issue 15: the web client follows a redirect to the process that runs its room, and after that
process is killed (-9) goes back to the page's server, which has resumed the room."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.util import ServerProcess, create_room
from tests.web.conftest import new_page

pytestmark = pytest.mark.browser

# Every socket the page opens, and the type of every frame it receives on each.
RECORD = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    const entry = { url, frames: [] };
    window.__sockets.push(entry);
    ws.addEventListener("message", (e) => { try { entry.frames.push(JSON.parse(e.data).type); } catch {} });
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


@pytest.fixture
def pair() -> Iterator[tuple[ServerProcess, ServerProcess]]:
    from tests.pg import fresh_database, postgres_server

    with postgres_server() as admin:
        url = fresh_database(admin)
        one, two = ServerProcess(url), ServerProcess(url)
        one.extra = ("--public-url", one.base)
        two.extra = ("--public-url", two.base)
        one.start()
        two.start()
        try:
            yield one, two
        finally:
            one.stop()
            two.stop()


def sockets(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.__sockets")
    return found


def wait_for(page: Any, pred: Any, what: str, timeout: float = 30.0) -> list[dict[str, Any]]:
    end = time.monotonic() + timeout
    while True:
        found = sockets(page)
        if pred(found):
            return found
        assert time.monotonic() < end, f"{what}: {found}"
        time.sleep(0.1)


def test_the_page_follows_the_redirect_and_after_kill_9_finds_the_resumed_room(
        browser: Any, pair: tuple[ServerProcess, ServerProcess]) -> None:
    one, two = pair
    r = create_room(one.base, "shooting-star", 2, bots={"1": "random"})
    page = new_page(browser, simple=True)
    page.context.add_init_script(RECORD)
    page.goto(f"{two.base}/room/{r['room']}#token={r['seats']['0']}")  # the page from the other process
    ws_one = one.base.replace("http://", "ws://")
    ws_two = two.base.replace("http://", "ws://")
    found = wait_for(page, lambda s: len(s) >= 2 and "view" in s[1]["frames"], "no view after the redirect")
    assert found[0]["url"].startswith(ws_two) and found[0]["frames"] == ["redirect"]
    assert found[1]["url"] == f"{ws_one}/ws/{r['room']}"
    assert found[1]["frames"][0] == "hello"

    one.kill9()
    found = wait_for(page, lambda s: any(x["url"].startswith(ws_two) and "view" in x["frames"] for x in s[2:]),
                     "the page did not reach the resumed room on the other process")
    resumed = next(x for x in found[2:] if x["url"].startswith(ws_two) and "view" in x["frames"])
    assert resumed["frames"][0] == "hello"  # the other process runs the room now: no redirect
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
