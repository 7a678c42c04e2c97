"""A whole game of Blast Off! through the Blast Off board, by clicking, against two bots: once in
English (with a language switch mid-game) and once in Spanish. At every step the page's visible text
is scanned (tests/web/scan.py) and any page or console error fails the test. Then the game's replay
opens and steps to the end, in sentences, in both languages."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import cosmodeck
from cosmodeck.api import default_data
from tests.server.util import create_room
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("blast-off" not in cosmodeck.list_games(), reason="Blast Off is not registered")]

# short windows, so that a whole game takes well under two minutes; obligations still leave a
# clicking player time to answer
FAST = {"tick_s": 0.5, "countdown_pace": "fast", "obligation_s": 2.5, "catch_window_s": 2.0,
        "declare_timeout_s": 3.0, "choose_timeout_s": 3.0}

WORDS = {  # what each language's page must say somewhere during a game
    "en": {"hand": "Your hand", "log": ("plays", "draws"), "over": "Cards left", "help": "How to play"},
    "es": {"hand": "Tu mano", "log": ("juega", "roba"), "over": "Cartas restantes", "help": "Cómo se juega"},
}


def result_shown(page: Any) -> bool:
    return bool(page.locator(".result:not([hidden])").count())


def click_one(page: Any, selector: str, rng: random.Random) -> bool:
    """Click one of the visible elements matching ``selector`` at random; False if none or it went away."""
    from playwright.sync_api import Error as PlaywrightError

    found = page.locator(selector)
    n = found.count()
    if not n:
        return False
    try:
        found.nth(rng.randrange(n)).click(timeout=1500)
    except PlaywrightError:  # re-rendered under the click (a bot acted): look again next round
        return False
    return True


def play_step(page: Any, rng: random.Random) -> str:
    """Do what a player would do now on the Blast Off board; returns what it did ('' if nothing)."""
    if click_one(page, ".bo-obl .bo-say button", rng):
        return "said"
    if click_one(page, ".bo-countdown button.bo-slap", rng):
        return "slapped"
    if click_one(page, ".bo-acts .bo-wildgrid button.bo-card", rng):
        return "declared"
    if click_one(page, ".bo-acts button[data-action^='choose']", rng):
        return "chose"
    if click_one(page, ".bo-wild button.bo-card", rng):
        return "played a wild"
    if rng.random() < 0.08 and click_one(page, ".bo-acts button.bo-catch", rng):
        return "caught"
    if click_one(page, ".bo-hand .bo-cards button.bo-card", rng):
        return "played"
    if click_one(page, ".bo-acts button.primary", rng):
        return "drew"
    return ""


def play_a_game(page: Any, lang: str, shots: Any, switch_mid_game: bool) -> dict[str, int]:
    rng = random.Random(7)
    deadline = time.monotonic() + 110
    did: dict[str, int] = {}
    steps = 0
    switched = False
    while not result_shown(page):
        assert time.monotonic() < deadline, f"the game did not finish in time: {did}"
        what = play_step(page, rng)
        if what:
            did[what] = did.get(what, 0) + 1
        scan(page, lang=lang, where=f"at step {steps} ({what or 'waiting'})")
        steps += 1
        if steps == 4:
            shots(page, "2-midgame")
        if page.locator(".bo-countdown:not([hidden])").count() and "countdown" not in did:
            did["countdown"] = 1
            shots(page, "3-countdown")
        if page.locator(".bo-missions .bo-mission").count() and "mission" not in did:
            did["mission"] = 1
            shots(page, "4-mission")
        if page.locator(".bo-obl:not([hidden])").count() and "obligation" not in did:
            did["obligation"] = 1
            shots(page, "4-obligation")
        if switch_mid_game and not switched and steps >= 8:
            switched = True
            # switching language re-renders hand, actions and log at once
            page.select_option("#lang", "es")
            page.wait_for_function("document.documentElement.lang === 'es'")
            assert "Tu mano" in page.locator(".bo-hand h2").inner_text()
            assert "Cómo se juega" in page.locator(".bo-help summary").inner_text()
            log = page.locator(".log").inner_text()
            assert "Turno de" in log and "Turn of" not in log, log[-300:]
            scan(page, lang="es", where="after switching to Spanish mid-game")
            page.select_option("#lang", "en")
            page.wait_for_function("document.documentElement.lang === 'en'")
            assert "Your hand" in page.locator(".bo-hand h2").inner_text()
        if not what:
            time.sleep(0.05)
    return did


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_game_of_blast_off_through_the_board(lang: str, browser: Any, web_server: str, shots: Any) -> None:
    words = WORDS[lang]
    # in Spanish the game goes on for second and third place (a longer game, every place told)
    options = {**FAST, "play_for_places": lang == "es"}
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"}, options=options,
                    seed=3 if lang == "en" else 6)
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-table .bo-card")
    page.wait_for_selector(".bo-hand .bo-card")
    assert words["hand"] in page.locator(".bo-hand h2").inner_text()
    assert words["help"] in page.locator(".bo-help summary").inner_text()
    scan(page, lang=lang, where="at the start")
    # hovering a card shows it large with its full text
    page.locator(".bo-hand .bo-card").first.hover()
    page.wait_for_selector(".bo-zoom:not([hidden]) .bo-card.big")
    assert len(page.locator(".bo-zoom p").inner_text()) > 20
    scan(page, lang=lang, where="with a card zoomed")
    shots(page, "1-start")
    started = time.monotonic()
    did = play_a_game(page, lang, shots, switch_mid_game=lang == "en")
    took = time.monotonic() - started
    assert did.get("played", 0) + did.get("played a wild", 0) + did.get("drew", 0) >= 2, did
    page.wait_for_selector(".result .bo-places")
    scan(page, lang=lang, where="at the end")
    shots(page, "5-over")
    # the result explains itself: a place and the cards left for every player, then play again
    table = page.locator(".result .bo-places").inner_text()
    assert words["over"] in table
    assert page.locator(".result .bo-places tbody tr").count() == 3
    page.wait_for_selector("#rematch")  # the host plays again through the server rematch, one button
    assert page.locator("#play-again").count() == 0
    log = page.locator(".log").inner_text()
    assert any(w in log for w in words["log"]), log[-500:]
    errors.check()
    print(f"blast off game ({lang}) took {took:.1f} s: {did}")

    # the replay: opens, steps to the end, every step told in sentences, without a page error
    replay = new_page(browser, lang=lang)
    replay_errors = watch(replay)
    replay.goto(f"{web_server}/replay/{r['room']}")
    replay.wait_for_selector("#replay-step")
    replay.wait_for_function("document.querySelectorAll('.replay-events li').length >= 1")
    steps = int(replay.get_attribute("#replay-step", "max") or "0")
    assert steps > 10
    for i in [*range(0, steps, max(1, steps // 40)), steps]:
        replay.evaluate("""(i) => { const s = document.getElementById('replay-step');
            s.value = String(i); s.dispatchEvent(new Event('input')); }""", i)
        scan(replay, lang=lang, where=f"at replay step {i}")
    assert replay.locator(".replay-bar .pos").inner_text().endswith(f"{steps}")
    shots(replay, "6-replay-end")
    replay_errors.check()


CONTRAST_JS = """async () => {
  const { cardEl } = await import('/static/boards/blast-off-cards.js');
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/\\d+/g).slice(0, 3).map((x) => {
      const c = Number(x) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const box = document.createElement('div');
  document.body.append(box);
  const out = {};
  for (const code of ['O7', 'G10', 'P3', 'R1', 'BO-G', 'BO-R', 'W', 'W[P3]', 'W[RBO]', 'CD']) {
    const el = cardEl(code);
    box.append(el);
    const s = getComputedStyle(el);
    const a = lum(s.color), b = lum(s.backgroundColor);
    out[code] = { text: el.innerText.replace(/\\s+/g, ' ').trim(), title: el.title,
                  contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_card_faces_carry_a_shape_and_a_word_besides_their_colour_with_aa_contrast(
        lang: str, browser: Any, web_server: str) -> None:
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(web_server + "/")
    page.wait_for_selector("#create")
    faces = page.evaluate(CONTRAST_JS)
    colour = {"en": {"O": "orange", "G": "green", "P": "purple", "R": "red"},
              "es": {"O": "naranja", "G": "verde", "P": "morado", "R": "rojo"}}[lang]
    shapes = {"O": "▲", "G": "■", "P": "◆", "R": "●"}
    for code, want in (("O7", "O"), ("G10", "G"), ("P3", "P"), ("R1", "R"), ("BO-G", "G"), ("W[P3]", "P")):
        text = faces[code]["text"]
        assert shapes[want] in text and colour[want] in text, (code, text)  # never colour alone
    assert "7" in faces["O7"]["text"] and "10" in faces["G10"]["text"]
    assert ("Blast Off!" if lang == "en" else "¡Despegue!") in faces["BO-R"]["text"]
    assert ("Wild" if lang == "en" else "Comodín") in faces["W"]["text"]
    assert ("Countdown" if lang == "en" else "Cuenta regresiva") in faces["CD"]["text"]
    for code, f in faces.items():
        assert f["contrast"] >= 4.5, (code, f)  # WCAG AA for normal text
        assert f["title"] and "{" not in f["title"], (code, f)  # hover text: the card in words and its rule
    errors.check()


def test_a_changed_mission_text_is_shown_in_english_and_says_so_on_a_spanish_page(browser: Any,
                                                                                 web_server: str) -> None:
    """The mission texts come from the room's data file: its own Spanish where it has one, else its
    English marked "English only"; the UI catalogue holds no mission text."""
    doc = json.loads(default_data("blast-off").text)
    doc["missions"][0]["text"] = 'Whoever plays an 8 must say "Houston!"'
    doc["texts"]["mission.M01.text"] = {"es": "Quien juega un 8 debe decir «¡Houston!»"}
    doc["missions"][1]["text"] = "When a red card is played, the direction of play reverses."
    del doc["texts"]["mission.M02.text"]
    r = create_room(web_server, "blast-off", 2, bots={"1": "random"}, options={"data": doc})
    page = new_page(browser, lang="es")
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand")
    got = page.evaluate("""async () => {
      const { missionText, missionCard } = await import('/static/boards/blast-off-missions.js');
      const own = missionText({ id: 'M01', name: 'Houston', text: 'Whoever plays an 8 must say "Houston!"' });
      const changed = missionText({ id: 'M02', name: 'Change Course',
                                    text: 'When a red card is played, the direction of play reverses.' });
      const std = missionText({ id: 'M05', name: 'Roger',
                                text: 'When a 5 is played, every other player must say "Roger!"' });
      const unknown = missionCard({ id: 'X9', name: 'Moon Dance', text: 'Everyone dances.' });
      return { own, changed, std, card: unknown.innerText };
    }""")
    assert got["own"] == {"name": "Houston", "text": "Quien juega un 8 debe decir «¡Houston!»", "englishOnly": False}
    assert got["changed"]["englishOnly"] is True and "a red card" in got["changed"]["text"]
    assert got["changed"]["name"] == "Cambio de rumbo"
    assert got["std"] == {"name": "Recibido", "text": "Cuando se juega un 5, todos los demás jugadores deben decir "
                          "«¡Recibido!»", "englishOnly": False}
    assert "Solo en inglés" in got["card"] and "Everyone dances." in got["card"]
    errors.check()
