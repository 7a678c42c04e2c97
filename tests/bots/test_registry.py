"""Bot names, the ``--bots`` syntax, parameters and reaction-time levels."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.bots import make_bot, make_bots, parse_bot_spec
from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.bots.reaction import LEVELS
from cosmodeck.engine.rng import Rng


def test_spec_parameters_are_split_on_semicolons() -> None:
    assert parse_bot_spec("ismcts:iters=50;c=0.9") == ("ismcts", {"iters": "50", "c": "0.9"})
    assert parse_bot_spec(" heuristic ") == ("heuristic", {})


def test_every_documented_name_builds_for_shooting_star() -> None:
    for spec in ("random", "heuristic", "heuristic:level=hard;noise=0.5", "ismcts", "ismcts:iters=10",
                 "ismcts:ms=20", "ismcts:iters=10;prior=none;c=1.2"):
        bot = make_bot("shooting-star", spec)
        assert bot.name == parse_bot_spec(spec)[0]
    bot = make_bot("shooting-star", "ismcts:iters=7")
    assert isinstance(bot, ISMCTSBot) and bot.iters == 7 and bot.ms is None
    bot = make_bot("shooting-star", "ismcts:ms=30")
    assert isinstance(bot, ISMCTSBot) and bot.ms == 30 and bot.iters is None


@pytest.mark.parametrize(("spec", "message"), [
    ("genius", "unknown bot 'genius'"),
    ("ismcts:iters=abc", "not an integer"),
    ("ismcts:iters=0", "at least 1"),
    ("ismcts:depth=3", "unknown parameter(s) depth"),
    ("heuristic:level=godlike", "not one of easy, normal, hard"),
    ("random:speed=3", "unknown parameter(s) speed"),
    ("ismcts:iters", "not key=value"),
])
def test_bad_specs_are_refused_with_a_clear_message(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot("shooting-star", spec)


def test_bots_one_for_all_or_one_per_seat() -> None:
    assert [b.name for b in make_bots("shooting-star", "heuristic", 3)] == ["heuristic"] * 3
    assert [b.name for b in make_bots("shooting-star", "random,heuristic,ismcts:iters=5", 3)] == [
        "random", "heuristic", "ismcts"]
    with pytest.raises(ValueError, match="names 2 bots for 3 players"):
        make_bots("shooting-star", "random,heuristic", 3)


def test_a_bot_is_built_for_the_given_game_definition() -> None:
    game = cosmodeck.load_game("shooting-star", orientations=2)
    bot = make_bot("shooting-star", "ismcts:iters=5", game)
    assert isinstance(bot, ISMCTSBot) and bot.game is game
    with pytest.raises(ValueError, match="given a 'meteor' definition"):
        make_bot("shooting-star", "random", cosmodeck.load_game("meteor"))


def test_reaction_time_levels_are_ordered_and_floored() -> None:
    medians = {}
    for level in LEVELS:
        bot = make_bot("shooting-star", f"heuristic:level={level}")
        rng = Rng(7)
        times = sorted(bot.reaction_time(rng) for _ in range(400))
        medians[level] = times[200]
        assert times[0] >= LEVELS[level][2]
    assert medians["hard"] < medians["normal"] < medians["easy"]
    fast = make_bot("shooting-star", "random:median_s=0.2;sigma=0")
    assert fast.reaction_time(Rng(1)) == pytest.approx(0.2)


def test_random_bot_defaults_are_unchanged() -> None:
    """The random bot's delays (median 1 s, sigma 0.35, no floor) keep old simulations reproducible."""
    bot = make_bot("shooting-star", "random")
    a, b = Rng(3), Rng(3)
    assert bot.reaction_time(a) == b.lognormal(1.0, 0.35)
