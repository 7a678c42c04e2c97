# cython: language_level=3
# ``base.ratio`` and ``base.rel`` in C, for the compiled writers to cimport:
# ``from cosmodeck.rl.encoders.scale cimport ratio, rel``.


cdef inline double ratio(double n, double scale) noexcept nogil:
    """``base.ratio``: ``n / scale`` clipped to [0, 1] (0 for a scale <= 0)."""
    if scale <= 0:
        return 0.0
    cdef double v = n / scale
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


cdef inline int rel(int seat, int me, int n) noexcept nogil:
    """``base.rel``: ``(seat - me) % n`` as Python computes it (C's ``%`` keeps the sign: made non-negative)."""
    cdef int r = (seat - me) % n
    return r + n if r < 0 else r
