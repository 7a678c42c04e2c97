# cython: language_level=3
"""Compiled environment steps for turn-based tables whose encoder has the compiled hooks (``Encoder.actor``,
``row_writer``, ``mask_writer``: Shooting Star, turn-based Blast Off!): the same table and engine calls, in the
same order, as the readable Python they copy, without the interpreter between them.

- ``run_random(table, me, rng)``: ``CosmodeckGym._run_bots`` when every opponent is the plain ``random`` bot
  (``RandomBot.act``: ``legal[rng.randbelow(len(legal))]``), with ``Table.current`` and ``Table.act`` inlined
  and ``Rng.randbelow`` in 64-bit C (``engine/rng.py``'s SplitMix64: the same numbers); a state with a
  ``play_random(seat, rng)`` method (Shooting Star's ``FastShootingStarState``) draws and applies that same
  move itself without building the legal list.
- ``gym_start(env, seed)``: ``CosmodeckGym._start`` (a reset without its observation) with ``Table.reset``'s
  round inlined and the bots' generator derived in 64-bit C.
- ``vector_step(...)``: ``CosmodeckVectorEnv.step``'s loop over its K games in one call: each agent's action
  (``Table.act_index``), its opponents' moves, the same-step autoreset (``CosmodeckGym._start``) and the
  observation and mask rows written into the batch's preallocated ``(K, ...)`` arrays (with the encoder's
  ``rows_writer``, all K rows in one call after the loop).

``vector.py`` and ``gym_env.py`` keep the readable loops (and ``_start_py``) as the reference and run them when this
extension is not built or the environment is not of this kind; ``tests/rl/test_steps_fast.py`` proves both paths
give the same observations, masks, rewards, flags, final observations and infos, step by step, and the same
environment after a reset.
"""

from gymnasium import Env as _GymEnv

from cosmodeck.engine.rng import Rng
from cosmodeck.rl.encoders.base import MEMO

from cosmodeck.engine.splitmix cimport below as _below, u64


cdef Py_ssize_t _randbelow(rng, Py_ssize_t n) except -1:
    """``rng.randbelow(n)`` for n >= 1: in C for a plain ``Rng``."""
    cdef u64 s
    cdef u64 r
    if n == 1:
        return 0
    if type(rng) is Rng:
        s = rng.state
        r = _below(&s, <u64>n)
        rng.state = s
        return <Py_ssize_t>r
    return rng.randbelow(n)


def randbelow(rng, Py_ssize_t n):
    """``rng.randbelow(n)`` (n >= 1), as ``_randbelow``; for the tests."""
    if n < 1:
        return rng.randbelow(n)  # (the same error)
    return _randbelow(rng, n)


cdef inline bint _done(table) except -1:
    """``table.done`` (read once per change of the state: ``Table.done``)."""
    if table._done_ver == table._ver:
        return table._done
    return table.done


cdef int _begin_round(table) except -1:
    """``Table._begin_round`` of a turn-based table (``table._begin_round()`` itself when the game is over or
    nobody is to act: the deadlines' path)."""
    st = table.state
    if st.is_over:
        table._begin_round()
        return 0
    to_act = st.to_act
    if not to_act:
        table._begin_round()
        return 0
    table._ver += 1  # ``_changed``
    if table._decisions:
        (<dict?>table._decisions).clear()
    if table._legal:
        (<dict?>table._legal).clear()
    cache = <dict?>table._cache
    if len(cache) > 1:
        cache.clear()
        cache[MEMO] = table._memo
    table.queue = sorted(to_act)
    table._done = table.stuck or table.steps >= table.max_steps
    table._done_ver = table._ver
    return 0


cdef bint _act_index(table, int seat, index) except -1:
    """``Table.act_index`` of a table whose encoder has the compiled ``actor`` (turn-based)."""
    if seat not in <list?>table.queue or _done(table):
        return False
    if not table.encoder.actor(table.state, seat, index):
        return False
    table.steps += 1
    _begin_round(table)
    return True


cdef object _observe(table, int seat):
    """``Table.observe`` of a table whose encoder has the compiled ``observer``."""
    return table.encoder.observer(table.state, seat, seat in <list?>table.queue and not _done(table))


def act_index(table, int seat, index):
    """``Table.act_index`` for a table whose encoder has the compiled ``actor`` (turn-based)."""
    return _act_index(table, seat, index)


def aec_last(env, bint observe=True):
    """``CosmodeckAEC.last``."""
    agent = env.agent_selection
    if agent is None:
        raise AssertionError("agent_selection is None")
    obs = _observe(env.table, env.seats[agent]) if observe else None
    return (obs, env._cumulative_rewards[agent], env.terminations[agent], env.truncations[agent], env.infos[agent])


