# cython: language_level=3
"""Compiled environment steps for turn-based tables whose encoder has the compiled hooks (``Encoder.actor``,
``row_writer``, ``mask_writer``: Shooting Star): the same table and engine calls, in the same order, as the
readable Python they copy, without the interpreter between them.

- ``run_random(table, me, rng)``: ``CosmodeckGym._run_bots`` when every opponent is the plain ``random`` bot
  (``RandomBot.act``: ``legal[rng.randbelow(len(legal))]``), with ``Table.current`` and ``Table.act`` inlined
  and ``Rng.randbelow`` in 64-bit C (``engine/rng.py``'s SplitMix64: the same numbers).
- ``vector_step(...)``: ``CosmodeckVectorEnv.step``'s loop over its K games in one call: each agent's action
  (``Table.act_index``), its opponents' moves, the same-step autoreset (``CosmodeckGym._start``) and the
  observation and mask rows written into the batch's preallocated ``(K, ...)`` arrays.

``vector.py`` and ``gym_env.py`` keep the readable loops as the reference and run them when this extension is
not built or the environment is not of this kind; ``tests/rl/test_steps_fast.py`` proves both paths give the
same observations, masks, rewards, flags, final observations and infos, step by step.
"""

from cosmodeck.engine.rng import Rng

ctypedef unsigned long long u64

cdef extern from *:
    int __builtin_clzll(unsigned long long x)

cdef u64 GAMMA = 0x9E3779B97F4A7C15ULL
cdef u64 M1 = 0xBF58476D1CE4E5B9ULL
cdef u64 M2 = 0x94D049BB133111EBULL


cdef inline u64 _below(u64* s, u64 n):
    """``Rng.randbelow(n)`` for 2 <= n < 2**63, advancing ``*s``."""
    cdef int shift = __builtin_clzll(n - 1)  # 64 - (n - 1).bit_length()
    cdef u64 z, r
    while True:
        s[0] = s[0] + GAMMA
        z = (s[0] ^ (s[0] >> 30)) * M1
        z = (z ^ (z >> 27)) * M2
        r = (z ^ (z >> 31)) >> shift
        if r < n:
            return r


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
        legal = st.legal_actions(cur)
        n = len(legal)
        if n == 0:
            raise RuntimeError("bot random declined to act in a turn-based game")
        st.apply(cur, legal[_randbelow(rng, n)])  # ``table.act(cur, action)``: ``cur`` decides now
        table.steps += 1
        table._begin_round()


def vector_step(list envs, list acts, list obs_rows, list mask_rows, double[::1] rewards,
                unsigned char[::1] term, unsigned char[::1] trunc, long long[::1] seats):
    """``CosmodeckVectorEnv.step``'s loop (its readable ``_step_py``) over the K sub-environments: returns the
    indices whose action was illegal and, for each game that ended, ``(index, final observation, final info)``
    in index order (the caller adds them to the infos)."""
    cdef Py_ssize_t i, k = len(envs)
    cdef list illegal = []
    cdef list finished = []
    cdef list queue
    cdef bint ok, over
    cdef int me
    if not (len(acts) == len(obs_rows) == len(mask_rows) == rewards.shape[0] == term.shape[0] == trunc.shape[0]
            == seats.shape[0] == k):
        raise ValueError("vector_step: every batch has one row per sub-environment")
    for i in range(k):
        env = envs[i]
        table = env.table
        seat = env.seat
        me = seat
        enc = table.encoder
        queue = table.queue
        ok = False  # ``table.act_index(seat, act)`` (``Table.act_index``'s compiled branch)
        if seat in queue and not _done(table):
            if enc.actor(table.state, me, acts[i]):
                table.steps += 1
                table._begin_round()
                ok = True
        if ok:
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
            finished.append((i, table.observe(seat), info))
            env._start(None)
            seat = env.seat
            me = seat
        st = table.state  # ``_write(i)``
        enc.row_writer(st, me, obs_rows[i])
        if not _done(table) and seat in table.queue:
            enc.mask_writer(st, me, mask_rows[i])
        else:
            table.write_mask(seat, mask_rows[i])
        seats[i] = me
    return illegal, finished
