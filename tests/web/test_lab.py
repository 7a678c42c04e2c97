"""The design lab in the browser (``cosmodeck serve --lab``): edit a card, see the engine's errors at the
field, run a small compare with a progress bar, read the report in the page, in English and Spanish."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from cosmodeck.server import ServerConfig
from tests.server.util import serve_in_thread
from tests.web.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
TOKEN = "browser-lab-token-0123456789"


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("lab") / "lab.db"
    with serve_in_thread(ServerConfig(db=str(db), room_rate="", lab=True, lab_token=TOKEN)) as base:
        yield base


def test_a_designer_edits_p8_and_compares_it_in_the_lab(browser: Any, lab_server: str, shots: Any) -> None:
    page = new_page(browser)
    page.goto(lab_server + f"/lab#token={TOKEN}")
    page.select_option("#lab-game", "shooting-star")
    hits = page.locator('input[data-path="destruction_set[0].hits"]')
    expect(hits).to_have_value("[[0,-1]]")
    # a hit too far away: the engine's sentence appears next to this very field
    hits.fill("[[0, -9]]")
    hits.press("Tab")
    cell = hits.locator("xpath=..")
    expect(cell.locator(".err")).to_contain_text("lies outside every grid")
    expect(hits).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#lab-check")).to_contain_text("Destruction cards › P8 › hits (offsets)")
    expect(page.locator("#lab-run")).to_be_disabled()
    shots(page, "error")
    # P8 hits two cells: accepted, marked as a change
    hits.fill("[[0, -1], [0, -2]]")
    hits.press("Tab")
    expect(page.locator("#lab-check")).to_contain_text("The engine accepts this card data.")
    expect(page.locator("#lab-check")).to_contain_text("Changed: Destruction cards P8.")
    expect(cell.locator(".err")).to_have_count(0)
    expect(page.locator('tr[data-path="destruction_set[0]"]')).to_have_class(re.compile("changed"))
    expect(hits).to_have_class(re.compile("changed"))
    page.select_option("#lab-mode", "compare")
    page.fill("#lab-players", "2")
    page.fill("#lab-games", "40")
    page.click("#lab-run")
    expect(page.locator("#lab-result progress")).to_be_visible()
    done = re.compile(r"Done: 40 games with each card set")
    expect(page.locator("#lab-result")).to_contain_text(done, timeout=120_000)
    report = page.frame_locator("iframe.report")
    expect(report.locator("h2", has_text="What changed")).to_be_visible()
    expect(report.locator("body")).to_contain_text("P8")
    expect(page.locator("#lab-result a", has_text="units.csv")).to_have_attribute("download", "units.csv")
    shots(page, "report")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_lab_in_spanish_and_a_cancelled_run(browser: Any, lab_server: str, shots: Any) -> None:
    page = new_page(browser, lang="es")
    page.goto(lab_server + f"/lab?game=meteor#token={TOKEN}")
    expect(page.locator("h1")).to_have_text("Laboratorio de diseño")
    expect(page.locator("#lab-check")).to_contain_text("Son las cartas de fábrica, sin cambios.")
    expect(page.locator("details.sec[open] summary")).to_contain_text("Cohetes")
    page.select_option("#lab-mode", "simulate")
    page.fill("#lab-games", "2000")
    page.click("#lab-run")
    expect(page.locator("#lab-result")).to_contain_text("partidas jugadas")
    page.click("#lab-result button")
    expect(page.locator("#lab-result")).to_contain_text("La ejecución se canceló.")
    expect(page.locator("#lab-run")).to_be_enabled()
    shots(page, "cancelled")
    page.get_by_role("tab", name="JSON (para expertos)").click()
    page.fill("textarea.json", '{"format": ')
    page.get_by_role("button", name="Aplicar").click()
    expect(page.locator(".err[role=alert]")).to_contain_text("Esto no es JSON válido")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_lab_opens_only_with_its_token(browser: Any, lab_server: str, shots: Any) -> None:
    page = new_page(browser)
    page.goto(lab_server + "/lab?game=meteor")
    expect(page.locator("h2")).to_have_text("The lab needs its token")
    expect(page.locator("#lab-game")).to_have_count(0)
    page.fill("#lab-token", "a-wrong-token-0123456789")
    page.click("#lab-login button")
    expect(page.locator("#lab-login-msg")).to_contain_text("This is not the lab token")
    shots(page, "door")
    page.fill("#lab-token", TOKEN)
    page.click("#lab-login button")
    expect(page.locator("#lab-game")).to_have_value("meteor")
    # the link's token: exchanged for the cookie and gone from the address bar at once
    other = new_page(browser, lang="es")
    other.goto(lab_server + f"/lab#token={TOKEN}")
    expect(other.locator("h1")).to_have_text("Laboratorio de diseño")
    expect(other.locator("#lab-game")).to_be_visible()
    assert TOKEN not in other.url
    cookies = other.context.cookies()
    assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [("cosmodeck_lab", True, "Strict")]
    assert TOKEN not in cookies[0]["value"]
    assert other.evaluate("document.cookie") == ""  # HttpOnly: no script of the page can read it
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]
