# cython: language_level=3
"""``FastRng``: ``engine/rng.py``'s ``Rng`` with ``randbelow`` and ``shuffle`` compiled (``engine/splitmix.pxd``),
the same state and the same numbers. The generator of the compiled game states (Blast Off!'s and Shooting Star's
``fast.pyx``); ``tests/engine/test_fast_rng.py`` proves it equal to ``Rng`` draw for draw."""

from cosmodeck.engine.rng import Rng

from cosmodeck.engine.splitmix cimport below, u64


class FastRng(Rng):
    """``Rng`` with ``randbelow`` and ``shuffle`` compiled: the same state and the same numbers."""

    __slots__ = ()

    def randbelow(self, n):
        if type(n) is not int or n <= 1 or n >= (1 << 62):
            return Rng.randbelow(self, n)
        cdef u64 s = self.state
        cdef u64 r = below(&s, n)
        self.state = s
        return r

    def shuffle(self, seq):
        cdef u64 s = self.state
        cdef Py_ssize_t i, j
        cdef Py_ssize_t n = len(seq)
        if n >= (1 << 62):  # pragma: no cover
            return Rng.shuffle(self, seq)
        i = n - 1
        while i > 0:
            j = <Py_ssize_t>below(&s, <u64>(i + 1))
            seq[i], seq[j] = seq[j], seq[i]
            i -= 1
        self.state = s

    def copy(self):
        return FastRng(raw_state=self.state)
