"""Switching the page from English to Spanish in the middle of a game, for each game: the hand, the
actions, the log and the card texts are re-rendered at once, without a reload, the card texts coming
from the room's data file (its catalogue) in Spanish. The page is scanned before and after the switch
(tests/web/scan.py), play goes on in Spanish, and any page or console error fails the test."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import cosmodeck
from cosmodeck.api import default_data
from tests.server.util import FAST_OPTIONS, create_room
from tests.web import test_blast_off, test_meteor, test_shooting_star
from tests.web.conftest import new_page
from tests.web.scan import PACKAGE, scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def i18n(lang: str) -> dict[str, str]:
    out: dict[str, str] = json.loads((PACKAGE / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return out


EN, ES = i18n("en"), i18n("es")


def switch_to_spanish(page: Any) -> None:
    """Choose Español in the language menu; the page must not reload (a marker on window survives)."""
    page.evaluate("window.__sameDocument = true")
    page.select_option("#lang", "es")
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.evaluate("window.__sameDocument === true"), "the page reloaded"


def log_text(page: Any) -> str:
    return str(page.locator(".log").inner_text())


def test_meteor_switches_to_spanish_mid_game(browser: Any, web_server: str, shots: Any) -> None:
    options = {**FAST_OPTIONS["meteor"], "zone_timer_s": 30.0}  # long zones: the game is still on at the switch
    r = create_room(web_server, "meteor", 2, bots={"1": "random"}, options=options, seed=4)
    page = new_page(browser, lang="en")
    errors = watch(page)
    fetched: list[str] = []
    page.on("request", lambda req: fetched.append(req.url) if req.url.endswith("/catalogue") else None)
    page.goto(r["links"]["0"])
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card")
    rng = random.Random(2)
    placed = 0
    deadline = time.monotonic() + 30
    while placed < 2 and time.monotonic() < deadline:
        placed += test_meteor.play_step(page, rng) == "placed"
        scan(page, where="before the switch")
    assert placed >= 2, "no card was placed"
    assert "Your hand" in page.locator(".met-hand h2").inner_text()
    assert "places" in log_text(page)
    faces_en = " ".join(page.locator(".met-card").all_inner_texts())
    assert any(w in faces_en for w in ("Fuel", "Atomic", "Electric", "Rocket", "Technology")), faces_en
    shots(page, "1-en")

    switch_to_spanish(page)
    assert "Tu mano" in page.locator(".met-hand h2").inner_text()  # the hand
    faces = " ".join(page.locator(".met-card").all_inner_texts())  # card texts from the data file
    assert any(w in faces for w in ("Combustible", "Atómica", "Eléctrica", "Cohete", "Tecnología")), faces
    assert not any(w in faces for w in ("Fuel", "Atomic", "Electric", "Rocket", "Technology")), faces
    assert "Exosfera" in page.locator("body").inner_text()  # the zone, from the data file
    passing = page.locator("button[data-action='pass']")  # the actions
    if passing.count():
        assert passing.first.inner_text() == ES["met.verb.pass"]
    log = log_text(page)  # the log, every line again in Spanish
    assert "coloca" in log and " places " not in log, log[-400:]
    scan(page, where="right after switching to Spanish")
    shots(page, "2-es")
    assert len(fetched) == 1, fetched  # the card texts came once for the room, not with each view
    steps = 0
    while steps < 6 and not test_meteor.result_shown(page):
        test_meteor.play_step(page, rng)
        scan(page, where=f"playing on in Spanish, step {steps}")
        steps += 1
    errors.check()


def test_blast_off_switches_to_spanish_mid_game_with_the_missions_of_the_data_file(
        browser: Any, web_server: str, shots: Any) -> None:
    doc = json.loads(default_data("blast-off").text)
    for m in doc["missions"]:  # a designer's wording, with its own translation: the page must show this one
        m["text"] = m["text"].rstrip(".!") + " (house rule)."
        es = doc["texts"][f"mission.{m['id']}.text"]
        es["es"] = es["es"] + " (regla de la casa)"
    doc["deck"]["countdown"] = 14  # countdowns (and so missions) come early and often
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"},
                    options={**test_blast_off.FAST, "play_for_places": True, "data": doc}, seed=5)
    page = new_page(browser, lang="en")
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    rng = random.Random(3)
    deadline = time.monotonic() + 90
    steps = 0
    # play until a mission is in force (its card shown), then a few steps more
    while not page.locator(".bo-missions .bo-mission").count() or steps < 6:
        assert time.monotonic() < deadline, "no mission came into force"
        assert not test_blast_off.result_shown(page), "the game ended before a mission came into force"
        if not test_blast_off.play_step(page, rng):
            time.sleep(0.05)
        scan(page, lang="en", where=f"before the switch, step {steps}")
        steps += 1
    mission_en = page.locator(".bo-missions .bo-mission").first.inner_text()
    assert "(house rule)" in mission_en, mission_en
    shots(page, "1-en")

    switch_to_spanish(page)
    assert "Tu mano" in page.locator(".bo-hand h2").inner_text()
    mission = page.locator(".bo-missions .bo-mission").first.inner_text()
    assert "(regla de la casa)" in mission and "house rule" not in mission, mission
    assert ES["bo.english_only"] not in mission
    hand = " ".join(page.locator(".bo-hand .bo-card").all_inner_texts())
    assert not any(w in hand for w in ("orange", "green", "purple", "red", "Wild")), hand
    log = log_text(page)
    assert "Turno de" in log and "Turn of" not in log, log[-300:]
    scan(page, lang="es", where="right after switching to Spanish")
    shots(page, "2-es")
    for step in range(6):
        if test_blast_off.result_shown(page):
            break
        test_blast_off.play_step(page, rng)
        scan(page, lang="es", where=f"playing on in Spanish, step {step}")
    errors.check()


def test_shooting_star_switches_to_spanish_mid_game(browser: Any, web_server: str, shots: Any) -> None:
    r = create_room(web_server, "shooting-star", 2, bots={"1": "random"}, seed=6)
    page = new_page(browser, lang="en")
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".ss-grid .ss-cell", timeout=15000)
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    turns = 0
    while turns < 2:
        assert time.monotonic() < deadline, "no turn came"
        if test_shooting_star.play_turn(page, rng):
            turns += 1
        else:
            time.sleep(0.1)
        scan(page, where="before the switch")
    page.wait_for_function("document.querySelectorAll('.log li').length > 2")
    missions_en = page.locator(".ss-missions").inner_text()
    assert EN["ss.your_missions"] in missions_en
    mission_texts = json.loads(default_data("shooting-star").text)["missions"]
    assert any(m["text"]["en"] in missions_en for m in mission_texts), missions_en
    shots(page, "1-en")

    switch_to_spanish(page)
    assert "Tu mano" in page.locator(".ss-hand h2").inner_text()
    missions = page.locator(".ss-missions").inner_text()  # the mission cards, from the data file
    assert ES["ss.your_missions"] in missions
    shown = [m for m in mission_texts if m["text"]["es"] in missions]
    assert shown and not any(m["text"]["en"] in missions for m in mission_texts), missions
    assert not test_shooting_star.result_shown(page)
    scan(page, where="right after switching to Spanish")
    shots(page, "2-es")
    for step in range(3):
        test_shooting_star.play_turn(page, rng)
        scan(page, where=f"playing on in Spanish, step {step}")
    errors.check()


if "meteor" not in cosmodeck.list_games():  # pragma: no cover - the three games ship together
    pytest.skip("the games are not registered", allow_module_level=True)


def test_a_meteor_text_the_data_file_has_not_translated_shows_its_english_with_a_notice(
        browser: Any, web_server: str) -> None:
    doc = json.loads(default_data("meteor").text)
    doc["texts"]["tech.T02"] = {"en": "Deep Radar"}  # a designer's new name, not translated yet
    doc["texts"]["zone.5"]["es"] = "Exosfera alta"  # a changed translation
    r = create_room(web_server, "meteor", 1, options={**FAST_OPTIONS["meteor"], "data": doc})
    page = new_page(browser, lang="es")
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".met-field")
    got = page.evaluate("""async () => {
      const { techName, zoneName } = await import('/static/boards/meteor-cards.js');
      return { tech: techName(null, 'T02#1'), zone: zoneName(null, 5) };
    }""")
    assert got == {"tech": f"Deep Radar {ES['untranslated']}", "zone": "Exosfera alta"}
    assert "Exosfera alta" in page.locator("body").inner_text()
    errors.check()
