"""The Meteor team bot (fair: its view only) and the omniscient planner (simulation only)."""

from __future__ import annotations

import pytest

import cosmodeck
from cosmodeck.bots import make_bot, make_bots
from cosmodeck.bots.heuristic.meteor_team import MeteorOmniscient, MeteorTeam, subset_counts
from cosmodeck.bots.registry import BOTS, GAME_BOTS, SIMULATION_ONLY, sees_state
from cosmodeck.engine.rng import Rng
from cosmodeck.games.meteor.actions import DiscardProject, Give, Launch, Mechanic, PlaceCard, Site
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
    assert "omniscient" in SIMULATION_ONLY and "omniscient" not in BOTS | GAME_BOTS  # rooms list BOTS only
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


def test_rooms_offer_the_team_for_meteor_only_and_never_the_omniscient_planner() -> None:
    from cosmodeck.server.app import _bots_for

    meteor = _bots_for(cosmodeck.load_game("meteor"))
    assert "team" in meteor and "omniscient" not in meteor
    for gid in cosmodeck.list_games():
        if gid != "meteor":
            offered = _bots_for(cosmodeck.load_game(gid))
            assert "team" not in offered and "omniscient" not in offered, gid
    import json
    from pathlib import Path

    i18n = Path(cosmodeck.__file__).resolve().parent / "web" / "i18n"
    for lang in ("en", "es"):
        texts = json.loads((i18n / f"{lang}.json").read_text(encoding="utf-8"))
        assert texts["bot.team"].startswith("Bot:") and len(texts["bot.team"]) <= 40  # fits the seat's menu
        assert all(f"botlevel.team:level={lv}" in texts for lv in ("easy", "normal", "hard"))


