"""Encoders: fixed sizes, values in [0, 1], and the mask is exactly the legal set on the catalog."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cosmodeck
from cosmodeck.engine import OptionError
from cosmodeck.rl import aec_env, gym_env, parallel_env
from cosmodeck.rl.table import Table
from tests.rl.conftest import CONFIGS, config_id
from tests.rl.helpers import random_decisions

Config = tuple[str, int, dict[str, Any]]


def uncatalogued_ok(game_id: str, action: Any) -> bool:
    """Legal actions a fixed catalog may leave out, per game (documented in docs/rl.md)."""
    if game_id == "meteor":
        return str(action).split()[0] in ("chat", "time_out", "resume")
    if game_id == "blast-off":  # a catch naming an authored mission: "catch SEAT" does the same
        return str(action).startswith("catch ") and str(action).split()[-1].startswith("C")
    return False


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_mask_is_exactly_the_legal_actions_and_observations_are_bounded(cfg: Config) -> None:
    game_id, players, opts = cfg
    seen_actions = 0
    for table, seat in random_decisions(game_id, players, opts, games=2):
        enc = table.encoder
        st = table.state
        obs = table.observe(seat)
        vec, mask = obs["observation"], obs["action_mask"]
        assert vec.shape == (enc.obs_size,) and vec.dtype == np.float32
        assert float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0
        assert mask.shape == (enc.num_actions,) and mask.dtype == np.int8
        view = st.view(seat)
        legal = st.legal_actions(seat)
        keys = {enc.key(a, view) for a in legal}
        expected = {enc.index[k] for k in keys if k is not None and k in enc.index}
        for a in legal:
            k = enc.key(a, view)
            assert (k is not None and k in enc.index) or uncatalogued_ok(game_id, a), f"{a} has no catalog entry"
        if enc.noop is not None:
            expected.add(enc.noop)
        assert set(np.flatnonzero(mask).tolist()) == expected
        seen_actions += len(expected)
        # decoding: every masked index maps back to a legal engine action
        d = table.decision(seat)
        assert d is not None
        for i in expected:
            assert d.legal[i] is None or st.is_legal(seat, d.legal[i])
    assert seen_actions > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("orientations", [4, 2])
def test_shooting_star_catalog_is_card_x_cell_x_arrow(players: int, orientations: int) -> None:
    table = Table("shooting-star", players, {"orientations": orientations})
    game = table.game
    cells = len(game.data.grids[players])
    assert table.encoder.num_actions == 9 * cells * orientations
    for text in table.encoder.actions:
        assert str(game.parse_action(text)) == text
    first = table.encoder.actions[0].split()
    assert first[0] == "place" and first[1] == game.data.card_order[0]


def test_shooting_star_first_decision_offers_every_card_cell_and_arrow() -> None:
    """SHS-S15: a fresh 2-player game offers 9 cards x 12 cells x 4 arrows = 432 actions."""
    table = Table("shooting-star", 2)
    table.reset(3)
    seat = table.current
    assert seat is not None
    assert int(table.mask(seat).sum()) == 432


@pytest.mark.parametrize("make", [aec_env, parallel_env, gym_env])
def test_custom_sector_is_refused_with_a_clear_error(make: Any) -> None:
    with pytest.raises(OptionError, match="custom_sector") as e:
        make("shooting-star", players=2, custom_sector=True)
    assert e.value.code == "rl_unsupported_option"


def test_bad_env_options_are_refused() -> None:
    with pytest.raises(OptionError, match="step_s"):
        Table("shooting-star", 2, {"step_s": 0})
    with pytest.raises(OptionError, match="max_steps"):
        Table("shooting-star", 2, {"max_steps": 0})
    with pytest.raises(OptionError, match="players"):
        Table("shooting-star", 6)
    with pytest.raises(OptionError):
        Table("shooting-star", 2, {"no_such_option": 1})
    with pytest.raises(OptionError, match="opponents"):
        gym_env("shooting-star", players=3, opponents="random,random,random")


def test_every_game_package_has_an_encoder() -> None:
    from cosmodeck.api import game_spec
    from cosmodeck.rl.encoders import ENCODERS

    ours = {g for g in cosmodeck.list_games() if game_spec(g).data_package.startswith("cosmodeck.games.")}
    assert ours == {"blast-off", "meteor", "shooting-star"}
    assert ours <= set(ENCODERS)


def _catch_lands(state: Any, seat: int, action_text: str) -> bool:
    """Submit the catch on a copy, then let every seat of the RESPONSE step be done (BLO-11): caught?"""
    game = state.game
    st = state.clone()
    events: list[Any] = []
    # A mission no longer in force: "catch SEAT" finds any violation; a catch already submitted: just wait.
    for text in (action_text, action_text.rsplit(" ", 1)[0]):
        action = game.parse_action(text)
        if st.is_legal(seat, action):
            events += st.apply(seat, action)
            break
    done = game.parse_action("done")
    for _ in range(4 * st.players):
        waiting = [s for s in sorted(st.to_act) if st.is_legal(s, done)]
        if not waiting or any(e.type in ("caught", "catch_failed") for e in events):
            break
        events += st.apply(waiting[0], done)
    # caught, or found already caught by a faster seat in the same step: the violation was real either way
    return any(e.type in ("caught", "catch_duplicate") and e.data.get("by") == seat for e in events)


def test_blast_off_observation_derives_open_violations_from_the_public_log_and_never_wrongly() -> None:
    """BLO-12.10: a catch on a violation the observation marks always lands; and some are marked."""
    table = Table("blast-off", 3, {"timing": "steps"})
    enc = table.encoder
    sl = enc.slices()
    nm = len(enc.mission_ids)  # type: ignore[attr-defined]
    marked = 0
    rng = np.random.default_rng(7)
    for g in range(40):
        table.reset(100 + g)
        steps = 0
        while table.current is not None and steps < 400:
            seat = table.current
            obs = table.observation(seat)
            viol = obs[sl["violations"]].reshape(3, nm + 1)
            for r, m in zip(*np.nonzero(viol[:, :nm]), strict=True):
                target = (seat + int(r)) % 3
                pending = table.state.view(seat)["pending"] or []
                if target != seat and not any(str(p).startswith(f"catch {target}") for p in pending):
                    marked += 1
                    assert _catch_lands(table.state, seat, f"catch {target} {enc.mission_ids[m]}")  # type: ignore[attr-defined]
            assert (obs[sl["violation_left"]] > 0).tolist() == (viol.sum(axis=1) > 0).tolist()
            legal = np.flatnonzero(table.mask(seat))
            table.act_index(seat, int(rng.choice(legal)))
            steps += 1
    assert marked > 0
