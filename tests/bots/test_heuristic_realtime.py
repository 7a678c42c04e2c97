"""Meteor and Blast Off heuristics: they act only through legal actions and play better than chance."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.bots import make_bot, make_bots
from cosmodeck.bots.heuristic.blast_off import BlastOffHeuristic
from cosmodeck.bots.heuristic.meteor import MeteorHeuristic, subset_sum
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import Launch, Pass, Start
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.runner import bot_rng, play_game
from cosmodeck.sim.simulate import simulate


def testsubset_sum() -> None:
    assert subset_sum([2, 3, 5], 8) and subset_sum([4], 4) and not subset_sum([2, 4], 5)
    assert subset_sum([], 0) and not subset_sum([1, 1], -1)


def test_meteor_team_starts_builds_and_launches() -> None:
    game = cosmodeck.load_game("meteor")
    st = game.new_game(players=3, seed=2)
    bots = make_bots("meteor", "heuristic", 3, game)
    assert isinstance(bots[0].act(st.view(0), st.legal_actions(0), Rng(1)), Start)
    play_game(st, bots, bot_rng(2))
    log = [str(a).split()[0] for _t, s, a in st.log_entries() if s is not None]
    assert log.count("launch") >= 3 and log.count("place_card") >= 10
    assert st.result is not None and st.result.team_win is not None


def test_meteor_passes_only_after_a_while_and_never_in_zone_1() -> None:
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "heuristic", game)
    assert isinstance(bot, MeteorHeuristic)
    st = game.new_game(players=1, seed=3)
    st.apply(0, "start", at=0.0)
    view = dict(st.view(0))
    view["hands"] = [{**view["hands"][0], "cards": []}]  # nothing to do
    assert bot.act(view, [Pass()], Rng(1)) is None  # the zone has just begun: give it time
    view["timer"] = {**view["timer"], "remaining": view["timer"]["length"] - bot.pass_after}
    assert isinstance(bot.act(view, [Pass()], Rng(1)), Pass)
    assert bot.act({**view, "zone": 1}, [Pass()], Rng(1)) is None


def test_meteor_prefers_an_exact_kill() -> None:
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "heuristic", game)
    assert isinstance(bot, MeteorHeuristic)
    site = {"site": "s0", "seat": 0, "slot": 0, "status": "built", "damage": 3, "cards": [], "missing": ""}
    view = {"seat": 0, "players": 1, "zone": 4, "timer": {"remaining": 50.0}, "sites": [site], "volley": None,
            "field": [{"ref": "m1", "face_up": True, "size": 3, "back": [3, 4]},
                      {"ref": "m2", "face_up": True, "size": 2, "back": [2, 3]},
                      {"ref": "m3", "face_up": False, "back": [3, 5]}]}
    from cosmodeck.games.meteor.actions import Site

    launches = {m: bot._launch_value(view, Launch(Site(0), m)) for m in ("m1", "m2", "m3")}
    assert launches["m1"] > launches["m3"] > 0 > launches["m2"]  # exact > gamble > Overkill


def test_meteor_heuristic_wins_more_than_random() -> None:
    h = simulate(SimSpec("meteor", 2, 12, seed=5, bots="heuristic"))
    r = simulate(SimSpec("meteor", 2, 12, seed=5, bots="random"))
    assert h["team_wins"] >= r["team_wins"]
    assert h["meteor"]["mean_meteors_left_when_lost"] < r["meteor"]["mean_meteors_left_when_lost"]


def test_blast_off_heuristic_beats_random() -> None:
    wins = 0
    for seats, seed in ((("heuristic", "random"), 1), (("random", "heuristic"), 2)):
        s = simulate(SimSpec("blast-off", 2, 30, seed=seed, bots=",".join(seats)))
        wins += s["wins_by_seat"][seats.index("heuristic")]
    assert wins >= 42  # of 60


def test_blast_off_parameters() -> None:
    bot = make_bot("blast-off", "heuristic:p_forget=1;p_catch=0;race=0.2;level=hard")
    assert bot.name == "heuristic"
    assert isinstance(bot, BlastOffHeuristic) and bot.catching == "evidence"  # the default: catch on evidence
    guesser = make_bot("blast-off", "heuristic:catching=guess")
    assert isinstance(guesser, BlastOffHeuristic) and guesser.catching == "guess"
    with pytest.raises(ValueError, match="catching"):
        make_bot("blast-off", "heuristic:catching=always")
    s = simulate(SimSpec("blast-off", 3, 10, seed=3, bots="heuristic:p_forget=1;p_catch=1"))
    assert s["games"] == 10
