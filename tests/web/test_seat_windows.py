"""A seat opened in more windows than the server allows: the oldest page says so in a sentence, in
English and Spanish, and does not reconnect (two pages reconnecting would take turns closing each
other); the newest page plays."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from cosmodeck.server import ServerConfig
from tests.server.util import create_room, serve_in_thread
from tests.web.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SAID = {"en": ("connected", "open in another window", "This seat was opened in another window"),
        "es": ("conectado", "abierta en otra ventana", "Este asiento se abrió en otra ventana")}


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("windows") / "web.db"
    with serve_in_thread(ServerConfig(db=str(db), bot_speed=0.05, room_rate="", seat_connections=1)) as base:
        yield base


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_older_window_of_a_seat_says_it_was_replaced_and_stays_closed(lang: str, browser: Any, one_window: str,
                                                                         shots: Any) -> None:
    from playwright.sync_api import expect

    r = create_room(one_window, "shooting-star", 2, bots={"1": "random"})
    link = r["links"]["0"]
    old = new_page(browser, lang)
    old.goto(link)
    connected, status, sentence = SAID[lang]
    badge, toasts = old.locator("span.badge[role=status]"), old.locator("#toasts")
    expect(badge).to_have_text(connected)
    new = new_page(browser, lang)
    new.goto(link)
    expect(new.locator("span.badge[role=status]")).to_have_text(connected)
    expect(badge).to_have_text(status)
    expect(toasts).to_contain_text(sentence)
    shots(old, "replaced")
    time.sleep(2.0)  # a reconnecting page would have tried again by now (its first retry is after 0.25 s)
    expect(badge).to_have_text(status)
    assert old.errors == [] and new.errors == []
    for page in (old, new):
        page.context.close()
