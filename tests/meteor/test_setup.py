"""MET-1 components and MET-2 set-up; R14-R16 (first game, Mulligan, difficulty)."""

from __future__ import annotations

from collections import Counter

import pytest

from cosmodeck.engine import IllegalActionError
from cosmodeck.games.meteor.state import MeteorState
from tests.meteor.helpers import load


def new(players: int = 3, seed: int = 1, **opts: object) -> MeteorState:
    st: MeteorState = load(**opts).new_game(players=players, seed=seed)
    return st


def test_MET_1_1_component_counts() -> None:
    data = load().data
    kinds = Counter(c.kind for c in data.resources.values())
    assert kinds == {"energy": 39, "rocket": 31, "tech": 6}
    assert (len(data.standard_ids), len(data.boss_ids)) == (26, 10)
    assert (len(data.powers), len(data.challenges), len(data.sites), len(data.zones)) == (13, 11, 5, 5)
    census = new().census()
    assert sum(census.values()) == 76 + 36 + 24 and max(census.values()) == 1


def test_MET_1_2_resource_cards_energy_types_and_rocket_damage() -> None:
    data = load().data
    by_colour = {e.colour: e.count for e in data.energy}
    assert set(by_colour) == {"red", "yellow", "green", "blue"}
    assert max(by_colour["green"], by_colour["blue"]) < min(by_colour["red"], by_colour["yellow"])
    rockets = [c for c in data.resources.values() if c.is_rocket]
    assert {r.damage for r in rockets} == {1, 2, 3, 4, 5} and all(r.cost for r in rockets)
    assert all(t.cost for t in data.resources.values() if t.is_tech)


def test_MET_2_1_meteor_deck_holds_the_other_standard_meteors() -> None:
    st = new(3)
    assert len(st.meteor_deck) == 26 - 6
    assert set(st.meteor_deck) | {m.id for m in st.field} == set(st.data.standard_ids)


@pytest.mark.parametrize(("players", "meteors"), [(1, 4), (2, 5), (3, 6), (4, 7), (5, 8)])
def test_MET_2_2_field_follows_the_set_up_chart_face_down(players: int, meteors: int) -> None:
    st = new(players)
    assert len(st.field) == meteors and not any(m.up for m in st.field)
    view = st.view(0)["field"]
    assert all("id" not in m and "size" not in m for m in view)
    first = new(players, first_game=True)
    assert all(m.up for m in first.field) and all("size" in m for m in first.view(0)["field"])


def test_MET_2_3_R15_meteor_mulligan_once_by_the_host_before_play() -> None:
    st = new(3, seed=4, difficulty="advanced")
    before = [m.id for m in st.field]
    with pytest.raises(IllegalActionError) as err:
        st.apply(1, "meteor_mulligan")
    assert err.value.code == "host_only"
    st.apply(0, "meteor_mulligan")
    after = [m.id for m in st.field]
    assert len(after) == len(before) and after != before
    assert sum(1 for m in after if m.startswith("B")) == 1
    assert len(st.meteor_deck) == 26 - 6 and len(st.boss_box) == 9
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "meteor_mulligan")
    assert err.value.code == "mulligan_used"
    off = new(3, allow_meteor_mulligan=False)
    with pytest.raises(IllegalActionError) as err:
        off.apply(0, "meteor_mulligan")
    assert err.value.code == "mulligan_disabled"
    started = new(3)
    started.apply(0, "start")
    with pytest.raises(IllegalActionError) as err:
        started.apply(0, "meteor_mulligan")
    assert err.value.code == "already_started"


def test_MET_2_4_zones_stacked_5_on_top() -> None:
    view = new().view(None)
    assert view["zone"] == 5 and view["zones_left"] == [5, 4, 3, 2, 1] and view["zone_name"] == "Exosphere"


def test_MET_2_5_timers_last_zone_timer_s() -> None:
    st = new(zone_timer_s=30)
    st.apply(0, "start", at=2)
    assert st.next_deadline() == 32.0
    st.advance(32)
    assert st.zone == 4 and st.next_deadline() == 62.0


def test_MET_2_6_each_player_has_a_launch_site() -> None:
    view = new(4).view(None)
    assert [s["name"] for s in view["sites"]] == ["Cape Canaveral", "Baikonur", "Kourou", "Tanegashima"]
    assert all(s["status"] == "empty" for s in view["sites"])


@pytest.mark.parametrize(("players", "hand"), [(1, 8), (2, 7), (3, 6), (4, 5), (5, 4)])
def test_MET_2_7_R18_starting_hands_follow_the_chart(players: int, hand: int) -> None:
    st = new(players)
    assert [len(h) for h in st.hands] == [hand] * players
    assert len(st.deck) == 76 - hand * players


def test_MET_2_8_R16_advanced_and_expert_add_bosses_powers_and_challenges() -> None:
    std = new(3)
    assert std.powers == [None] * 3 and not any(m.id.startswith("B") for m in std.field)
    adv = new(3, difficulty="advanced")
    assert len(adv.field) == 7 and sum(m.id.startswith("B") for m in adv.field) == 1
    assert all(p is not None for p in adv.powers) and all(c is not None for c in adv.challenges)
    assert all(not m.up for m in adv.field)
    exp = new(3, difficulty="expert")
    assert len(exp.field) == 8 and sum(m.id.startswith("B") for m in exp.field) == 2
    view = adv.view(1)
    assert view["powers"][0]["key"] == adv.data.powers[str(adv.powers[0])]  # face up: everyone sees them


def test_MET_2_9_play_starts_with_the_zone_5_timer() -> None:
    st = new(3)
    assert st.phase == "setup" and st.next_deadline() is None
    with pytest.raises(IllegalActionError) as err:
        st.apply(0, "pass")
    assert err.value.code == "not_started"
    with pytest.raises(IllegalActionError) as err:
        st.apply(2, "start")
    assert err.value.code == "host_only"
    st.apply(0, "start", at=0)
    assert st.next_deadline() == 60.0 and st.view(0)["timer"]["running"]


def test_R14_first_game_meteors_face_up_except_stealth() -> None:
    g = load(first_game=True, difficulty="expert")
    seen_stealth = False
    for seed in range(40):
        st: MeteorState = g.new_game(players=2, seed=seed)
        for m in st.field:
            stealth = st.data.meteors[m.id].trait == "stealth"
            seen_stealth |= stealth
            assert m.up != stealth
    assert seen_stealth


def test_R16_difficulty_levels_come_from_the_data() -> None:
    with pytest.raises(ValueError) as err:
        load(difficulty="nightmare")
    assert "difficulty" in str(err.value)
    assert set(load().data.difficulty) == {"standard", "advanced", "expert"}


def test_R7_solo_play() -> None:
    st = new(1)
    assert len(st.field) == 4 and len(st.hands[0]) == 8
    st.apply(0, "start", at=0)
    st.apply(0, "pass", at=5)
    assert st.zone == 4 and len(st.hands[0]) == 8 + 4
