"""The shell around the boards: the lobby in the player's language, rules pages one click away,
and a phone-sized screen with no sideways scrolling."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

GAMES = ("shooting-star", "meteor", "blast-off")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_lobby_offers_every_option_as_a_choice_with_an_explanation(lang: str, browser: Any,
                                                                       web_server: str, shots: Any) -> None:
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(web_server + "/")
    page.wait_for_selector("#create")
    page.click("details.options summary")
    for game in GAMES:
        page.select_option("#game", game)
        # the form is rebuilt after the room list arrives: wait for this game's own first option
        page.wait_for_selector({"shooting-star": "#opt-orientations", "meteor": "#opt-difficulty",
                                "blast-off": "#opt-dealer"}[game], state="attached")
        page.wait_for_load_state("networkidle")
        if not page.locator("details.options[open]").count():
            page.click("details.options summary")
        # no free text boxes for rules: every option is a dropdown or a checkbox, each explained
        fields = page.locator("details.options .field")
        assert fields.count() >= 5
        assert page.locator("details.options input[type='text'], details.options input:not([type])").count() == 0
        for i in range(fields.count()):
            field = fields.nth(i)
            if field.locator("#seed, #custom-data").count():  # a seed number and a card data upload
                continue
            assert field.locator("select, input[type='checkbox']").count() == 1
            assert field.locator("small.doc").inner_text().strip()
        scan(page, where=f"in the {game} lobby")
        if game == "meteor":
            choices = page.locator("#opt-difficulty option").all_inner_texts()
            want = ["Standard", "Advanced", "Expert"] if lang == "en" else ["Estándar", "Avanzado", "Experto"]
            assert choices == want
        shots(page, f"{game}")
    errors.check()


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_has_how_to_play_in_both_languages(game: str, browser: Any, web_server: str) -> None:
    page = new_page(browser)
    errors = watch(page)
    page.goto(web_server + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", game)
    page.wait_for_selector(f"#rules-link[href='/rules/{game}']")  # the form is rebuilt for the game
    page.click("#rules-link")  # one click from the lobby
    page.wait_for_selector(".howto p")
    assert page.url.endswith(f"/rules/{game}")
    words = {"meteor": ("Overkill", "volley", "Pass", "Communications Satellite"),
             "blast-off": ("countdown", "mission", "catch"),
             "shooting-star": ("priority", "arrow", "missions", "Space Shield")}[game]
    text = page.locator(".howto").inner_text()
    for w in words:
        assert w.lower() in text.lower(), w
    scan(page, where="on the rules page")
    page.select_option("#lang", "es")
    page.wait_for_function("document.querySelector('.howto h2').textContent === 'Cómo se juega'")
    scan(page, where="on the Spanish rules page")
    page.click("details.rules-full summary")  # the Spanish rulebook, as the package ships it
    page.wait_for_selector(".rules-text p.plain")
    assert len(page.locator(".rules-text").inner_text()) > 2000
    errors.check()


def test_rules_html_is_rendered_by_the_server_and_escapes_markup(web_server: str) -> None:
    r = httpx.get(f"{web_server}/api/rules/meteor", params={"lang": "en", "format": "html"})
    assert r.status_code == 200 and "<h1>" in r.text and "<table>" in r.text
    es = httpx.get(f"{web_server}/api/rules/meteor", params={"lang": "es", "format": "html"})
    assert es.status_code == 200 and es.text.startswith('<p class="plain">') and "<script" not in es.text
    bad = httpx.get(f"{web_server}/api/rules/meteor", params={"format": "pdf"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_format"


@pytest.mark.parametrize("path", ["/", "/rules/shooting-star", "/rules/meteor"])
def test_a_phone_never_scrolls_sideways(path: str, browser: Any, web_server: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('cosmodeck.lang', 'es');")
    page = ctx.new_page()
    errors = watch(page)
    page.goto(web_server + path)
    page.wait_for_selector("main > *")
    if path == "/":
        page.wait_for_selector("#create")
        page.click("details.options summary")
    else:
        page.click("details.rules-full summary")
        page.wait_for_selector(".rules-text p")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    errors.check()
    ctx.close()


def test_a_mistyped_address_gets_a_page_not_json(browser: Any, web_server: str) -> None:
    assert httpx.get(f"{web_server}/api/nowhere").json() == {"detail": "Not Found"}  # the API stays JSON
    page = new_page(browser, lang="es")
    errors = watch(page)
    response = page.goto(f"{web_server}/nowhere/at/all")
    assert response is not None and response.status == 404
    page.wait_for_selector("main h1")
    assert page.locator("main h1").inner_text() == "Esta página no existe"
    scan(page, where="on the missing page")
    # Chromium logs the document's own 404 status as a console error; nothing else may fail
    assert [e for e in errors if "status of 404" not in e] == [], list(errors)


def test_a_shooting_star_room_on_a_phone_fits_and_gives_touch_hints(browser: Any, web_server: str) -> None:
    from tests.server.util import create_room

    r = create_room(web_server, "shooting-star", 2, bots={"1": "random"})
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('cosmodeck.lang', 'es'); localStorage.setItem('cosmodeck.anim', 'off');")
    page = ctx.new_page()
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".ss-card:not([disabled])", timeout=30000)
    hand = page.locator(".ss-hand").inner_text()
    assert "Toca una carta" in hand and "teclas" not in hand.lower()
    assert page.locator(".ss-card .key").first.is_hidden()  # no key numbers on a touch screen
    page.locator(".ss-card:not([disabled])").first.tap()
    page.wait_for_selector(".ss-cell.legal")
    assert "Ahora toca un planeta resaltado" in page.locator(".ss-status").inner_text()
    scan(page, where="on a phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    errors.check()
    ctx.close()
