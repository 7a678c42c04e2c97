"""Per-card and per-mission statistics agree with the games they come from."""

from __future__ import annotations

from typing import Any

import pytest

from cosmodeck.api import load_game
from cosmodeck.bots.registry import make_bots
from cosmodeck.engine.events import Event
from cosmodeck.engine.rng import derive_seed
from cosmodeck.sim.batch import SimSpec
from cosmodeck.sim.observe import observer_for
from cosmodeck.sim.runner import GameOutcome, bot_rng, play_game
from cosmodeck.sim.simulate import run_spec, simulate


def _run(spec: SimSpec) -> tuple[dict[str, object], list[GameOutcome]]:
    kept: list[GameOutcome] = []
    s = simulate(spec, keep_outcomes=kept)
    return s, kept


def test_shooting_star_card_points_add_up_to_the_score() -> None:
    s, kept = _run(SimSpec("shooting-star", 3, 25, seed=11, bots="heuristic"))
    for o in kept:
        cards = o.metrics["per_card"]
        points = sum(c.get("points", 0.0) for c in cards.values())
        blocks = sum(c.get("blocks", 0.0) for c in cards.values())
        # SHS-14.1/14.2: a planet won by damage is a card (+1 with a moon); a Shield keeps 2 cards
        parts = sum(sp["cards"] + sp["moons"] for sp in o.metrics["score_parts"])
        assert points + 2 * blocks == parts
        played = sum(c.get("played", 0.0) for c in cards.values())
        assert played == o.decisions  # one card placed per decision
    per_card = s["per_card"]
    assert set(per_card) == {"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "SH"}
    for row in per_card.values():
        lo, hi = row["ci95"]
        assert lo <= row["rate"] <= hi and 0 <= row["games"] <= 25
        if row["win_rate"] is not None:
            assert row["win_ci95"][0] <= row["win_rate"] <= row["win_ci95"][1]
    dealt = sum(m["per_game"]["dealt"]["total"] for m in s["per_mission"].values())
    assert dealt == 25 * 3 * 3
    for mid, m in s["per_mission"].items():
        done = sum(1 for o in kept for x in o.metrics["missions"] if x[0] == mid and x[2] >= x[3])
        assert m["per_game"]["completed"]["total"] == done
        if m["games"]:
            assert m["completion_rate"] == pytest.approx(done / m["per_game"]["dealt"]["total"])


def test_meteor_tallies_name_the_meteors_left_at_each_loss() -> None:
    s, kept = _run(SimSpec("meteor", 2, 12, seed=5, bots="heuristic"))
    for o in kept:
        if not o.result["team_win"]:
            assert len(o.metrics["meteors_left_at_loss"]) == o.result["details"]["meteors_left"]
        cards = o.metrics["per_card"]
        assert sum(c.get("overkills", 0) + c.get("meteors_destroyed", 0) for c in cards.values()) <= sum(
            c.get("volleys", 0) for c in cards.values())
        for c in cards.values():
            assert c.get("launched", 0) <= c.get("built", 0)
    prog = s["meteor"]["progress"]
    assert prog["losses"] == 12 - s["team_wins"]
    assert sum(v["losses"] for v in prog["meteors_left_at_loss"].values()) == sum(
        len(o.metrics["meteors_left_at_loss"]) for o in kept)
    assert sum(prog["zone_reached"].values()) == 12
    game = load_game("meteor")
    ids = {c.partition("#")[0] for c in game.data.resource_order} | set(game.data.meteors)
    assert {"F", "A", "S", "E"} <= set(s["per_card"]) <= ids


def test_blast_off_missions_count_obligations_and_what_became_of_them() -> None:
    s, kept = _run(SimSpec("blast-off", 4, 30, seed=3, bots="heuristic:p_forget=0.5",
                           options={"timing": "steps"}))
    revealed = sum(m["per_game"].get("revealed", {}).get("total", 0) for m in s["per_mission"].values())
    assert revealed == sum(o.metrics["missions_revealed"] for o in kept)
    owed = kept_ = viol = 0.0
    for m in s["per_mission"].values():
        pg = m["per_game"]
        owed += pg.get("obligations", {}).get("total", 0)
        kept_ += pg.get("kept", {}).get("total", 0)
        viol += pg.get("violations", {}).get("total", 0)
    assert owed > 0 and kept_ > 0 and viol > 0  # half the obligations are forgotten
    assert kept_ + viol <= owed
    assert s["per_card"] and all("played" in c["per_game"] or "slapped" in c["per_game"] or "drawn" in c["per_game"]
                                 for c in s["per_card"].values())


def test_per_card_numbers_do_not_depend_on_workers() -> None:
    spec = SimSpec("shooting-star", 2, 16, seed=9, bots="heuristic")
    one, two = run_spec(spec, workers=1), run_spec(spec, workers=2)
    assert [o.metrics["per_card"] for o in one] == [o.metrics["per_card"] for o in two]


def _merged(e: Event) -> Event:
    """The event as ``to_dict`` shows it (its private fields over its public ones), with nothing private."""
    d = e.to_dict()
    del d["type"]
    return Event(e.type, d, private=None, seats=e.seats, public=e.public)


@pytest.mark.parametrize("game_id, bots, options", [
    ("shooting-star", "heuristic", {}),
    ("shooting-star", "random", {"custom_sector": True}),
    ("blast-off", "heuristic", {"timing": "steps"}),
    ("blast-off", "random", {"timing": "realtime"}),
    ("meteor", "heuristic", {}),
])
def test_observers_read_each_event_as_its_unredacted_dict(game_id: str, bots: str, options: dict[str, Any]) -> None:
    """The observers read events' fields without building ``to_dict``: fed the engine's events (private fields
    apart) and the same events with every field public, each tallies the same (an observer reading only the
    public part, or only the private one, differs on the cards placed, drawn or revealed)."""
    spec = SimSpec(game=game_id, players=4, games=6, seed=5, bots=bots, options=options)
    game = spec.load()
    seen = 0
    for i in range(6):
        seed = derive_seed(spec.seed, i)
        state = game.new_game(players=4, seed=seed)
        real, merged = observer_for(game, 4), observer_for(game, 4)
        assert real is not None and merged is not None

        def sink(seat: int | None, events: list[Event]) -> None:
            nonlocal seen
            seen += sum(1 for e in events if e.private)
            real(seat, events, state.now)  # noqa: B023 - called within this iteration only
            merged(seat, [_merged(e) for e in events], state.now)  # noqa: B023

        decisions = play_game(state, make_bots(game_id, bots, 4, game), bot_rng(seed), 100_000, sink)
        result = state.result
        assert result is not None
        assert real.finish(state, result.to_dict(), decisions) == merged.finish(state, result.to_dict(), decisions)
    assert seen > 0
