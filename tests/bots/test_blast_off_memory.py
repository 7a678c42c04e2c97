"""The Blast Off! mission-memory model: who forgets which obligation, and who notices."""

from __future__ import annotations

from pathlib import Path

import pytest

import cosmodeck
from cosmodeck.api import read_input
from cosmodeck.bots.heuristic.blast_off import BlastOffHeuristic
from cosmodeck.bots.heuristic.blast_off_memory import MissionMemory, trigger_p
from cosmodeck.bots.registry import make_bot
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import run_spec
from cosmodeck.sim.stats import newcombe_diff
from cosmodeck.sim.summary import summarise

M05_ACTOR = Path(__file__).resolve().parents[1] / "sim" / "data" / "blast_off_m05_actor_only.json"


def test_trigger_rarity_comes_from_the_deck() -> None:
    game = cosmodeck.load_game("blast-off")
    by_id = {m.id: m for m in game.missions}
    seven, orange = trigger_p(game, by_id["M01"]), trigger_p(game, by_id["M08"])
    assert seven == pytest.approx(5 / 68) and orange == pytest.approx(15 / 68)  # 68 cards: five 7s, 15 orange
    assert 0.15 < trigger_p(game, by_id["M13"]) < 0.35  # a card on the same colour


def test_each_factor_moves_the_chance_to_forget_the_way_the_model_says() -> None:
    game = cosmodeck.load_game("blast-off")
    mem = MissionMemory(game, 0.1)
    p = mem.p_forget
    assert p("M05") > p("M01")  # same trigger (a 5, a 7); M05's cue is another player's play
    assert p("M06") > p("M01")  # same trigger (a 3); M06 asks for a count
    assert p("M01") > p("M08")  # a rarer trigger, a phrase rather than a gesture
    assert p("M01", in_force=3) > p("M01", in_force=1)  # more missions in force
    # noticing another's lapse means remembering the mission at their cue: M05's cue already is another's play
    assert mem.p_notice("M05") == pytest.approx(1 - p("M05"))
    assert mem.p_notice("M08") > mem.p_notice("M01") > mem.p_notice("M06")
    assert all(0.0 < mem.p_notice(m) < 1.0 for m in mem.terms)


def test_the_average_is_calibrated_to_p_forget_and_the_extremes_hold() -> None:
    game = cosmodeck.load_game("blast-off")
    for target in (0.05, 0.1, 0.3):
        mem = MissionMemory(game, target, players=4)
        weights = {m.id: trigger_p(game, m) * (3 if m.who_others else 1) for m in game.missions
                   if m.kind == "obligation"}
        mean = sum(w * mem.p_forget(mid) for mid, w in weights.items()) / sum(weights.values())
        assert mean == pytest.approx(target, abs=1e-6)
    assert MissionMemory(game, 0.0).p_forget("M05") == 0.0
    assert MissionMemory(game, 1.0).p_forget("M08") == 1.0 and MissionMemory(game, 1.0).p_notice("M08") == 0.0
    assert MissionMemory(game, 0.1).p_forget("M99") == 0.1  # a mission it does not know: the average


def test_a_mission_change_moves_the_model() -> None:
    """M05 obliging only the player: its cue becomes one's own play, so it is forgotten less."""
    default = MissionMemory(cosmodeck.load_game("blast-off"), 0.1)
    actor = MissionMemory(cosmodeck.load_game("blast-off", data=read_input(M05_ACTOR)), 0.1)
    assert actor.p_forget("M05") < default.p_forget("M05") - 0.05


def test_the_heuristic_uses_the_model_by_default_and_flat_on_request() -> None:
    game = cosmodeck.load_game("blast-off")
    bot = make_bot("blast-off", "heuristic", game)
    assert isinstance(bot, BlastOffHeuristic) and bot.memory is not None
    flat = make_bot("blast-off", "heuristic:memory=flat", game)
    assert isinstance(flat, BlastOffHeuristic) and flat.memory is None
    with pytest.raises(ValueError, match="memory"):
        make_bot("blast-off", "heuristic:memory=perfect", game)


def test_violation_rates_now_differ_by_mission_in_play() -> None:
    """Played out, a common gesture (M08, tap on orange) is kept far more often than a call on another's 5
    (M05); with the flat memory the two rates are alike."""
    # 1200 games: the counts are small (about 100 obligations of each), and 500 games separated the two rates
    # only by chance of the path (bots now react to each countdown call afresh: 5/42 vs 2/52 in 500 games)
    spec = SimSpec("blast-off", 4, 1200, seed=1, bots="heuristic", options={"mission_out_of_control": True})
    s = summarise(spec, run_spec(spec, workers=2), 1.0, False)
    m05, m08 = s["per_mission"]["M05"]["per_game"], s["per_mission"]["M08"]["per_game"]
    v05, o05 = round(m05["violations"]["total"]), round(m05["obligations"]["total"])
    v08, o08 = round(m08.get("violations", {"total": 0})["total"]), round(m08["obligations"]["total"])
    lo, _hi = newcombe_diff(v05, o05, v08, o08)
    assert lo > 0, (v05, o05, v08, o08)
