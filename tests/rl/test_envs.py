"""Environment semantics: rewards, real-time ticks, masks per agent, illegal actions, bots, truncation."""

from __future__ import annotations

import numpy as np
import pytest

from cosmodeck.engine import Result
from cosmodeck.rl import aec_env, gym_env, parallel_env
from cosmodeck.rl.table import Table, reward_of


def test_reward_of_sole_win_shared_win_loss_and_team() -> None:
    sole = Result.ranked("end", {0: 5.0, 1: 3.0, 2: 1.0})
    assert [reward_of(sole, s) for s in range(3)] == [1.0, -1.0, -1.0]
    shared = Result.ranked("end", {0: 5.0, 1: 5.0, 2: 1.0})
    assert [reward_of(shared, s) for s in range(3)] == [0.0, 0.0, -1.0]
    won = Result("won", frozenset({0, 1}), ((0, 1),), team_win=True)
    lost = Result("lost", frozenset(), ((0, 1),), team_win=False)
    assert [reward_of(won, s) for s in range(2)] == [1.0, 1.0]
    assert [reward_of(lost, s) for s in range(2)] == [-1.0, -1.0]


@pytest.mark.parametrize("game_id,players,opts", [("shooting-star", 3, {}), ("blast-off", 4, {}),
                                                  ("meteor", 2, {"step_s": 3.0})])
def test_aec_game_to_the_end_pays_the_result(game_id: str, players: int, opts: dict[str, float]) -> None:
    env = aec_env(game_id, players=players, **opts)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    res = env.table.state.result
    assert res is not None, "the game did not finish"
    assert totals == {f"player_{s}": reward_of(res, s) for s in range(players)}
    assert not env.agents


def test_turn_based_parallel_only_the_player_to_move_has_a_mask() -> None:
    env = parallel_env("shooting-star", players=3)
    obs, _ = env.reset(seed=2)
    mover = env.table.current
    for agent, o in obs.items():
        assert o["action_mask"].any() == (agent == f"player_{mover}")


def test_an_illegal_action_changes_nothing_and_is_reported() -> None:
    env = aec_env("shooting-star", players=2)
    env.reset(seed=1)
    env.step(0)  # the first placement covers a cell: the next player may not use it
    agent = env.agent_selection
    obs = env.observe(agent)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.table.state.to_json()
    env.step(bad)
    assert env.infos[agent] == {"illegal_action": True}
    assert env.agent_selection == agent and env.table.state.to_json() == before
    par = parallel_env("shooting-star", players=2)
    par.reset(seed=1)
    pobs, _, _, _, _ = par.step({a: 0 for a in par.agents})
    mover = f"player_{par.table.current}"
    bad = int(np.flatnonzero(pobs[mover]["action_mask"] == 0)[0])
    _, _, _, _, infos = par.step({a: bad for a in par.agents})
    assert infos[mover] == {"illegal_action": True}


def test_real_time_rounds_give_each_seat_one_decision_per_tick_and_advance_the_clock() -> None:
    table = Table("meteor", 3, {"step_s": 2.5})
    table.reset(11)
    wait = table.encoder.noop
    assert wait is not None
    start = table.encoder.index["start"]
    while table.state.view(0)["phase"] == "setup":  # the host starts; the others wait
        seat = table.current
        assert seat is not None
        assert table.act_index(seat, start if seat == 0 else wait)
    t_start = table.state.now
    while table.state.now == t_start:  # the rest of the start's round waits
        seat = table.current
        assert seat is not None
        assert table.act_index(seat, wait)
    t0 = table.state.now
    assert t0 == pytest.approx(t_start + 2.5)
    for tick in range(1, 5):
        seen = []
        while len(seen) < 3:
            seat = table.current
            assert seat is not None and seat not in seen
            seen.append(seat)
            assert table.state.now == pytest.approx(t0 + 2.5 * (tick - 1))
            assert table.act_index(seat, wait)
        assert sorted(seen) == [0, 1, 2]
        assert table.state.now == pytest.approx(t0 + 2.5 * tick)
    # waiting through the zone timer changes the zone: the env advanced the game's deadlines
    while table.state.now < t0 + 61 and table.current is not None:
        table.act_index(table.current, wait)
    assert table.state.view(0)["zone"] == 4


def test_real_time_round_order_is_seeded_and_not_always_seat_order() -> None:
    orders = set()
    for seed in range(6):
        table = Table("meteor", 4, {"step_s": 1.0})
        table.reset(seed)
        orders.add(tuple(table.queue))
        again = Table("meteor", 4, {"step_s": 1.0})
        again.reset(seed)
        assert tuple(again.queue) == tuple(table.queue)
    assert len(orders) > 1


def test_gym_random_seat_and_per_opponent_bots() -> None:
    env = gym_env("shooting-star", players=3, opponents="random,random", seat="random")
    seats = set()
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.table.current == info["seat"]
        assert obs["action_mask"].any()
    assert seats == {0, 1, 2}