def _view(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {"seat": 0, "players": 2, "zone": 3, "timer": {"remaining": 40.0}, "sites": [],
                               "volley": None, "field": [], "techs": [], "removed": [], "resource_deck": 30,
                               "meteor_deck": 10, "discard": [], "hands": [{"seat": 0, "count": 0, "cards": []},
                                                            {"seat": 1, "count": 3, "cards": None}]}
    base.update(kw)
    return base


def test_face_down_odds_come_from_the_unseen_meteors_with_that_back() -> None:
    from cosmodeck.bots.heuristic.meteor_odds import candidates

    game = cosmodeck.load_game("meteor")
    back45 = {"ref": "m1", "kind": "standard", "back": [4, 5], "face_up": False, "hit": False}
    view = _view(field=[back45])
    def faces(v: dict[str, object]) -> list[tuple[int, str]]:
        return sorted((s, t or "") for s, t in candidates(game.data, v, back45))

    assert faces(view) == [(4, ""), (4, "burn_up"), (5, ""), (5, ""), (5, "shielded")]
    # M21 and M23 (size 5) were destroyed: the back 4-5 is now more likely a 4
    gone = _view(field=[back45], removed=[{"id": "M21"}, {"id": "M23"}])
    assert faces(gone) == [(4, ""), (4, "burn_up"), (5, "shielded")]


def test_the_team_never_adds_a_rocket_to_a_volley_that_already_destroys_its_meteor() -> None:
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    mine = {"site": "s0", "seat": 0, "slot": 0, "status": "built", "built": True, "damage": 2, "cards": []}
    brittle = {"ref": "m1", "face_up": True, "size": 5, "back": [5, 6], "trait": "brittle", "store": 0}
    opened = _view(sites=[mine], field=[brittle, {**brittle, "ref": "m2", "trait": None, "size": 4}],
                   volley={"launches": [{"site": "s1", "target": "m1", "damage": 5}]})
    assert bot._launch_value(opened, Launch(Site(0), "m1")) < 0  # 5 already destroys the Brittle 5
    short = {**opened, "volley": {"launches": [{"site": "s1", "target": "m1", "damage": 3}]}}
    assert bot._launch_value(short, Launch(Site(0), "m1")) >= 10  # 3 + 2 finishes it


def test_the_team_turns_its_own_lone_junk_rocket_into_a_rocket_retrofit() -> None:
    """R1: two rockets on a site are a rocket retrofit; status ``rocket_retrofit`` takes more rockets."""
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    lone = {"site": "s0", "seat": 0, "slot": 0, "status": "rocket", "built": False, "damage": 5,
            "cards": ["R17#1"], "missing": "EFS"}
    field = [{"ref": "m1", "face_up": True, "size": 5, "back": [4, 5], "trait": None, "store": 0}]
    hand = {"seat": 0, "count": 2, "cards": ["R13#1", "R20#1"]}  # no energy at all: both rockets are junk
    view = _view(sites=[lone], field=field, hands=[hand, {"seat": 1, "count": 0, "cards": None}], resource_deck=0)
    assert bot._place_value(view, PlaceCard("R13#1", Site(0))) > 4
    three = {"site": "s1", "seat": 1, "slot": 0, "status": "rocket_retrofit", "built": False,
             "cards": ["R01#1", "R06#1", "R11#1"]}
    view2 = _view(sites=[three], field=field, hands=[hand, {"seat": 1, "count": 0, "cards": None}], resource_deck=0)
    assert bot._place_value(view2, PlaceCard("R13#1", Site(1))) > 4  # 1, 2, 3 and 4: all different


def test_the_team_builds_the_tracking_station_first_and_uses_its_powers() -> None:
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    empty = {"site": "s0", "seat": 0, "slot": 0, "status": "empty", "built": False, "cards": []}
    hidden = {"ref": "m1", "kind": "standard", "back": [2, 3], "face_up": False, "hit": False, "store": 0}
    boss = {"ref": "m2", "kind": "boss", "back": [6, 8], "face_up": False, "hit": False, "store": 0}
    hand = {"seat": 0, "count": 3, "cards": ["T02#1", "R10#1", "F#1"]}
    view = _view(sites=[empty], field=[hidden, boss], hands=[hand, {"seat": 1, "count": 4, "cards": None}])
    assert bot._place_value(view, PlaceCard("T02#1", Site(0))) > bot._place_value(view, PlaceCard("R10#1", Site(0)))
    assert bot._spot_value(view, "m2") > bot._spot_value(view, "m1") == 0.0  # Spotter: the Boss first
    built = {"site": "s0", "seat": 0, "slot": 0, "status": "built", "built": True, "damage": 2, "cards": []}
    three = {"ref": "m3", "face_up": True, "size": 3, "back": [2, 3], "trait": None, "store": 0}
    shot = _view(sites=[built], field=[three])  # no Boss: with one, a 3 would wait for the Boss volley
    assert bot._launch_value(shot, Launch(Site(0), "m3", demolition=True)) >= 9  # 2 + 1 = 3 exactly
    assert bot._launch_value(shot, Launch(Site(0), "m3")) < 0
    late = _view(zone=1, timer={"remaining": 5.0, "length": 60.0})
    early = _view(zone=1, timer={"remaining": 40.0, "length": 60.0})
    assert bot._flip_value(late) > 0 and bot._flip_value(early) == 0.0


def test_a_backwards_seat_plays_blind_cards_onto_its_own_site() -> None:
    """C04 Backwards: the seat sees no faces, so it plays a position onto its own empty site only."""
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    empty = {"site": "s0", "seat": 0, "slot": 0, "status": "empty", "built": False, "cards": []}
    other = {"site": "s1", "seat": 1, "slot": 0, "status": "rocket", "built": False, "cards": ["R10#1"],
             "damage": 3, "missing": "FS"}
    view = _view(sites=[empty, other], hands=[{"seat": 0, "count": 3, "cards": None},
                                              {"seat": 1, "count": 2, "cards": None}])
    assert bot._blind(view)
    assert bot._place_value(view, PlaceCard("@0", Site(0))) > 0
    assert bot._place_value(view, PlaceCard("@0", Site(1))) == 0.0


def test_a_seat_counts_the_time_it_waited_when_the_view_stands_still() -> None:
    """A simulated view's timer stops at the last event; the seat adds the delays it waited itself."""
    game = cosmodeck.load_game("meteor")
    bot = make_bot("meteor", "team", game)
    assert isinstance(bot, MeteorTeam)
    view = {"now": 10.0, "timer": {"deadline": 60.0, "remaining": 50.0, "length": 60.0, "running": True}}
    assert bot._timed(view) is view  # the first look: nothing to add
    bot._delay = 4.0  # what reaction_time() last told the runner
    aged = bot._timed(view)
    assert aged["now"] == 14.0 and aged["timer"]["remaining"] == 46.0
    bot._delay = 1.0
    moved = {"now": 20.0, "timer": {"deadline": 60.0, "remaining": 40.0, "length": 60.0, "running": True}}
    assert bot._timed(moved) is moved  # a clock that moved is trusted (rooms advance the game first)
    bot.reaction_time(Rng(3))
    assert bot._delay > 0


def _team() -> MeteorTeam:
    bot = make_bot("meteor", "team", cosmodeck.load_game("meteor"))
    assert isinstance(bot, MeteorTeam)
    return bot


def _built(seat: int, damage: int) -> dict[str, object]:
    return {"site": f"s{seat}", "seat": seat, "slot": 0, "status": "built", "built": True, "damage": damage,
            "cards": []}


BEHEMOTH = {"ref": "m9", "kind": "boss", "face_up": True, "size": 8, "back": [6, 8], "trait": None, "store": 0}
M21 = {"ref": "m2", "kind": "standard", "face_up": True, "size": 5, "back": [4, 5], "trait": None, "store": 0}


def test_MET_11_4_the_team_opens_and_finishes_a_volley_that_destroys_a_boss() -> None:
    """MET-11.3/11.4: a Boss of 8 needs a volley. With 5 and 4 built, the team opens one in Zone 4, where
    the Overkill of 1 only ends the zone (MET-13.1), and the other seat joins the open window."""
    bot = _team()
    view = _view(zone=4, sites=[_built(0, 5), _built(1, 4)], field=[BEHEMOTH, M21])
    assert bot._launch_value(view, Launch(Site(0), "m9")) > 0
    opened = {**view, "sites": [_built(1, 4)], "seat": 1,
              "volley": {"launches": [{"site": "s0", "target": "m9", "damage": 5}]}}
    assert bot._launch_value(opened, Launch(Site(1), "m9")) >= 8  # 5 + 4 destroys it
    assert bot._launch_value({**view, "sites": [_built(0, 5)]}, Launch(Site(0), "m9")) < 0  # nobody can finish
    # an exact volley needs no Overkill at all: 5 + 3 = 8
    exact = _view(zone=4, sites=[_built(0, 5), _built(1, 3)], field=[BEHEMOTH, M21])
    assert bot._launch_value(exact, Launch(Site(0), "m9")) >= bot._launch_value(view, Launch(Site(0), "m9"))


def test_MET_13_1_the_team_never_overkills_a_boss_in_zone_1_while_other_meteors_remain() -> None:
    """MET-13.1: an Overkill in Zone 1 loses the game (unless it destroys the last meteor, MET-S5)."""
    bot = _team()
    zone1 = _view(zone=1, timer={"remaining": 40.0, "length": 60.0}, sites=[_built(0, 5), _built(1, 4)],
                  field=[BEHEMOTH, M21])
    assert bot._launch_value(zone1, Launch(Site(0), "m9")) < 0
    opened = {**zone1, "sites": [_built(1, 4)], "seat": 1,
              "volley": {"launches": [{"site": "s0", "target": "m9", "damage": 5}]}}
    assert bot._launch_value(opened, Launch(Site(1), "m9")) < 0
    last = {**zone1, "field": [BEHEMOTH]}  # MET-S5: overkilling the last meteor in Zone 1 wins
    assert bot._launch_value(last, Launch(Site(0), "m9")) > 0


def test_the_team_holds_strong_rockets_for_the_boss_volley_in_high_zones() -> None:
    """Boss first: in Zones 5-3 a built 4 waits for the Boss rather than destroy a standard 4; in Zone 2 it fires."""
    bot = _team()
    m16 = {"ref": "m3", "kind": "standard", "face_up": True, "size": 4, "back": [3, 4], "trait": None, "store": 0}
    high = _view(zone=4, sites=[_built(0, 4)], field=[m16, BEHEMOTH])
    assert bot._launch_value(high, Launch(Site(0), "m3")) <= 0
    assert bot._launch_value({**high, "zone": 2}, Launch(Site(0), "m3")) >= 10
    assert bot._launch_value({**high, "field": [m16]}, Launch(Site(0), "m3")) >= 10  # no Boss: fire
    weak = _view(zone=4, sites=[_built(0, 2)], field=[{**m16, "size": 2}, BEHEMOTH])
    assert bot._launch_value(weak, Launch(Site(0), "m3")) >= 10  # a weak rocket is not held


def test_MET_7_2_an_open_book_seat_shows_new_cards_and_the_team_counts_them() -> None:
    """P02 Open Book (MET-7.2; R14: anyone in a first game): the holder shows its hand whenever it holds
    cards nobody has seen, and a teammate that lacks a Solar starts the rocket when a shown hand holds one."""
    from cosmodeck.games.meteor.actions import ShowHand

    bot = _team()
    book = {"id": "P02", "key": "open_book"}
    mine = {"seat": 0, "count": 2, "cards": ["F#1", "S#1"], "known": ["F#1"]}
    view = _view(hands=[mine, {"seat": 1, "count": 3, "cards": None, "known": []}], powers=[book, None])
    assert bot._value(view, ShowHand()) > 0
    assert bot._value({**view, "hands": [{**mine, "known": ["F#1", "S#1"]}, view["hands"][1]]},  # type: ignore[index]
                      ShowHand()) == 0.0  # nothing new to show
    assert bot._value({**view, "powers": [None, None]}, ShowHand()) == 0.0  # not its Power
    assert bot._value({**view, "powers": [None, None], "first_game": True}, ShowHand()) > 0  # R14: anyone
    # seat 0 holds R10 (F, S) and an F; the deck is large, so a Solar is probably not in seat 1's three cards
    empty = {"site": "s0", "seat": 0, "slot": 0, "status": "empty", "built": False, "cards": []}
    hand = {"seat": 0, "count": 2, "cards": ["R10#1", "F#2"], "known": []}
    field = [{"ref": "m1", "kind": "standard", "face_up": True, "size": 3, "back": [2, 3], "trait": None,
              "store": 0}]
    unknown = _view(sites=[empty], field=field, resource_deck=60,
                    hands=[hand, {"seat": 1, "count": 3, "cards": None, "known": []}], powers=[None, book])
    shown = {**unknown, "hands": [hand, {"seat": 1, "count": 3, "cards": None, "known": ["S#3"]}]}
    have = bot._energy(unknown)
    assert not bot._teammates_may_pay(unknown, ["F", "S"], have)
    assert bot._teammates_may_pay(shown, ["F", "S"], have)
    assert bot._place_value(shown, PlaceCard("R10#1", Site(0))) > bot._place_value(unknown, PlaceCard("R10#1", Site(0)))


def test_R2_fuel_chemist_and_solar_engineer_substitutions_count_on_the_own_site() -> None:
    """R2: Fuel Chemist's Fuel and Atomic stand in for each other, Solar Engineer's one Solar for any type."""
    bot = _team()
    view = _view(hands=[{"seat": 0, "count": 3, "cards": ["F#1", "F#2", "F#3"]}, {"seat": 1, "count": 0,
                                                                                  "cards": None}])
    have = bot._energy(view)
    assert bot._missing_here(view, ["F", "A", "A"], have) == 2  # R09 without a Power
    chemist = {**view, "powers": [{"id": "P08", "key": "fuel_chemist"}, None]}
    assert bot._missing_here(chemist, ["F", "A", "A"], have) == 0
    solar = _view(hands=[{"seat": 0, "count": 2, "cards": ["S#1", "S#2"]}, {"seat": 1, "count": 0, "cards": None}],
                  powers=[{"id": "P09", "key": "solar_engineer"}, None])
    assert bot._missing_here(solar, ["F", "S"], bot._energy(solar)) == 0  # R10: one Solar stands in for the Fuel
    assert bot._missing_here({**solar, "powers": [None, None]}, ["F", "S"], bot._energy(solar)) == 1
    # a missing Atomic on a Fuel Chemist's rocket project takes a Fuel
    site = {"site": "s1", "seat": 1, "slot": 0, "status": "rocket", "built": False, "damage": 2,
            "cards": ["R05#1", "F#4"], "missing": "A"}
    field = [{"ref": "m1", "kind": "standard", "face_up": True, "size": 2, "back": [1, 2], "trait": None,
              "store": 0}]
    helper = _view(sites=[site], field=field, hands=view["hands"], powers=[None, {"id": "P08", "key": "fuel_chemist"}])
    assert bot._place_value(helper, PlaceCard("F#1", Site(1))) > 4
    assert bot._place_value({**helper, "powers": [None, None]}, PlaceCard("F#1", Site(1))) == 0.0


def test_P10_mechanic_takes_back_the_best_card_before_a_project_is_discarded() -> None:
    """P10 Mechanic (once per zone): a dead project is discarded, but first its Electric comes back to the hand."""
    bot = _team()
    dead = {"site": "s0", "seat": 0, "slot": 0, "status": "dead", "built": False, "cards": ["R10#1", "F#1", "E#1"]}
    view = _view(sites=[dead], powers=[{"id": "P10", "key": "mechanic"}, None],
                 hands=[{"seat": 0, "count": 0, "cards": []}, {"seat": 1, "count": 0, "cards": None}])
    values = {c: bot._value(view, Mechanic(Site(0), c)) for c in dead["cards"]}  # type: ignore[attr-defined]
    assert values["E#1"] > bot._value(view, DiscardProject(Site(0))) > 0
    assert values["F#1"] == values["R10#1"] == 0.0
    assert bot._value({**view, "powers": [None, None]}, Mechanic(Site(0), "E#1")) == 0.0
    live = {**dead, "status": "rocket", "cards": ["R10#1", "F#1"], "missing": "S", "damage": 3}
    assert bot._value({**view, "sites": [live]}, Mechanic(Site(0), "F#1")) == 0.0  # nothing to discard


def test_P13_courier_hands_energy_to_a_closed_site_that_misses_it() -> None:
    """P13 Courier: C06 Closed Site bars this seat from the teammate's site, so it gives the missing Solar."""
    bot = _team()
    project = {"site": "s1", "seat": 1, "slot": 0, "status": "rocket", "built": False, "damage": 3,
               "cards": ["R10#1", "F#1"], "missing": "S"}
    courier = {"id": "P13", "key": "courier"}
    closed = {"id": "C06", "key": "closed_site"}
    view = _view(sites=[project], powers=[courier, None], challenges=[None, closed],
                 hands=[{"seat": 0, "count": 2, "cards": ["S#1", "F#2"]}, {"seat": 1, "count": 1, "cards": None}])
    assert bot._value(view, Give("S#1", 1)) > 4
    assert bot._value(view, Give("F#2", 1)) == 0.0  # not what it misses
    assert bot._value({**view, "challenges": [None, None]}, Give("S#1", 1)) == 0.0  # it places the Solar itself
    assert bot._value({**view, "powers": [None, None]}, Give("S#1", 1)) == 0.0
