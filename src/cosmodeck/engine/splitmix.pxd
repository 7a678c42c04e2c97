# cython: language_level=3
# engine/rng.py's SplitMix64 in 64-bit C arithmetic (the same numbers), for the compiled fast paths to cimport:
# ``from cosmodeck.engine.splitmix cimport u64, below``. ``engine/fast_rng.pyx:FastRng`` is the generator built on it.

ctypedef unsigned long long u64

cdef extern from *:
    int __builtin_clzll(unsigned long long x) noexcept nogil


cdef inline u64 below(u64* s, u64 n) noexcept nogil:
    """``Rng.randbelow(n)`` for 2 <= n < 2**63, advancing ``*s``: the next outputs shifted to n's bit length,
    the first below n (rejection, as ``Rng.randbelow``)."""
    cdef int shift = __builtin_clzll(n - 1)  # 64 - (n - 1).bit_length()
    cdef u64 z, r
    while True:
        s[0] = s[0] + 0x9E3779B97F4A7C15ULL
        z = (s[0] ^ (s[0] >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        r = (z ^ (z >> 31)) >> shift
        if r < n:
            return r