def aec_step(env, action):
    """``CosmodeckAEC.step`` (its readable ``_step_py``) for a turn-based table with the compiled hooks."""
    agent = env.agent_selection
    terminations = <dict?>env.terminations
    truncations = <dict?>env.truncations
    if terminations[agent] or truncations[agent]:
        env._was_dead_step(action)
        return
    table = env.table
    (<dict?>env._cumulative_rewards)[agent] = 0.0
    if env._flagged:  # every step starts with empty infos
        infos = <dict?>env.infos
        for a in env.agents:
            infos[a] = {}
        env._flagged = False
    if action is None or not _act_index(table, env.seats[agent], int(action)):
        (<dict?>env.infos)[agent] = {"illegal_action": True}
        env._flagged = True
    queue = <list?>table.queue  # ``table.current``
    if queue and not _done(table):
        if env._paid:  # (no shaping: the bonus is 0)
            env.rewards = dict.fromkeys(env.agents, 0.0)
            env._accumulate_rewards()
        env._paid = False
        env.agent_selection = env.possible_agents[queue[0]]
        return
    over = table.over
    rewards = dict.fromkeys(env.agents, 0.0)
    env.rewards = rewards
    seats = <dict?>env.seats
    for a in env.agents:
        rewards[a] += table.reward(seats[a])
        terminations[a] = over
        truncations[a] = not over
    env._accumulate_rewards()
    env._paid = False
    env._select()


def parallel_step(env, actions):
    """``CosmodeckParallel.step`` (its readable ``_step_py``) for a turn-based table with the compiled hooks."""
    table = env.table
    seats = <dict?>env.seats
    queue = <list?>table.queue
    possible = <list?>env.possible_agents
    cdef bint done = _done(table)
    agents = env.agents
    infos = {a: {} for a in agents}
    if len(queue) == 1:  # one seat decides (turn-based), no race to settle: only its own action is read
        # (``submitted`` and ``table.act_all(submitted)`` of the readable step hold at most this seat's action)
        if not done:
            s = queue[0]
            act = actions.get(possible[s])
            if act is not None and not _act_index(table, s, int(act)):
                infos[possible[s]] = {"illegal_action": True}
    else:
        round_seats = [] if done else list(queue)  # ``table.legal_seats()``
        submitted = {}
        for a, act in actions.items():
            if act is not None and a in seats:
                s = seats[a]
                if s in round_seats:
                    submitted[s] = int(act)
        ok = table.act_all(submitted)
        for s, good in ok.items():
            if not good:
                infos[possible[s]] = {"illegal_action": True}
    obs = {a: _observe(table, seats[a]) for a in agents}
    if _done(table):
        over = table.over
        rewards = {a: 0.0 + table.reward(seats[a]) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, not over)
        env.agents = []
    else:
        rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, False)
        truncations = dict.fromkeys(agents, False)
    return obs, rewards, terminations, truncations, infos


cdef inline u64 _mix64(u64 z) noexcept:
    """``engine/rng.py``'s ``mix64``."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


def gym_start(env, seed):
    """``CosmodeckGym._start`` (its readable ``_start_py``) for a turn-based table with the compiled hooks and no
    shaping: Gymnasium's seeding, the game seed, ``Table.reset`` (with the compiled ``_begin_round``), the bots'
    generator ``Rng(derive_seed(game_seed, 0xB07))`` in 64-bit C (``engine/rng.py``: the same numbers), the
    agent's seat, the bots' seats and their moves until the agent's first decision."""
    if seed is not None:
        _GymEnv.reset(env, seed=seed)  # ``super().reset(seed=seed)`` (with no seed it does nothing)
    game_seed = int(env.np_random.integers(0, 2**62))
    table = env.table
    table.state = table.game.new_game(players=table.players, seed=game_seed)  # ``table.reset(game_seed)``
    table.order_rng = None
    table.steps = 0
    table.stuck = False
    _begin_round(table)
    table._progress = 0.0
    cdef u64 z = _mix64((<u64>game_seed) ^ 0x5DEECE66DULL)  # ``derive_seed(game_seed, 0xB07)`` (game_seed < 2**62)
    z = _mix64(z + 0x9E3779B97F4A7C15ULL * <u64>(0xB07 + 1))
    rng = env.bot_rng = Rng(raw_state=_mix64(z >> 1))  # ``Rng(seed)``: its state is ``mix64(seed)``
    cdef int n = table.players
    if env.seat_option == "random":
        env.seat = _randbelow(rng, n)
    me = env.seat
    env._by_seat = dict(zip([s for s in range(n) if s != me], env.bots))
    env._plans = {}
    if env._random_only and env._fast is not None:  # ``env._run_bots()``'s compiled branch
        run_random(table, me, rng)
    else:
        env._run_bots()


