"""The design lab in the browser (``cosmodeck serve --lab``): edit a card, see the engine's errors at the
field, run a small compare with a progress bar, read the report in the page, in English and Spanish."""

from __future__ import annotations

import json
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
    # P8's hits are a list of [dx, dy] offsets: a repeatable list of small number rows, not JSON
    hits = page.locator('[data-path="destruction_set[0].hits"]')
    dy = page.locator('input[data-path="destruction_set[0].hits[0][1]"]')
    expect(dy).to_have_value("-1")
    # a hit too far away: the engine's sentence appears next to this very list
    dy.fill("-9")
    dy.press("Tab")
    expect(hits.locator(":scope > .err")).to_contain_text("lies outside every grid")
    expect(hits).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#lab-check")).to_contain_text("Destruction cards › P8 › hits (offsets)")
    expect(page.locator("#lab-run")).to_be_disabled()
    shots(page, "error")
    dy.fill("-1")
    dy.press("Tab")
    expect(hits.locator(":scope > .err")).to_have_count(0)
    # P8 hits two cells: + adds a copy of the last offset, which is then moved one cell further
    page.get_by_role("button", name="Add an item to Destruction cards › P8 › hits (offsets)", exact=True).click()
    second = page.locator('input[data-path="destruction_set[0].hits[1][1]"]')
    expect(second).to_have_value("-1")
    second.fill("-2")
    second.press("Tab")
    expect(page.locator("#lab-check")).to_contain_text("The engine accepts this card data.")
    expect(page.locator("#lab-check")).to_contain_text("Changed: Destruction cards P8.")
    expect(page.locator('[data-path="destruction_set[0].hits"] .err')).to_have_count(0)
    expect(page.locator('tr[data-path="destruction_set[0]"]')).to_have_class(re.compile("changed"))
    expect(second).to_have_class(re.compile("changed"))
    expect(hits).to_have_class(re.compile("changed"))
    # the JSON editor shows the same file
    page.get_by_role("tab", name="JSON (for experts)").click()
    doc = json.loads(page.locator("textarea.json").input_value())
    assert doc["destruction_set"][0]["hits"] == [[0, -1], [0, -2]]
    page.get_by_role("tab", name="Cards as forms").click()
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
    expect(report.locator("h2", has_text="What differs in the card data")).to_be_visible()
    expect(report.locator("li", has_text="P8: hits is (0, -1) in A and (0, -1), (0, -2) in B.")).to_be_visible()
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
    # the translations are held back: a click before they arrive (a loaded machine) is still the page's own
    # login, not the browser's form submit that reloads the page and swallows the answer
    held: list[Any] = []

    def hold(route: Any) -> None:  # Playwright wants a Python function here, not a bound builtin
        held.append(route)

    page.route("**/static/i18n/*.json", hold)
    page.goto(lab_server + "/lab?game=meteor")
    expect(page.locator("h2")).to_have_text("The lab needs its token")
    expect(page.locator("#lab-game")).to_have_count(0)
    page.fill("#lab-token", "a-wrong-token-0123456789")
    page.click("#lab-login button")
    page.wait_for_timeout(300)
    assert held, "the page asked for no translations"
    for route in held:
        route.continue_()
    page.unroute("**/static/i18n/*.json")
    expect(page.locator("#lab-login-msg")).to_contain_text("This is not the lab token")
    assert "?game=meteor" in page.url and "lab-token" not in page.url
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
    # the cookie lost while the page is open (a restart with a new token, a logout elsewhere): the next
    # request brings the door page back instead of failing silently
    other.context.clear_cookies()
    other.get_by_role("button", name="Revisar de nuevo").click()
    # the door page comes back by a reload; under CI's load that takes more than expect's default 5 s, and
    # until it lands the lab's own three h2 are on the page, so wait for the door's form, then its heading
    expect(other.locator("#lab-login")).to_be_visible(timeout=30_000)
    expect(other.locator("#lab-game")).to_have_count(0)
    expect(other.locator("section.step h2")).to_have_text("El laboratorio necesita su clave")
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]


