"""The terminal's Blast Off! bots react to each countdown call afresh (issue 12, fair bots): no slap lands
sooner after its call than a person's reaction floor, as in rooms and in the simulator."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

import cosmodeck
from cosmodeck.bots.reaction import CALL_LEVELS
from cosmodeck.cli.boards.blast_off import _Bot, _Host
from cosmodeck.engine.rng import Rng


def test_terminal_bots_never_slap_faster_than_the_floor_after_a_call() -> None:
    floor = CALL_LEVELS["normal"].floor_s
    delays: list[float] = []
    for seed in range(6):
        state = cosmodeck.load_game("blast-off", tick_s=0.5).new_game(players=3, seed=seed)
        host = _Host(state, set(), {s: _Bot(median_s=0.05) for s in range(3)}, Rng(seed),
                     Console(file=io.StringIO()))
        clock = {"now": 0.0}
        for bot in host.bots.values():
            act = bot.act

            def watched(view: Any, legal: list[Any], rng: Rng, act: Any = act, state: Any = state,
                        clock: dict[str, float] = clock) -> Any:
                action = act(view, legal, rng)
                cue = state.cue()
                if action is not None and str(action).startswith("slap") and cue is not None:
                    delays.append(clock["now"] - cue)
                return action

            bot.act = watched  # type: ignore[method-assign]
        while not state.is_over and clock["now"] < 600:
            clock["now"] = round(clock["now"] + 0.01, 2)
            host.show(state.advance(clock["now"]))
            host.bots_due(clock["now"])
    assert len(delays) >= 20, f"only {len(delays)} slaps: the test saw too few countdowns"
    assert min(delays) >= floor - 0.011, f"a terminal bot slapped {min(delays):.3f} s after a call"