def gym_step(env, action):
    """``CosmodeckGym.step`` (its readable ``_step_py``) for a turn-based table with the compiled hooks."""
    table = env.table
    seat = env.seat
    cdef int me = seat
    info = {"seat": seat}
    if _done(table):
        raise RuntimeError("step() after the episode ended: call reset()")
    if not _act_index(table, me, int(action)):
        info["illegal_action"] = True
    elif env._random_only and env._fast is not None:  # ``env._run_bots()``'s compiled branch
        run_random(table, me, env.bot_rng)
    else:
        env._run_bots()
    if not _done(table):  # (no shaping: the reward is 0 until the end)
        return _observe(table, me), 0.0, False, False, info
    reward = 0.0 + table.reward(seat)
    over = table.over
    if over:
        res = table.state.result
        info["winners"] = sorted(res.winners) if res is not None else []
    return _observe(table, me), reward, over, not over, info


cpdef run_random(table, int me, rng):
    """``CosmodeckGym._run_bots`` with every opponent the plain ``random`` bot, in a turn-based game: while the
    seat to move (``table.current``) is not ``me``, it plays ``legal[rng.randbelow(len(legal))]``
    (``table.act``: ``state.apply``, one more step, the next round)."""
    cdef Py_ssize_t n
    cdef list queue
    while True:
        queue = table.queue
        if not queue or _done(table):  # ``table.current`` is ``None``
            return
        cur = queue[0]
        if cur == me:
            return
        st = table.state
        play = getattr(st, "play_random", None)  # the state's own move without the list (Shooting Star's fast.pyx)
        if play is None or play(cur, rng) is None:
            legal = st.legal_actions(cur)
            n = len(legal)
            if n == 0:
                raise RuntimeError("bot random declined to act in a turn-based game")
            st.apply(cur, legal[_randbelow(rng, n)])  # ``table.act(cur, action)``: ``cur`` decides now
        table.steps += 1
        _begin_round(table)


def vector_step(list envs, list acts, list obs_rows, list mask_rows, double[::1] rewards,
                unsigned char[::1] term, unsigned char[::1] trunc, long long[::1] seats, obs=None, masks=None):
    """``CosmodeckVectorEnv.step``'s loop (its readable ``_step_py``) over the K sub-environments: returns the
    indices whose action was illegal and, for each game that ended, ``(index, final observation, final info)``
    in index order (the caller adds them to the infos). With the batch's ``(K, ...)`` arrays ``obs`` and ``masks``
    (whose rows ``obs_rows`` and ``mask_rows`` are) and an encoder with ``rows_writer`` (Shooting Star's and Blast
    Off!'s compiled writers), the rows are written after the loop in one call (each game's state is its own: the
    same rows)."""
    cdef Py_ssize_t i, k = len(envs)
    cdef list illegal = []
    cdef list finished = []
    cdef bint over
    cdef int me
    if not (len(acts) == len(obs_rows) == len(mask_rows) == rewards.shape[0] == term.shape[0] == trunc.shape[0]
            == seats.shape[0] == k):
        raise ValueError("vector_step: every batch has one row per sub-environment")
    batch = None
    if obs is not None and masks is not None and k:
        batch = getattr(envs[0].table.encoder, "rows_writer", None)
    cdef list states = []
    cdef unsigned char[::1] active = None
    if batch is not None:
        active = bytearray(k)
    for i in range(k):
        env = envs[i]
        table = env.table
        seat = env.seat
        me = seat
        enc = table.encoder
        if _act_index(table, me, acts[i]):
            if env._random_only:
                run_random(table, me, env.bot_rng)
            else:
                env._run_bots()
        else:
            illegal.append(i)
        if not _done(table):
            rewards[i] = 0.0
            term[i] = 0
            trunc[i] = 0
        else:
            over = table.over
            rewards[i] = 0.0 + table.reward(seat)
            term[i] = over
            trunc[i] = not over
            info = {"seat": seat}
            res = table.state.result
            if res is not None:
                info["winners"] = sorted(res.winners)
            finished.append((i, _observe(table, me), info))
            env._start(None)
            seat = env.seat
            me = seat
        st = table.state  # ``_write(i)``
        seats[i] = me
        if batch is not None:
            if enc.rows_writer is not batch:  # (every sub-environment shares the first one's encoder)
                raise ValueError("vector_step: the sub-environments do not share one encoder")
            states.append(st)
            active[i] = not _done(table) and seat in table.queue
            continue
        enc.row_writer(st, me, obs_rows[i])
        if not _done(table) and seat in table.queue:
            enc.mask_writer(st, me, mask_rows[i])
        else:
            table.write_mask(seat, mask_rows[i])
    if batch is not None:
        batch(states, seats, active, obs, masks)
    return illegal, finished
