"""The lobby offers a bot level per seat (easy / normal / hard) with a plain explanation, sends it as the
seat's bot spec, and says what a wrong catch costs in a Blast Off! room (issue 12, "Fair bots", item 9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import cosmodeck
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

I18N = Path(cosmodeck.__file__).resolve().parent / "web" / "i18n"


def catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return out


def open_lobby(page: Any, base: str, game: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.wait_for_load_state("networkidle")  # the form is rebuilt once the room list has arrived
    page.select_option("#game", game)
    page.wait_for_selector("#level-1")


@pytest.mark.parametrize("game", ["blast-off", "shooting-star"])
def test_a_hard_bot_chosen_in_the_lobby_is_the_created_rooms_seat(game: str, browser: Any, web_server: str,
                                                                   shots: Any) -> None:
    page = new_page(browser, lang="en")
    errors = watch(page)
    open_lobby(page, web_server, game)
    en = catalogue("en")
    kind = "race" if game == "blast-off" else "doc"  # Blast Off! also tells the reaction to a called number
    assert page.locator("#level-1 option").all_inner_texts() == ["Easy", "Normal", "Hard"]
    assert page.locator("#level-1-doc").inner_text() == en[f"lobby.level.normal.{kind}"]
    page.select_option("#level-1", "hard")
    assert page.locator("#level-1-doc").inner_text() == en[f"lobby.level.hard.{kind}"]
    bot = page.eval_on_selector("#seat-1", "e => e.value")
    assert page.locator("#level-0").count() == 0  # a person's seat has no level
    scan(page, where="in the lobby with a hard bot")
    shots(page, "lobby")
    page.click("#create")
    page.wait_for_selector("#created")
    room = page.eval_on_selector("#created a.button[data-seat='0']", "a => a.href").split("/room/")[1].split("#")[0]
    rooms = {r["room"]: r for r in httpx.get(web_server + "/api/rooms", timeout=10).json()}
    assert rooms[room]["bots"] == {"1": f"{bot}:level=hard"}
    # the room tells its players the bot's level in words
    page.click("#created a.button[data-seat='0']")
    page.wait_for_selector(".pres.bot")
    assert page.locator(".pres.bot").inner_text().endswith(f"bot ({en[f'botlevel.{bot}']}, hard)")
    scan(page, where="in the room")
    errors.check()


def test_the_spanish_lobby_explains_levels_and_false_catches_in_spanish(browser: Any, web_server: str,
                                                                         shots: Any) -> None:
    page = new_page(browser, lang="es")
    errors = watch(page)
    open_lobby(page, web_server, "blast-off")
    es = catalogue("es")
    assert page.locator("#level-1 option").all_inner_texts() == ["Fácil", "Normal", "Difícil"]
    page.select_option("#level-1", "easy")
    assert page.locator("#level-1-doc").inner_text() == es["lobby.level.easy.race"]
    # a room's wrong catch costs one card unless the creator changes it, and the lobby says so
    assert page.locator("#false-catch-note").inner_text() == es["lobby.false_catch.one"]
    page.click("details.options summary")
    page.select_option("#opt-false_catch_penalty", index=0)  # "Ninguna"
    assert page.locator("#false-catch-note").inner_text() == es["lobby.false_catch.free"]
    text = page.inner_text("form")
    for english in ("Easy", "Hard", "Level", "level=", "heuristic", "random", "wrong catch", "card"):
        assert english not in text, english
    scan(page, where="in the Spanish lobby")
    shots(page, "es")
    errors.check()
