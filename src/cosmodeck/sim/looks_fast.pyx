# cython: language_level=3
"""``sim/looks.py:skip_waits_py`` compiled: the same loop, the same draws (SplitMix64 and Box-Muller with the
C library's log, sqrt, cos and exp, which Python's ``math`` calls too), the same results."""

from libc.math cimport cos, exp, log, sqrt
from libc.stdint cimport uint64_t

from cosmodeck.sim.looks import IDLE_LIMIT, sampled_delay_py, skip_waits_py

cdef enum:
    MAX_SEATS = 16

cdef double PI = 3.141592653589793
cdef double INF = float("inf")
cdef double TO_UNIT = 1.0 / 9007199254740992.0
cdef uint64_t GAMMA = 0x9E3779B97F4A7C15ULL


cdef inline uint64_t _mix(uint64_t z):
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


def skip_waits(dict plans, set waiting, object deadline, object reactions, object rng, long idle_rounds):
    cdef Py_ssize_t n = len(reactions)
    cdef double times[MAX_SEATS]
    cdef double med[MAX_SEATS]
    cdef double sig[MAX_SEATS]
    cdef double low[MAX_SEATS]
    cdef bint planned[MAX_SEATS]
    cdef bint skip[MAX_SEATS]
    cdef bint moved[MAX_SEATS]
    cdef Py_ssize_t s
    cdef int seat
    cdef double t, limit, u1, u2, z, v
    cdef uint64_t state
    cdef long limit_rounds = IDLE_LIMIT
    if n > MAX_SEATS:
        return skip_waits_py(plans, waiting, deadline, reactions, rng, idle_rounds)
    for s in range(n):
        planned[s] = False
        moved[s] = False
        r = reactions[s]
        skip[s] = r is not None and s in waiting
        if skip[s]:
            med[s] = r[0]
            sig[s] = r[1]
            low[s] = r[2]
    for key, when in plans.items():
        s = key
        if s < 0 or s >= n:
            return skip_waits_py(plans, waiting, deadline, reactions, rng, idle_rounds)
        planned[s] = True
        times[s] = when
    limit = INF if deadline is None else <double>deadline
    state = rng.state
    while True:
        seat = -1
        t = INF
        for s in range(n):  # the earliest look; ties: the lowest seat
            if planned[s] and times[s] < t:
                seat = <int>s
                t = times[s]
        if seat < 0 or limit <= t or not skip[seat]:
            break
        state = state + GAMMA
        u1 = 1.0 - <double>(_mix(state) >> 11) * TO_UNIT
        state = state + GAMMA
        u2 = <double>(_mix(state) >> 11) * TO_UNIT
        z = sqrt(-2.0 * log(u1)) * cos(2.0 * PI * u2)
        v = med[seat] * exp(sig[seat] * z)
        if not v > low[seat]:
            v = low[seat]
        if not v > 1e-3:
            v = 1e-3
        times[seat] = t + v
        moved[seat] = True
        idle_rounds += 1
        if idle_rounds > limit_rounds:
            break
    for s in range(n):
        if moved[s]:
            plans[s] = times[s]
    rng.state = state
    return seat, t, idle_rounds


def sampled_delay(tuple reaction, object rng):
    cdef double med = reaction[0]
    cdef double sig = reaction[1]
    cdef double low = reaction[2]
    cdef uint64_t state = rng.state
    cdef double u1, u2, z, v
    state = state + GAMMA
    u1 = 1.0 - <double>(_mix(state) >> 11) * TO_UNIT
    state = state + GAMMA
    u2 = <double>(_mix(state) >> 11) * TO_UNIT
    z = sqrt(-2.0 * log(u1)) * cos(2.0 * PI * u2)
    v = med * exp(sig * z)
    if not v > low:
        v = low
    if not v > 1e-3:
        v = 1e-3
    rng.state = state
    return v
