"""SHS-1 to SHS-3: components, object and setup; SHS-S16; rulings R2, R21, R26, R29."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cosmodeck
from cosmodeck.engine.errors import OptionError
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.cards import KIND_12, KIND_34, KIND_DARK
from cosmodeck.games.shooting_star.rules_setup import darks_adjacent

GAME = cosmodeck.load_game("shooting-star")


def _board(rows: list[str]) -> dict[tuple[int, int], tuple[str, int]]:
    ids = {"D": iter(["DK-1", "DK-2", "DK-3", "DK-4"]), "h": iter([f"P12-{i:02d}" for i in range(1, 31)])}
    out = {}
    for y, row in enumerate(rows):
        for x, tok in enumerate(row.split()):
            out[(x, y)] = (next(ids["D"]), 0) if tok == "D" else (next(ids["h"]), int(tok))
    return out


def test_SHS_S16_SHS_3_4_layouts_with_touching_darks_are_redealt() -> None:
    assert darks_adjacent(GAME.data, _board(["D D 4 2", "1 4 2 3", "4 1 2 4"]))
    assert not darks_adjacent(GAME.data, _board(["D 4 2 1", "3 D 2 4", "4 1 D 2"]))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 5))
def test_SHS_S16_SHS_3_3_setup_property(seed: int, players: int) -> None:
    s = GAME.new_game(players=players, seed=seed)
    data = GAME.data
    g = len(data.grids[players])
    assert set(s.board) == set(data.grids[players])  # all G cells hold planets
    ps = [data.planets[p] for p, _ in s.board.values()]
    assert any(p.kind == KIND_DARK for p in ps)
    assert not darks_adjacent(data, s.board)
    assert set(data.names) <= {p.name for p in ps}
    assert len(s.reserve) == 49 - g
    assert sorted([*(p.id for p in ps), *s.reserve]) == sorted(data.planet_order)
    assert all(len(h) == 9 for h in s.hands)
    assert all(sorted(data.missions[m].points for m in ms) == [1, 2, 3] for ms in s.missions)


def test_SHS_1_1_forty_nine_planets_moons_on_the_card() -> None:
    ps = GAME.data.planets.values()
    assert Counter(p.kind for p in ps) == {KIND_12: 30, KIND_34: 15, KIND_DARK: 4}
    assert all(p.name for p in ps if p.kind == KIND_34) and not any(p.name for p in ps if p.kind != KIND_34)
    s = GAME.new_game(players=2, seed=1)
    cell = next(c for c in s.view(None)["grid"]["cells"] if c["kind"] == KIND_12)
    assert cell["moons"] == GAME.data.planets[cell["planet"]].moons


def test_SHS_1_2_forty_five_destruction_cards() -> None:
    cards = GAME.data.cards
    assert sorted(c.priority for c in cards.values() if c.priority) == list(range(1, 9))
    assert [c.id for c in cards.values() if c.shield] == ["SH"]
    census = GAME.new_game(players=3, seed=2).census()
    assert sum(n for k, n in census.items() if ":" in k) == 45


def test_SHS_1_3_fifteen_missions() -> None:
    assert Counter(m.points for m in GAME.data.missions.values()) == {1: 5, 2: 5, 3: 5}


def test_SHS_1_4_one_dark_invader_marks_the_first_player() -> None:
    s = GAME.new_game(players=4, seed=9)
    v = s.view(None)
    assert isinstance(v["invader"], int) and s.to_act == frozenset({v["invader"]})


def test_SHS_2_1_the_winner_outscores_the_others() -> None:
    for seed in range(6):
        s = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not s.is_over:
            (seat,) = s.to_act
            s.apply(seat, rng.choice(s.legal_actions(seat)))
        assert s.result is not None and s.result.scores is not None
        top = max(s.result.scores.values())
        assert all(s.result.scores[w] == top for w in s.result.winners)


def test_SHS_2_2_flavour_text_has_no_rule_effect() -> None:
    # the opening about admirals is not modelled: no option, no state field, no event mentions it
    names = {o.name for o in GAME.option_specs} | set(GAME.new_game(players=2, seed=0).__dict__)
    assert not any("admiral" in n or "respect" in n for n in names)


def test_SHS_3_1_sector_is_the_data_grid() -> None:
    for n in range(2, 6):
        s = GAME.new_game(players=n, seed=n)
        assert s.shape == frozenset(GAME.data.grids[n]) and len(s.shape) == 6 * n


def test_SHS_3_2_six_names_and_a_dark_set_aside_at_random_R26() -> None:
    seen: set[str] = set()
    for seed in range(40):
        s = GAME.new_game(players=2, seed=seed)
        board = [GAME.data.planets[p] for p, _ in s.board.values()]
        assert {p.name for p in board if p.name} == set(GAME.data.names)
        seen |= {p.id for p in board if p.kind == KIND_DARK}
        seen |= {p.id for p in board if p.name == "Azura"}
    assert {"DK-1", "DK-2", "DK-3", "DK-4", "P34-A1", "P34-A2"} <= seen


def test_SHS_3_3_either_face_up_R2() -> None:
    faces: Counter[int] = Counter()
    for seed in range(10):
        faces.update(lvl for _, lvl in GAME.new_game(players=5, seed=seed).board.values())
    assert all(faces[lvl] > 10 for lvl in (1, 2, 3, 4))
    high = cosmodeck.load_game("shooting-star", setup_face="high")
    assert {lvl for _, lvl in high.new_game(players=5, seed=1).board.values()} <= {0, 2, 4}


def test_SHS_3_5_leftovers_form_the_reserve() -> None:
    s = GAME.new_game(players=3, seed=4)
    assert len(s.reserve) == 49 - 18 and s.view(0)["reserve"] == 31
    assert not set(s.reserve) & {p for p, _ in s.board.values()}


def test_SHS_3_6_each_player_takes_a_colour_set_R29() -> None:
    s = GAME.new_game(players=3, seed=4)
    assert s.factions == ("blastroid", "krakenian", "alligish")
    assert all(h == GAME.data.card_order for h in s.hands)
    custom = cosmodeck.load_game("shooting-star", factions=["nebulid", "conquid"]).new_game(players=2, seed=1)
    assert custom.factions == ("nebulid", "conquid")
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", factions=["nebulid", "nebulid"])
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", factions=["nebulid", "martian"])
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", factions=["nebulid"]).new_game(players=2, seed=1)


def test_SHS_3_7_one_mission_per_value_owner_sees_them() -> None:
    s = GAME.new_game(players=4, seed=5)
    for seat in range(4):
        v = s.view(seat)["missions"]
        assert [m["points"] for m in v[seat]] == [1, 2, 3]
        assert all(v[o] is None for o in range(4) if o != seat)
    assert len({m for ms in s.missions for m in ms}) == 12


def test_SHS_3_8_unused_sets_and_missions_never_revealed() -> None:
    s = GAME.new_game(players=2, seed=5)
    rng = Rng(1)
    while not s.is_over:
        (seat,) = s.to_act
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    text = repr([s.view(x) for x in (None, 0, 1)])
    assert len(s.box) == 9
    assert not any(f"'{m}'" in text for m in s.box)
    assert "nebulid:" not in text and "conquid:" not in text


def test_SHS_3_9_first_player_random_youngest_or_seat_R21() -> None:
    firsts = {GAME.new_game(players=4, seed=seed).invader for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    young = cosmodeck.load_game("shooting-star", first_player="youngest", ages=[40, 11, 30])
    assert young.new_game(players=3, seed=1).invader == 1
    tie = cosmodeck.load_game("shooting-star", first_player="youngest", ages=[9, 30, 9])
    assert {tie.new_game(players=3, seed=s).invader for s in range(30)} == {0, 2}
    assert cosmodeck.load_game("shooting-star", first_player=2).new_game(players=3, seed=1).invader == 2
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", first_player="youngest").new_game(players=3, seed=1)
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", first_player=4).new_game(players=3, seed=1)
    with pytest.raises(OptionError):
        cosmodeck.load_game("shooting-star", first_player="oldest")


def test_SHS_D3_one_seeded_rng_drives_everything() -> None:
    a = GAME.new_game(players=3, seed=77)
    b = GAME.new_game(players=3, seed=77)
    assert a.to_json() == b.to_json()
    assert GAME.new_game(players=3, seed=78).to_json() != a.to_json()
