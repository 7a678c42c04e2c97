"""The lobby offers Meteor's fair team as a seat's bot, with a plain label in English and Spanish, and
never the omniscient planner (issue 14, "Bots strong enough to judge balance")."""

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


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_meteor_room_can_seat_the_fair_team_at_hard_level(lang: str, browser: Any, web_server: str,
                                                             shots: Any) -> None:
    texts: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(web_server + "/")
    page.wait_for_selector("#create")
    page.wait_for_load_state("networkidle")
    page.select_option("#game", "meteor")
    page.wait_for_selector("#level-1")
    options = page.locator("#seat-1 option").all_inner_texts()
    assert texts["bot.team"] in options
    assert not any("omniscient" in o.lower() for o in options)
    page.select_option("#seat-1", "team")
    page.select_option("#level-1", "hard")
    scan(page, where="in the Meteor lobby with the team bot")
    shots(page, "lobby")
    page.click("#create")
    page.wait_for_selector("#created")
    room = page.eval_on_selector("#created a.button[data-seat='0']", "a => a.href").split("/room/")[1].split("#")[0]
    rooms = {r["room"]: r for r in httpx.get(web_server + "/api/rooms", timeout=10).json()}
    assert rooms[room]["bots"] == {"1": "team:level=hard"}
    page.click("#created a.button[data-seat='0']")
    page.wait_for_selector(".pres.bot")
    said = texts["pres.bot"].replace("{name}", texts["botlevel.team:level=hard"])
    assert page.locator(".pres.bot").inner_text().endswith(said)
    scan(page, where="in the Meteor room with the team bot")
    errors.check()
