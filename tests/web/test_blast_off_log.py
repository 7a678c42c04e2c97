"""The Blast Off! log shows the cards it names as small card faces after each sentence: the card
played or slapped (a Wild as what it stands for), the Wild declared, the cards one drew. Each face
carries its colour's shape besides the colour (never colour alone); hovering it (a mouse) or tapping
it (a touch screen) opens it in full with its text. The faces come back with the log after a reload,
and the replay's step list shows them too."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web import test_blast_off
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("blast-off" not in cosmodeck.list_games(), reason="Blast Off is not registered")]

SHAPES = "▲■◆●"

# each log line with faces: its sentence and, per face, its code, shape mark and accessible name
LINES_JS = """(sel) => [...document.querySelectorAll(sel + ' li')].filter((li) => li.querySelector('.log-faces'))
  .map((li) => ({ text: li.textContent,
                  hidden: li.querySelector('.log-faces').getAttribute('aria-hidden'),
                  faces: [...li.querySelectorAll('.log-faces .bo-card')].map((f) => ({
                    code: f.dataset.code, mark: (f.querySelector('.mark') || {}).textContent || '',
                    label: f.getAttribute('aria-label'), title: f.title, mini: f.classList.contains('mini') })) }))"""


def play_until_faces(page: Any, n: int, seconds: float = 90) -> None:
    rng = random.Random(3)
    deadline = time.monotonic() + seconds
    while page.locator(".log .log-faces .bo-card").count() < n and not test_blast_off.result_shown(page):
        assert time.monotonic() < deadline, "no cards were logged"
        if not test_blast_off.play_step(page, rng):
            page.wait_for_timeout(50)


def check_lines(lines: list[dict[str, Any]]) -> None:
    assert lines, "no log line shows a card face"
    for line in lines:
        assert line["hidden"] == "true"  # the sentence names the cards: the faces are not read twice
        for f in line["faces"]:
            assert f["mini"] and f["label"] and f["title"], line
            if f["code"] not in ("W", "CD"):  # a coloured card: its shape besides its colour
                assert any(s in f["mark"] for s in SHAPES), line


@pytest.mark.parametrize("lang", ["en", "es"])
def test_log_lines_show_the_cards_as_faces_that_open_in_full(lang: str, browser: Any, web_server: str,
                                                             shots: Any) -> None:
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"},
                    options={**FAST_OPTIONS["blast-off"], **test_blast_off.FAST}, seed=7)
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    play_until_faces(page, 6)
    lines = page.evaluate(LINES_JS, ".log")
    check_lines(lines)
    played = "plays" if lang == "en" else "juega"
    assert any(played in x["text"] for x in lines), lines
    # the face of a played card is that card: "plays red 10" shows the red 10
    for x in lines:
        if f" {played} " in x["text"] and len(x["faces"]) == 1:
            assert x["faces"][0]["label"] in x["text"], x
    # a face by its place (new lines arrive meanwhile, after it)
    face = page.locator(".log .log-faces .bo-card").nth(page.locator(".log .log-faces .bo-card").count() - 1)
    title = face.get_attribute("title") or ""
    face.scroll_into_view_if_needed()
    face.hover()
    page.wait_for_selector(".peek:not([hidden]) .bo-card.big")
    peek = page.locator(".peek").inner_text()
    assert len(peek) > 40 and title in peek, (title, peek)
    scan(page, lang=lang, where="with a logged card open")
    shots(page, "1-peek")
    page.mouse.move(5, 5)
    page.wait_for_selector(".peek[hidden]", state="attached")
    # a reload: the server resends the recent events, the faces come back with their sentences
    before = len(lines)
    page.reload()
    page.wait_for_selector(".bo-hand .bo-card")
    page.wait_for_function(f"document.querySelectorAll('.log .log-faces').length >= {min(before, 10)}")
    check_lines(page.evaluate(LINES_JS, ".log"))
    errors.check()


def test_a_tap_opens_a_logged_card_on_a_phone_and_the_replay_shows_faces(browser: Any, web_server: str) -> None:
    r = create_room(web_server, "blast-off", 3, bots={"1": "heuristic", "2": "heuristic"},
                    options={**FAST_OPTIONS["blast-off"], **test_blast_off.FAST}, seed=7)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('cosmodeck.lang', 'es');")
    ctx.set_default_timeout(60_000)
    page = ctx.new_page()
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".bo-hand .bo-card")
    play_until_faces(page, 3)
    face = page.locator(".log .log-faces .bo-card").first
    face.scroll_into_view_if_needed()
    face.tap()
    page.wait_for_selector(".peek:not([hidden]) .bo-card.big")
    box = page.locator(".peek").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(".bo-hand h2").tap()  # a tap elsewhere closes it
    page.wait_for_selector(".peek[hidden]", state="attached")
    play_until_faces(page, 10_000, seconds=180)  # to the end of the game
    errors.check()
    ctx.close()
    # the replay's steps: the same faces
    replay = new_page(browser)
    replay_errors = watch(replay)
    replay.goto(f"{web_server}/replay/{r['room']}")
    replay.wait_for_selector("#replay-step")
    # the slider is drawn before the frames arrive: its length is known once the first step is told
    replay.wait_for_function("document.querySelectorAll('.replay-events li').length >= 1")
    steps = int(replay.get_attribute("#replay-step", "max") or "0")
    assert steps > 5
    seen = 0
    twice = []  # a step's line followed by its actor's own event: the same move told twice
    for i in range(steps + 1):
        replay.evaluate("(i) => { const s = document.getElementById('replay-step'); s.value = String(i);"
                        " s.dispatchEvent(new Event('input')); }", i)
        seen += replay.locator(".replay-events .log-faces .bo-card").count()
        lines = replay.locator(".replay-events li").all_inner_texts()
        if replay.locator(".replay-events li.step").count() and len(lines) > 1:
            actor = " ".join(lines[0].split()[:2])  # "Player 2"
            if actor.startswith(("Player ", "Jugador ")) and lines[1].lstrip("¡").startswith(actor + " "):
                twice.append(lines[:2])
    assert seen >= 5
    assert twice == [], twice
    check_lines(replay.evaluate(LINES_JS, ".replay-events"))
    replay_errors.check()


@pytest.mark.parametrize(("lang", "called", "slapped"), [
    ("en", "“Blast Off!”", "Player 3 slaps a green Blast Off card for Blast Off! No cards left."),
    ("es", "«¡Despegue!»", "¡Jugador 3 pega una carta de despegue verde por el Despegue! No le quedan cartas."),
])
def test_the_last_call_reads_with_one_exclamation_mark(lang: str, called: str, slapped: str, browser: Any,
                                                        web_server: str) -> None:
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(web_server + "/")
    page.wait_for_selector("#create")
    said = page.evaluate("""async () => {
      await import('/static/boards/blast-off-events.js');
      const { describeEvent } = await import('/static/events.js');
      const v = { game: 'blast-off', players: 3 };
      return [describeEvent({ type: 'countdown_called', value: 'BO' }, v),
              describeEvent({ type: 'slap_accepted', seat: 2, card: 'BO-G', face: 'GBO', value: 'BO', left: 0 }, v)];
    }""")
    assert said == [called, slapped]
    errors.check()