def test_a_nested_mission_field_edited_in_the_form_changes_the_compare(browser: Any, lab_server: str,
                                                                       shots: Any) -> None:
    """Blast Off! M05 "Roger" obliges the other players; through its obligation's fieldset it obliges only the
    player, the JSON editor follows both ways, and a small compare finds fewer M05 obligations."""
    page = new_page(browser)
    page.goto(lab_server + f"/lab?game=blast-off#token={TOKEN}")
    who = page.get_by_label("Missions › M05 › obligation › who", exact=True)
    expect(who).to_have_value("others")
    obligation = page.locator('fieldset[data-path="missions[4].obligation"]')
    expect(obligation).to_be_visible()
    who.fill("nobody")
    who.press("Tab")
    expect(obligation.locator(".err")).to_contain_text("'actor' or 'others'")
    expect(who).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#lab-check")).to_contain_text("Missions › M05 › obligation › who")
    who.fill("actor")
    who.press("Tab")
    expect(page.locator("#lab-check")).to_contain_text("The engine accepts this card data.")
    expect(page.locator("#lab-check")).to_contain_text("Changed: Missions M05.")
    expect(obligation).to_have_class(re.compile("changed"))
    expect(obligation.locator(".err")).to_have_count(0)
    # a list inside a nested object: M02's colours, one removed and put back with +
    colours = page.locator('[data-path="missions[1].when.colour"]')
    expect(colours.locator("input")).to_have_count(2)
    page.get_by_role("button", name="Remove Missions › M02 › when › colour › item 2", exact=True).click()
    expect(colours.locator("input")).to_have_count(1)
    expect(page.locator("#lab-check")).to_contain_text("Changed: Missions M02, Missions M05.")
    page.get_by_role("button", name="Add an item to Missions › M02 › when › colour", exact=True).click()
    last = page.locator('input[data-path="missions[1].when.colour[1]"]')
    last.fill("GREEN")
    last.press("Tab")
    expect(page.locator("#lab-check")).to_contain_text("Changed: Missions M05.")
    shots(page, "nested")
    # forms -> JSON: the expert sees the edit; JSON -> forms: a name changed in the text shows in the form
    page.get_by_role("tab", name="JSON (for experts)").click()
    area = page.locator("textarea.json")
    doc = json.loads(area.input_value())
    assert doc["missions"][4]["obligation"] == {"who": "actor", "do": "announce", "token": "ROGER"}
    doc["missions"][4]["name"] = "Roger that"
    area.fill(json.dumps(doc, indent=1))
    page.get_by_role("tab", name="Cards as forms").click()
    expect(page.get_by_label("Missions › M05 › name", exact=True)).to_have_value("Roger that")
    expect(page.locator("#lab-check")).to_contain_text("The engine accepts this card data.")
    # a small compare: same seeds, so the only difference is M05's obligation
    page.select_option("#lab-mode", "compare")
    page.fill("#lab-players", "4")
    page.fill("#lab-games", "60")
    page.fill("#lab-seed", "1")
    page.click("#lab-run")
    expect(page.locator("#lab-result")).to_contain_text(re.compile(r"Done: 60 games with each card set"),
                                                        timeout=180_000)
    report = page.frame_locator("iframe.report")
    expect(report.locator("body")).to_contain_text("M05")
    href = page.locator("#lab-result a", has_text="compare.json").get_attribute("href")
    assert href is not None
    result = page.request.get(lab_server + href).json()
    m05 = {u["measure"]: u for u in result["units"] if u["id"] == "M05"}
    assert m05["obligations per game"]["b"] < m05["obligations per game"]["a"]  # only the player is obliged
    assert m05["revealed per game"]["b"] == m05["revealed per game"]["a"]  # in force in the same games
    shots(page, "nested-report")
    assert page.errors == []  # type: ignore[attr-defined]
