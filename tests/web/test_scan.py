"""The visible-text scanner catches each kind of leaked data and passes plain sentences."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import new_page
from tests.web.scan import assert_clean, english_data_words, problems, scan, visible_text, watch

CLEAN_EN = """Player 1 places Azura with its arrow pointing right.
Your hand: 9 cards. 1 card left in the deck.
Turn 3 of 7 — Resolving the turn
Rocket: costs 2 fuel, 3 damage"""
CLEAN_ES = """Jugador 1 coloca Azura con la flecha hacia la derecha.
Tu mano: 9 cartas. Queda 1 carta en el mazo.
Turno 3 de 7 — Resolviendo el turno"""


def test_plain_sentences_pass_in_both_languages() -> None:
    assert problems(CLEAN_EN, "en") == []
    assert problems(CLEAN_ES, "es") == []


@pytest.mark.parametrize(("text", "what"), [
    ('missions {"M1-A":1}', "a brace"),
    ('"score": 3', "a JSON key"),
    ("announced: seat=Player 3 token=COLOUR", "key=value"),
    ("technology research_laboratory bought", "a snake_case word"),
    ("won: cause field_cleared", "a snake_case word"),
    ("Player 2 has 1 cards", "a singular count"),
    ("Jugador 2 tiene 1 cartas", "a singular count"),
    ("Player 1 plays R02", "a bare card id"),
    ("plays place P6 4,0 S", "a bare card id"),
    ("slaps G7", "a bare card id"),
    ("mission M13 failed", "a bare card id"),
    ("planet P12-01 placed", "a bare card id"),
    ("Rule R5 applies", "a bare card id"),
    ("see SHS-16", "a clause code"),
    ("Score: undefined", "a programming leftover"),
    ("[object Object]", "a programming leftover"),
])
def test_each_kind_of_data_is_caught(text: str, what: str) -> None:
    found = problems(text, "en")
    assert any(f.startswith(what) for f in found), found


def test_a_seat_named_player_1_before_a_verb_is_not_a_count() -> None:
    # "turns" is a plural noun to the scan, but here a verb after the seat's name (seen in a whole game)
    assert problems("Player 1 turns over a new mission for everyone: Refuel.", "en") == []
    assert problems("Jugador 1 gira una misión nueva para todos.", "es") == []
    assert problems("Player 2 has 1 turns left", "en")


def test_english_words_from_the_game_data_are_caught_on_a_spanish_page_only() -> None:
    line = "Jugador 1 juega Alien Abduction"  # a Blast Off! mission name, untranslated
    assert any("English on a Spanish page" in f and "Abduction" in f for f in problems(line, "es"))
    assert problems(line, "en") == []
    assert problems("Tecnología: Research Laboratory", "es")  # a Meteor technology key's words


def test_english_data_words_come_from_the_data_files_without_proper_names_or_rulebook_terms() -> None:
    words = english_data_words()
    assert {"abduction", "laboratory", "thermosphere", "moons"} <= words
    assert not {"azura", "houston", "meteor", "overkill"} & words  # names, and the rulebook's own term


def test_allow_removes_text_a_test_knows_to_be_right() -> None:
    assert problems("Key F1 opens help", "en")
    assert problems("Key F1 opens help", "en", allow=[r"\bF1\b"]) == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_scan_reads_what_chromium_shows_and_watch_catches_errors(browser: Any) -> None:
    page = new_page(browser, lang="es")
    errors = watch(page)
    page.set_content("""<html lang="es"><body><p>Tu mano</p><p hidden>token=abc</p>
      <select><option>Fácil</option><option>hard_mode</option></select>
      <button title="Alien Abduction">Jugar</button></body></html>""")
    text = visible_text(page)
    assert "token=abc" not in text and "hard_mode" in text and "Alien Abduction" in text
    with pytest.raises(AssertionError, match="snake_case"):
        scan(page)
    errors.check()
    page.evaluate("setTimeout(() => { console.error('boom'); null.x; }, 0)")
    page.wait_for_timeout(200)
    assert any("boom" in e for e in errors) and any("page error" in e for e in errors)
    with pytest.raises(AssertionError):
        assert_clean(page)
    page.context.close()
