# cython: language_level=3
# ``Event(type, data, private, seats, public)`` built by the compiled fast paths without the dataclass's checked
# ``__init__`` (``engine/fast_event.pyx``): ``from cosmodeck.engine.fast_event cimport new_event``.

cdef object new_event(str kind, dict data, object private, frozenset seats, bint public)
