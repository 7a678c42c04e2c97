"""The Shooting Star heuristic: its scores follow the rules' incentives, and it beats random play."""

from __future__ import annotations

import cosmodeck
from cosmodeck.bots.heuristic.shooting_star import ShsEval, scores
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.simulate import simulate
from tests.shooting_star.helpers import stack


def test_a_capture_scores_more_than_a_flip() -> None:
    st, _ = stack(["1 4 4", "4 4 4"], letters="RY")
    game = st.game
    seat = min(st.to_act)
    view = st.view(seat)
    capture = Place("P8", (0, 1), "N")  # hits (0,0): level 1 -> captured
    flip = Place("P8", (1, 1), "N")  # hits (1,0): level 4 -> 3, a capture for the next player
    v_cap, v_flip = scores(game, view, [capture, flip])
    assert v_cap > 0.9
    assert v_flip < 0


def test_a_shield_is_worth_more_where_placed_cards_can_hit_it() -> None:
    st, _ = stack(["4 4 4 4", "4 4 4 4", "4 4 4 4"], letters="RY")
    seat = min(st.to_act)
    other_cell = (1, 1)
    arrow = "N"
    st.apply(seat, Place("P8", other_cell, arrow))
    me = min(st.to_act)
    ev = ShsEval(st.game, st.view(me))
    # (1,0) is hit if the face-down card is P8, P4, P3 or P1 (4 of 9); nothing placed on (1,1) reaches (3,2)
    in_line = ev.value("SH", (1, 0), "N")
    far = ev.value("SH", (3, 2), "N")
    assert in_line > far + 0.5


def test_heuristic_beats_random() -> None:
    games = 20
    wins = 0
    for seats, seed in ((("heuristic", "random"), 3), (("random", "heuristic"), 4)):
        s = simulate(SimSpec("shooting-star", 2, games, seed=seed, bots=",".join(seats)))
        wins += s["wins_by_seat"][seats.index("heuristic")]
    assert wins >= 34  # of 40


def test_heuristic_plays_every_player_count_and_the_variants() -> None:
    for players, options in ((3, {}), (5, {"orientations": 2}), (2, {"custom_sector": True})):
        s = simulate(SimSpec("shooting-star", players, 3, seed=1, bots="heuristic", options=options))
        assert s["games"] == 3
    assert cosmodeck.load_game("shooting-star")  # (the default definition still loads)
