"""Whole games of Meteor through the Meteor board, by clicking, with bots in the other seats: in
English, in Spanish, and an advanced game whose Backwards seat is played by the test. Every step's
visible text is scanned (tests/web/scan.py); any page or console error fails the test. Then the
replay opens and steps to the end."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import cosmodeck
from tests.server.util import FAST_OPTIONS, create_room
from tests.web.conftest import new_page
from tests.web.scan import scan, watch

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"),
              pytest.mark.skipif("meteor" not in cosmodeck.list_games(), reason="Meteor is not registered")]

# short zones (whole games in seconds), but long enough for a person to place a few cards
OPTIONS = {**FAST_OPTIONS["meteor"], "zone_timer_s": 3.0}


def result_shown(page: Any) -> bool:
    return bool(page.locator(".result:not([hidden]) .met-result").count())


def cost_of(card: str) -> str:
    from tests.meteor.helpers import load

    data = load().new_game(players=1, seed=1).data
    return "".join(data.resources[card].cost) if card in data.resources else ""


def play_step(page: Any, rng: random.Random) -> str:
    """One click (or two) a player would make: launch a built rocket, build a rocket on the own site
    with the energy it misses, or put a card somewhere; sometimes pass. Returns what it did."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        launches = page.locator("button.met-launch:not(.overkill)")
        if launches.count():
            launches.first.click(timeout=1000)
            return "launch"
        dead = page.locator(".met-site[data-site='s0'][data-status='dead'] button[data-action='discard_project s0']")
        if dead.count():
            dead.first.click(timeout=1000)
            return "discarded"
        cards = page.locator(".met-cards button.met-card:not([disabled])")
        n = cards.count()
        if n == 0:
            passes = page.locator("button[data-action='pass']")
            if passes.count() and rng.random() < 0.3:
                passes.first.click(timeout=1000)
                return "pass"
            return ""
        mine = page.locator(".met-site[data-site='s0']")
        missing = mine.get_attribute("data-missing", timeout=1000) or "" if mine.count() else ""
        status = mine.get_attribute("data-status", timeout=1000) if mine.count() else ""
        ids = [cards.nth(i).get_attribute("data-card", timeout=1000) or "" for i in range(n)]
        pick = None
        if status == "empty":
            pick = next((i for i, c in enumerate(ids) if c.startswith("R")), None)
        elif missing:
            pick = next((i for i, c in enumerate(ids) if c.split("#")[0] in missing), None)
        if pick is None:
            pick = rng.randrange(n)
        cards.nth(pick).click(timeout=1000)
        targets = page.locator(".met-site.target button.primary")
        if not targets.count():
            return "picked"
        own = page.locator(".met-site.target[data-site='s0'] button.primary")
        chosen = own.first if own.count() and rng.random() < 0.8 else targets.nth(rng.randrange(targets.count()))
        chosen.click(timeout=1000)
        return "placed"
    except PlaywrightTimeout:  # re-rendered under the click: look again
        return ""


def open_room(browser: Any, base: str, lang: str, players: int, options: dict[str, Any],
              seed: int) -> tuple[Any, Any, str]:
    bots = {str(s): "random" for s in range(1, players)}
    r = create_room(base, "meteor", players, bots=bots, options=options, seed=seed)
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(r["links"]["0"])
    page.wait_for_selector(".met-field")
    page.wait_for_selector("button[data-action='start']")
    return page, errors, str(r["room"])


def play_whole_game(page: Any, shots: Any, rng: random.Random, label: str, start: bool = True) -> dict[str, int]:
    if start:
        scan(page, where="before the start")
        page.click("button[data-action='start']")
        page.wait_for_selector(".met-cards .met-card")
    shots(page, f"{label}-1-start")
    done: dict[str, int] = {}
    steps = 0
    deadline = time.monotonic() + 90
    while not result_shown(page):
        assert time.monotonic() < deadline, "the game did not finish"
        did = play_step(page, rng)
        done[did] = done.get(did, 0) + 1
        if not result_shown(page):
            scan(page, where=f"at step {steps} ({did or 'waiting'})")
        steps += 1
        if steps == 6:
            shots(page, f"{label}-2-midgame")
        if not did:
            time.sleep(0.05)
    page.wait_for_selector("#rematch")  # the host plays again through the server rematch
    scan(page, where="at the end")
    shots(page, f"{label}-3-over")
    return done


