# The compiled view's class that other compiled modules read in C (``bots/heuristic/blast_off_fast.pyx``).

cdef class BotView:
    cdef object st  # not readable from Python: a bot given the view never reaches the state through it
    cdef object seat
    cdef dict got

    cdef bint has_countdown(self) except -1
    cdef object entry(self, key)
    cdef object _build(self, int code)
