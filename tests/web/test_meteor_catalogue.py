"""Meteor's message catalogue is complete: every event the engine emits has a sentence in English
and Spanish, every catalogue key the Meteor board modules name exists in both languages, and the
Spanish page uses the rulebook's words for the three allowed calls."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cosmodeck

PACKAGE = Path(cosmodeck.__file__).resolve().parent
WEB = PACKAGE / "web"


def catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return out


def engine_event_types() -> set[str]:
    types: set[str] = set()
    for path in (PACKAGE / "games" / "meteor").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        types.update(re.findall(r'Event\("([a-z_]+)"', text))
        types.update(re.findall(r'hand_event\("([a-z_]+)"', text))
    types.update({"won", "lost"})  # Event("won" if win else "lost", ...)
    return types


def test_every_meteor_event_has_a_sentence_in_english_and_spanish() -> None:
    types = engine_event_types()
    assert {"volley", "zone_change", "placed", "challenge_discard", "drew"} <= types
    for lang in ("en", "es"):
        cat = catalogue(lang)
        missing = sorted(t for t in types if f"ev.meteor.{t}" not in cat)
        assert not missing, f"{lang}: no sentence for {missing}"


def test_every_key_the_meteor_board_names_exists_in_both_languages() -> None:
    en, es = catalogue("en"), catalogue("es")
    named: set[str] = set()
    for path in WEB.glob("boards/meteor*.js"):
        named.update(re.findall(r'\bt\("((?:met|ev\.meteor)\.[a-z0-9_.]+)"', path.read_text(encoding="utf-8")))
    assert len(named) > 60
    assert not sorted(k for k in named if k not in en), "English catalogue"
    assert not sorted(k for k in named if k not in es), "Spanish catalogue"
    # the outcomes and volley results the board composes from the event's values
    for group, values in (("met.volley", ["destroyed", "overkill", "no_effect", "shielded", "evaded"]),
                          ("met.cause", ["timer", "all_pass", "overkill", "volatile_overkill"]),
                          ("met.ev.lost", ["timer", "all_pass", "overkill", "volatile_overkill"]),
                          ("met.status", ["empty", "open", "rocket", "tech", "rocket_retrofit", "built", "dead"])):
        for v in values:
            assert f"{group}.{v}" in en and f"{group}.{v}" in es, f"{group}.{v}"


def test_spanish_meteor_calls_use_the_rulebook_words() -> None:
    es = catalogue("es")
    rulebook = (PACKAGE / "rules" / "es" / "meteor.txt").read_text(encoding="utf-8")
    for key, word in (("signal.pass", "Pasar"), ("signal.time_out", "Tiempo de espera"), ("met.sites", "sitio")):
        assert word.lower() in es[key].lower() and word.lower() in rulebook.lower(), key
