"""MET-D4 view details: used powers per game and per zone, and the energy a site still misses."""

from __future__ import annotations

from typing import Any

from cosmodeck.games.meteor.state import MeteorState
from tests.meteor.helpers import card, make, place, ref


def _power(st: MeteorState, seat: int) -> dict[str, Any]:
    entry: dict[str, Any] = st.view(seat)["powers"][seat]
    return entry


def test_MET_D4_view_separates_once_per_game_and_once_per_zone_powers() -> None:
    # P10 Mechanic is once per zone; P05 Spotter once per game (two seats, one power each)
    st = make(2, field=["M10", "M21"], powers={0: "P10", 1: "P05"}, hands={0: ["F", "A"], 1: ["S"]},
              difficulty="advanced")
    place(st, 0, "F", 0)
    st.apply(0, f"use_power mechanic s0 {st.sites[0][0][0]}")
    st.apply(1, f"use_power spotter {ref(st, 'M10')}")
    mech, spot = _power(st, 0), _power(st, 1)
    assert mech["used_zone"] == ["mechanic"] and mech["used_game"] == []
    assert spot["used_game"] == ["spotter"] and spot["used_zone"] == []
    assert mech["used"] == ["mechanic"] and spot["used"] == ["spotter"]  # the merged list is kept
    assert st.view(1)["powers"][0] == mech  # public: every seat sees the same entry
    st.apply(0, "pass")
    st.apply(1, "pass")  # everyone passed: the zone changes and once-per-zone powers reset
    assert st.zone == 4
    assert _power(st, 0)["used_zone"] == [] and _power(st, 0)["used"] == []
    assert _power(st, 1)["used_game"] == ["spotter"]


def test_MET_D4_missing_energy_counts_fuel_chemist_and_solar_engineer() -> None:
    # R03 costs FF: an Atomic pays an F for a Fuel Chemist; R04 costs AA: a Solar pays an A for a
    # Solar Engineer; R08 (FFA) with a Solar and no power is dead and shows the plain difference
    chem = make(3, powers={0: "P08", 1: "P09"}, sites={0: ["R03", "A"], 1: ["R04", "S"], 2: ["R08", "S"]},
                difficulty="advanced")
    sites = {s["site"]: s for s in chem.view(None)["sites"]}
    assert sites["s0"]["missing"] == "F" and sites["s0"]["status"] == "rocket"
    assert sites["s1"]["missing"] == "A" and sites["s1"]["status"] == "rocket"
    assert sites["s2"]["missing"] == "AFF" and sites["s2"]["status"] == "dead"
    # exact matches are preferred: R05 (AF) with an A still misses the F
    exact = make(1, powers={0: "P08"}, sites={0: ["R05", "A"]}, difficulty="advanced")
    assert exact.view(0)["sites"][0]["missing"] == "F"
    # the displayed letter really completes the rocket
    st = make(1, powers={0: "P08"}, sites={0: ["R03", "A"]}, hands={0: ["F"]}, difficulty="advanced")
    st.apply(0, f"place_card {card(st, 0, 'F')} s0")
    assert st.built[0][0] and st.view(0)["sites"][0]["status"] == "built"
    # a Solar Engineer's wild Solar is spent once per project
    twice = make(1, powers={0: "P09"}, sites={0: ["R14", "S"]}, difficulty="advanced")  # R14 = FFS
    assert twice.view(0)["sites"][0]["missing"] == "FF"


def test_MET_D4_terminal_board_marks_used_powers() -> None:
    import io

    from rich.console import Console

    from cosmodeck.cli.boards import meteor as board

    st = make(2, field=["M10"], powers={0: "P05", 1: "P10"}, difficulty="advanced")
    st.apply(0, f"use_power spotter {ref(st, 'M10')}")
    buf = io.StringIO()
    board.render(st.view(1), Console(file=buf, width=120))
    text = buf.getvalue()
    assert "0:spotter (used: spotter)" in text and "1:mechanic" in text and "1:mechanic (used" not in text