def test_gym_episode_ends_with_the_agents_result() -> None:
    env = gym_env("shooting-star", players=2, seat=1)
    rng = np.random.default_rng(0)
    env.reset(seed=4)
    done = False
    reward = 0.0
    info: dict[str, object] = {}
    while not done:
        _obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done = term or trunc
    res = env.table.state.result
    assert res is not None and term and not trunc
    assert reward == reward_of(res, 1) and info["winners"] == sorted(res.winners)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_max_steps_truncates() -> None:
    env = gym_env("meteor", players=2, max_steps=5, step_s=1.0)
    env.reset(seed=0)
    wait = env.table.encoder.noop
    trunc = False
    for _ in range(10):
        _obs, reward, term, trunc, _ = env.step(wait)
        if term or trunc:
            break
    assert trunc and not term and reward == 0.0


@pytest.mark.parametrize("game_id", ["shooting-star", "blast-off"])
def test_handed_out_observations_never_change_afterwards(game_id: str) -> None:
    """Every observation and mask an environment returns is the user's: later steps (which rewrite the
    table's own rows, or write fresh arrays) never write into it, and it equals the encoder's output then."""
    kept: list[tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]] = []

    def keep(obs: dict[str, np.ndarray], table: Table, seat: int) -> None:
        want_obs = table.encoder.encode_state(table.state, seat)
        assert np.array_equal(obs["observation"], want_obs)
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))

    rng = np.random.default_rng(8)
    aec = aec_env(game_id, players=2)
    aec.reset(seed=3)
    for agent in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        keep(obs, aec.table, aec.seats[agent])
        again = aec.observe(agent)  # the same position asked twice: equal, but a distinct array
        assert again["observation"] is not obs["observation"] and np.array_equal(again["observation"],
                                                                                   obs["observation"])
        keep(again, aec.table, aec.seats[agent])
        aec.table.observation(aec.seats[agent])  # the table's own row written: the next copy comes from it
        keep(aec.observe(agent), aec.table, aec.seats[agent])
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    par = parallel_env(game_id, players=2)
    pobs, _ = par.reset(seed=4)
    while par.agents:
        for a, o in pobs.items():
            keep(o, par.table, par.seats[a])
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in pobs.items()
                if o["action_mask"].any()}
        pobs, *_ = par.step(acts)
    gym = gym_env(game_id, players=2)
    gobs, _ = gym.reset(seed=5)
    done = False
    while not done:
        keep(gobs, gym.table, gym.seat)
        gobs, _, term, trunc, _ = gym.step(int(rng.choice(np.flatnonzero(gobs["action_mask"]))))
        done = term or trunc
    assert len(kept) > 20
    for obs, first_obs, first_mask in kept:
        assert np.array_equal(obs["observation"], first_obs) and np.array_equal(obs["action_mask"], first_mask)


@pytest.mark.parametrize("players", [2, 4])
def test_act_all_of_one_seat_equals_act_index(players: int) -> None:
    """The Parallel step's one-seat path (the compiled decoder, no race to settle) does what ``act_index``
    does: the same legality, and the same position after it, for legal and illegal indices."""
    rng = np.random.default_rng(6)
    a, b = Table("shooting-star", players), Table("shooting-star", players)
    assert a.encoder.action_at is not None  # (the path under test)
    illegal_seen = 0
    for game in range(6):
        a.reset(40 + game)
        b.reset(40 + game)
        while a.current is not None:
            seat = a.current
            legal = np.flatnonzero(a.mask_row(seat))
            if rng.random() < 0.25:
                index = int(rng.integers(a.encoder.num_actions))
                illegal_seen += index not in legal
            else:
                index = int(rng.choice(legal))
            got = a.act_all({seat: index})
            assert got == {seat: b.act_index(seat, index)}
            assert a.current == b.current and a.steps == b.steps
            assert a.state.view(None) == b.state.view(None)
            for s in range(players):
                assert np.array_equal(a.observation(s), b.observation(s))
                assert np.array_equal(a.mask_row(s), b.mask_row(s))
        assert a.done and b.done and a.state.result == b.state.result
    assert illegal_seen > 5


def test_seed_stream_is_a_function_of_its_seed() -> None:
    """The game seeds of AEC and Parallel resets: the same seed gives the same stream, other seeds and the
    unseeded stream (fresh entropy) give others; each seed is 62 bits."""
    from cosmodeck.rl.table import SeedStream

    def draws(stream: SeedStream, n: int = 5) -> list[int]:
        return [stream.next() for _ in range(n)]

    a, b = SeedStream(), SeedStream()
    assert draws(a) != draws(b)
    a.reseed(7)
    b.reseed(7)
    first = draws(a)
    assert first == draws(b) and all(0 <= x < 2**62 for x in first)
    a.reseed(8)
    assert draws(a) != first
    a.reseed(7)
    assert draws(a) == first
