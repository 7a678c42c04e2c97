"""The Meteor team bot (fair: its view only) and the omniscient planner (simulation only)."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.bots import make_bot, make_bots
from cosmodeck.bots.heuristic.meteor_team import MeteorOmniscient, MeteorTeam, subset_counts
from cosmodeck.bots.registry import BOTS, SIMULATION_ONLY, UNLISTED, sees_state
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import Launch, Site
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.runner import bot_rng, play_game
from cosmodeck.sim.simulate import simulate
from tests.bots.test_determinize_meteor import _crafted, _positions

GAME_ACTIONS = {"start", "place_card", "launch", "discard_project", "pass", "complete_retrofit"}


def test_subset_counts() -> None:
    assert subset_counts([2, 3, 5], 5) == {1, 2} and subset_counts([1, 1], 3) == set()
    assert subset_counts([], 0) == {0} and subset_counts([4], -1) == set()


@pytest.mark.parametrize("players,difficulty,first_game", [(2, "standard", False), (4, "expert", False),
                                                            (3, "advanced", True)])
def test_the_team_decides_from_its_view_only(players: int, difficulty: str, first_game: bool) -> None:
    """States that differ only in what the seat cannot see (other hands, face-down meteors, the decks)
    give the same decisions: the team bot reads nothing but its player view."""
    positions = [*_positions(players, difficulty, first_game), *_crafted()]
    changed = 0
    for st in positions:
        game = st.game
        for seat in range(st.players):
            twins = [st.resample_hidden(None, Rng(7 + seat))] + [
                st.resample_hidden(o, Rng(o)) for o in range(st.players) if o != seat]
            for twin in twins:
                changed += twin.to_json() != st.to_json()
                for k in range(2):
                    a = MeteorTeam(game).act(st.view(seat), st.legal_actions(seat), Rng(k))
                    b = MeteorTeam(game).act(twin.view(seat), twin.legal_actions(seat), Rng(k))
                    assert a == b, (seat, k)
    assert changed > 0  # the twins did differ in hidden information


def test_the_team_only_says_what_the_talk_rules_allow() -> None:
    """MET-7.1 / MET-D1: the team never chats, signals or emotes; it only plays (Pass and Launch are actions)."""
    game = cosmodeck.load_game("meteor")
    for players, seed in ((2, 3), (4, 4)):
        st = game.new_game(players=players, seed=seed)
        play_game(st, make_bots("meteor", "team", players, game), bot_rng(seed))
        said = {str(a).split()[0] for _t, s, a in st.log_entries() if s is not None}
        assert said <= GAME_ACTIONS and "launch" in said
        assert st.result is not None and st.result.team_win is not None


def test_the_team_waits_for_an_exact_volley_and_joins_an_open_one() -> None:
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    mine = {"site": "s0", "seat": 0, "slot": 0, "status": "built", "built": True, "damage": 3, "cards": []}
    other = {"site": "s1", "seat": 1, "slot": 0, "status": "built", "built": True, "damage": 2, "cards": []}
    m5 = {"ref": "m1", "face_up": True, "size": 5, "back": [4, 5], "trait": None, "store": 0}
    m2 = {"ref": "m2", "face_up": True, "size": 2, "back": [1, 2], "trait": None, "store": 0}
    view = {"seat": 0, "players": 2, "zone": 3, "timer": {"remaining": 40.0}, "sites": [mine, other],
            "volley": None, "field": [m5, m2], "techs": []}
    assert bot._launch_value(view, Launch(Site(0), "m1")) > 0  # 3 + the other's 2 = 5: open the volley
    assert bot._launch_value(view, Launch(Site(0), "m2")) < 0  # an Overkill of a known meteor: wait
    alone = {**view, "sites": [mine]}
    assert bot._launch_value(alone, Launch(Site(0), "m1")) < 0  # nobody can complete it: an under-hit
    opened = {**alone, "volley": {"launches": [{"site": "s1", "target": "m1", "damage": 2}]}}
    assert bot._launch_value(opened, Launch(Site(0), "m1")) >= 10  # joining finishes it exactly
    cracked = {**alone, "field": [{**m5, "trait": "cracked", "store": 2}]}
    assert bot._launch_value(cracked, Launch(Site(0), "m1")) >= 10  # the Cracked store counts


def test_the_omniscient_planner_is_for_simulation_only() -> None:
    assert "omniscient" in SIMULATION_ONLY and "omniscient" not in BOTS | UNLISTED  # rooms list BOTS only
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "omniscient", game)
    assert isinstance(bot, MeteorOmniscient) and sees_state(bot) and not sees_state(make_bot("meteor", "team"))
    st = game.new_game(players=2, seed=1)
    with pytest.raises(RuntimeError, match="whole state"):
        bot.act(st.view(0), st.legal_actions(0), Rng(1))
    with pytest.raises(ValueError, match="Meteor only"):
        make_bot("shooting-star", "omniscient")
    s = simulate(SimSpec("meteor", 2, 4, seed=2, bots="omniscient"))
    assert s["games"] == 4 and "perfect information" in s["bound"]
    assert simulate(SimSpec("meteor", 2, 2, seed=2, bots="team"))["bound"] is None


def test_play_refuses_the_omniscient_planner() -> None:
    from cosmodeck.cli.main import main

    with pytest.raises(SystemExit, match="simulate only"):
        main(["play", "meteor", "--players", "2", "--bots", "human,omniscient", "--seed", "1"])


def test_the_team_wins_more_often_than_the_old_heuristic() -> None:
    """Seeded regression: the same 40 four-player standard games, the team against the plain heuristic."""
    team = simulate(SimSpec("meteor", 4, 40, seed=0, bots="team"))
    old = simulate(SimSpec("meteor", 4, 40, seed=0, bots="heuristic"))
    assert team["team_wins"] > old["team_wins"], (team["team_wins"], old["team_wins"])
    assert team["meteor"]["mean_meteors_left_when_lost"] < old["meteor"]["mean_meteors_left_when_lost"]