def check_replay(browser: Any, base: str, room: str, seat: str, lang: str) -> Any:
    page = new_page(browser, lang=lang)
    errors = watch(page)
    page.goto(f"{base}/replay/{room}")
    page.wait_for_selector("#replay-step")
    page.wait_for_selector(".met-field")
    page.select_option("#replay-seat", seat)
    page.wait_for_function(f"document.getElementById('replay-seat').value === '{seat}'")
    page.wait_for_selector(".met-field")
    steps = int(page.get_attribute("#replay-step", "max") or "0")
    assert steps > 5
    for i in range(0, steps + 1, max(1, steps // 25)):
        page.evaluate("(i) => { const s = document.getElementById('replay-step'); s.value = String(i);"
                      " s.dispatchEvent(new Event('input')); }", i)
        scan(page, where=f"in the replay at step {i}")
    page.click("#replay-last")
    end = f"{steps} de {steps}" if lang == "es" else f"{steps} of {steps}"
    assert page.locator(".replay-bar .pos").inner_text().endswith(end)
    scan(page, where="at the end of the replay")
    errors.check()
    return page


def test_a_whole_meteor_game_in_english_then_in_spanish_after_switching(browser: Any, web_server: str,
                                                                        shots: Any) -> None:
    page, errors, room = open_room(browser, web_server, "en", 2, OPTIONS, seed=3)
    rng = random.Random(1)
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card")
    # card faces from the data file: energy in its colour with its name and a lettered pip, rockets
    # with damage and cost pips; the full card on hover (title)
    faces = page.locator(".met-cards .met-card")
    texts = [faces.nth(i).inner_text() for i in range(faces.count())]
    titles = [faces.nth(i).get_attribute("title") or "" for i in range(faces.count())]
    assert any(w in " ".join(texts) for w in ("Fuel", "Atomic", "Solar", "Electric", "Rocket", "Technology")), texts
    assert all(t.endswith(".") or "Cost" in t for t in titles), titles
    assert page.locator(".met-cards .met-pip").count() >= 1
    assert "How to play" in page.locator(".met-help summary").inner_text()
    page.click(".met-help summary")
    assert "Overkill" in page.locator(".met-help").inner_text()
    done: dict[str, int] = {}
    steps = 0
    deadline = time.monotonic() + 90
    while not result_shown(page):
        assert time.monotonic() < deadline, "the game did not finish"
        did = play_step(page, rng)
        done[did] = done.get(did, 0) + 1
        if not result_shown(page):
            scan(page, where=f"at step {steps} ({did or 'waiting'})")
        steps += 1
        if steps == 8:
            shots(page, "1-midgame")
        if not did:
            time.sleep(0.05)
    page.wait_for_selector("#rematch")  # the host plays again through the server rematch
    scan(page, where="at the end")
    shots(page, "2-over")
    assert done.get("placed", 0) >= 3, done
    result = page.locator(".result").inner_text()
    assert "zone" in result and ("Earth is saved" in result or "lost together" in result), result
    assert "Meteors destroyed" in result
    log = page.locator(".log").inner_text()
    assert "places" in log and "The meteors fall to zone 1, Troposphere" in log, log[-800:]
    assert "The team lost" in log or "saved the Earth" in log
    errors.check()

    # switching language re-renders everything at once: board, hand, log, result
    # (a toast about a click the game had overtaken fades in seconds, in the language it was raised in)
    page.wait_for_function("!document.querySelector('#toasts .toast')", timeout=15000)
    page.select_option("#lang", "es")
    page.wait_for_function("document.documentElement.lang === 'es'")
    page.wait_for_function("(document.querySelector('.met-hand h2') || {}).textContent?.includes('Tu mano')")
    scan(page, where="after switching to Spanish")
    assert "Los meteoritos bajan a la zona 1, Troposfera" in page.locator(".log").inner_text()
    assert "Qué pasó" in page.locator(".result").inner_text()
    assert "Cómo se juega" in page.locator(".met-help summary").inner_text()
    shots(page, "3-over-es")
    errors.check()
    check_replay(browser, web_server, room, "0", "en")


def test_a_whole_meteor_game_in_spanish(browser: Any, web_server: str, shots: Any) -> None:
    # the lobby's Meteor options: dropdowns and checkboxes with a one-line explanation, in Spanish
    lobby = new_page(browser, lang="es")
    lobby_errors = watch(lobby)
    lobby.goto(web_server + "/")
    lobby.wait_for_selector("#create")
    lobby.select_option("#game", "meteor")
    lobby.click("details.options summary")
    lobby.wait_for_function("document.querySelector('details.options').textContent.includes('Dificultad')")
    options = lobby.locator("details.options")
    assert options.locator("select").count() >= 4 and options.locator("input[type='checkbox']").count() >= 3
    assert options.locator("input[type='text'], textarea").count() == 0
    assert "Avanzado" in options.inner_text() and "Poder" in options.inner_text()
    scan(lobby, where="in the Spanish lobby with Meteor's options")
    shots(lobby, "0-lobby-es")
    lobby_errors.check()
    page, errors, room = open_room(browser, web_server, "es", 3, OPTIONS, seed=8)
    done = play_whole_game(page, shots, random.Random(2), "es")
    assert done.get("placed", 0) >= 2, done
    assert "Qué pasó" in page.locator(".result").inner_text()
    log = page.locator(".log").inner_text()
    assert "coloca" in log and "Los meteoritos bajan a la zona" in log, log[-800:]
    errors.check()
    check_replay(browser, web_server, room, "1", "es")


def backwards_seed(options: dict[str, Any]) -> int:
    from tests.meteor.helpers import load

    for seed in range(500):
        st = load(**options).new_game(players=2, seed=seed)
        if st.data.challenges.get(str(st.challenges[0])) == "backwards":
            return seed
    raise AssertionError("no seed deals Backwards to the first seat")


def test_an_advanced_meteor_game_with_a_backwards_seat_played_through_the_page(browser: Any, web_server: str,
                                                                               shots: Any) -> None:
    options = {**OPTIONS, "difficulty": "advanced", "zone_timer_s": 4.0}
    page, errors, room = open_room(browser, web_server, "en", 2, options, seed=backwards_seed(options))
    # every Power and Challenge is shown, with its text and whether it is used
    specials = page.locator(".met-specials")
    assert specials.locator(".met-special.power").count() == 2
    assert specials.locator(".met-special.challenge").count() == 2
    assert "Backwards" in specials.inner_text() and "by position" in specials.inner_text()
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card.back")
    assert "You see only their backs" in page.locator(".met-hand").inner_text()
    backs = page.locator(".met-cards .met-card.back")
    assert backs.first.inner_text().strip().endswith("card 1")
    shots(page, "1-backwards-hand")
    before = page.evaluate("document.querySelectorAll('.log li').length")
    page.locator(".met-cards .met-card.back:not([disabled])").first.click()
    page.locator(".met-site.target[data-site='s0'] button.primary").click()
    page.wait_for_function(f"document.querySelectorAll('.log li').length > {before}")
    page.wait_for_function("[...document.querySelectorAll('.log li')]"
                           ".some(li => li.textContent.startsWith('Player 1 places'))")
    done = play_whole_game(page, shots, random.Random(3), "adv", start=False)
    assert done.get("placed", 0) >= 2, done
    assert "Meteors destroyed" in page.locator(".result").inner_text()
    errors.check()
    # the teammate sees the Backwards player's faces (here through the replay, as seat 2)
    # in Spanish: the Powers and Challenges' texts come from the data file's Spanish
    replay = check_replay(browser, web_server, room, "1", "es")
    replay.click("#replay-first")
    replay.click("#replay-next")
    replay.wait_for_selector(".met-other-hand .met-card")
    assert "sostiene sus cartas al revés" in replay.locator(".met-team").inner_text()
    assert "Al revés" in replay.locator(".met-specials").inner_text()
    shots(replay, "2-teammate-sees-faces")


def solo_seed(options: dict[str, Any], want: Any) -> int:
    from tests.meteor.helpers import load

    game = load(**options)
    for seed in range(500):
        if want(game.new_game(players=1, seed=seed)):
            return seed
    raise AssertionError("no seed deals what the test needs")


def buildable_rocket(st: Any) -> str | None:
    """A rocket of damage 3 or more in seat 0's hand whose exact energy is in that hand too."""
    from collections import Counter

    res = st.data.resources
    energy = Counter(res[c].code for c in st.hands[0] if res[c].is_energy)
    return next((c for c in st.hands[0] if res[c].is_rocket and res[c].damage >= 3
                 and not Counter(res[c].cost) - energy), None)


def place(page: Any, card: str, site: str = "s0") -> None:
    page.click(f".met-cards button.met-card[data-card='{card}']")
    page.click(f".met-site.target[data-site='{site}'] button.primary")


def test_launch_buttons_warn_of_an_overkill_against_each_meteor(browser: Any, web_server: str, shots: Any) -> None:
    from tests.meteor.helpers import load

    options = {**OPTIONS, "first_game": True, "zone_timer_s": 60.0}
    seed = solo_seed(options, lambda st: buildable_rocket(st) is not None)
    st = load(**options).new_game(players=1, seed=seed)
    rocket = buildable_rocket(st)
    assert rocket is not None
    res = st.data.resources
    cost = list(res[rocket].cost)
    energy = []
    for c in st.hands[0]:
        if res[c].is_energy and res[c].code in cost:
            cost.remove(res[c].code)
            energy.append(c)
    page, errors, _ = open_room(browser, web_server, "en", 1, options, seed=seed)
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards .met-card")
    place(page, rocket)
    for c in energy:
        page.wait_for_selector(f".met-cards button.met-card[data-card='{c}']:not([disabled])")
        place(page, c)
    page.wait_for_selector("button.met-launch")
    # a tap on a card face shows it in full (touch screens have no hover)
    page.locator(".met-site[data-site='s0'] span.met-card.rocket").click()
    assert f"Rocket, damage {res[rocket].damage}. Cost:" in page.locator(".met-tapped").inner_text()
    page.locator(".met-meteor .size").first.click()
    assert "meteor 1 · size" in page.locator(".met-tapped").inner_text()
    scan(page, where="with a rocket ready")
    shots(page, "1-launch-warnings")
    damage = res[rocket].damage
    meteors = page.locator(".met-meteor")
    seen = set()
    for i in range(meteors.count()):
        m = meteors.nth(i)
        size = int(m.locator(".size").inner_text())  # a first game: every meteor lies face up
        button = m.locator("button.met-launch").first
        note = button.locator(".met-launch-note").inner_text()
        brittle = "Brittle" in m.inner_text()
        if damage > size and not brittle:
            assert "Overkill!" in note and "overkill" in (button.get_attribute("class") or ""), note
            seen.add("overkill")
        elif damage == size:
            assert "exactly its size" in note, note
        else:
            assert "Overkill" not in note, note
    page.click(".met-help summary")
    assert "Overkill" in page.locator(".met-help").inner_text()
    errors.check()


def test_one_handed_shows_its_cool_down_and_why_cards_are_greyed(browser: Any, web_server: str, shots: Any) -> None:
    options = {**OPTIONS, "difficulty": "advanced", "zone_timer_s": 60.0, "one_handed_interval_s": 3}
    seed = solo_seed(options, lambda st: st.data.challenges[st.challenges[0]] == "one_handed")
    page, errors, _ = open_room(browser, web_server, "en", 1, options, seed=seed)
    assert "One-Handed" in page.locator(".met-specials").inner_text()
    page.click("button[data-action='start']")
    page.wait_for_selector(".met-cards button.met-card:not([disabled])")
    assert "you may place a card now" in page.locator(".met-one-handed").inner_text()
    first = page.locator(".met-cards button.met-card:not([disabled])").first.get_attribute("data-card") or ""
    place(page, first)
    # the cool-down's own words ("then wait" is also in the ready line, so it cannot be the cue)
    page.wait_for_function(
        "document.querySelector('.met-one-handed').textContent.includes('before placing another card')"
    )
    assert "Greyed cards cannot go on any site now" in page.locator(".met-hand").inner_text()
    assert page.locator(".met-cards button.met-card:not([disabled])").count() == 0
    scan(page, where="during the One-Handed cool-down")
    shots(page, "1-cool-down")
    page.wait_for_selector(".met-cards button.met-card:not([disabled])", timeout=10000)
    assert "you may place a card now" in page.locator(".met-one-handed").inner_text()
    errors.check()
