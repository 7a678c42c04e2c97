# The compiled bot view that other compiled modules read in C (``bots/heuristic/shooting_star_kernel.pyx``).

from libc.stdint cimport uint64_t

cdef enum:
    BV_MAXP = 16  # placed cards held in C (more: ``ok`` is false and the reader takes the mapping)

cdef class BotView:
    cdef object st  # the game (not readable from Python, as every field here)
    # the state's parts its entries show, as they were when it was made (containers copied)
    cdef object shape_order, factions, phase, placed, hands, all_conquest, all_debris, missions
    cdef readonly object seat
    cdef dict got  # the mapping's entries, built on first read
    # what ``view.BOT_KEYS`` shows, read in C (``ok`` false: not filled, read the mapping)
    cdef bint ok
    cdef int players
    cdef dict board  # cell -> (planet id, level; 0 for a Dark Planet): the grid's planets (shown to all)
    cdef int bx0, by0, bx1, by1  # the grid's ``bounds``
    cdef int nplaced
    cdef int pseat[BV_MAXP]
    cdef int px[BV_MAXP]
    cdef int py[BV_MAXP]
    cdef list parrow  # per placed card: its arrow
    cdef list used  # per seat: its used cards as bits of ``card_order`` (an int), as ``hands[s]["used"]``
    cdef object mids  # this seat's mission ids (``missions[seat]``'s ids)
    cdef object conquest  # this seat's conquest pile
    cdef object debris  # this seat's debris pile
    cdef dict _mapping(self)
