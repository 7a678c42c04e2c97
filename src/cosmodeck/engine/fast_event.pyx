# cython: language_level=3
"""Events for the compiled fast paths: the very objects ``Event(...)`` makes, built by writing their slots.

``Event`` (``engine/events.py``) is a frozen dataclass with slots: its ``__init__`` sets each field through
``object.__setattr__`` (frozen), a Python call per field. ``new_event`` allocates the object as
``object.__new__(Event)`` does and stores each field in its slot, at the offset its member descriptor names
(read once, at import, from ``Event``'s own descriptors; CPython's stable ``PyMemberDescrObject`` layout).
``tests/engine/test_fast_event.py`` proves the events equal, field for field, to ``Event(...)``'s.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF

from cosmodeck.engine.events import Event

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(PyTypeObject* t, Py_ssize_t n)  # a new reference, GC-tracked as object.__new__


cdef Py_ssize_t _offset(str name) except -1:
    desc = Event.__dict__[name]
    if type(desc).__name__ != "member_descriptor":  # pragma: no cover - Event changed its layout
        raise ImportError(f"fast_event: Event.{name} is not a slot")
    return (<PyMemberDescrObject*>desc).d_member.offset


cdef Py_ssize_t O_TYPE = _offset("type")
cdef Py_ssize_t O_DATA = _offset("data")
cdef Py_ssize_t O_PRIVATE = _offset("private")
cdef Py_ssize_t O_SEATS = _offset("seats")
cdef Py_ssize_t O_PUBLIC = _offset("public")
cdef PyTypeObject* T_EVENT = <PyTypeObject*>Event
if len(Event.__slots__) != 5:  # pragma: no cover - Event changed its fields
    raise ImportError("fast_event: Event's fields changed")


cdef inline void _put(PyObject* e, Py_ssize_t off, object v) noexcept:
    Py_INCREF(v)
    (<PyObject**>((<char*>e) + off))[0] = <PyObject*>v


cdef object new_event(str kind, dict data, object private, frozenset seats, bint public):
    """``Event(kind, data, private=private, seats=seats, public=public)``."""
    ev = PyType_GenericAlloc(T_EVENT, 0)
    cdef PyObject* e = <PyObject*>ev
    _put(e, O_TYPE, kind)
    _put(e, O_DATA, data)
    _put(e, O_PRIVATE, private)
    _put(e, O_SEATS, seats)
    _put(e, O_PUBLIC, True if public else False)
    return ev


def make(kind: str, data: dict, private: object, seats: frozenset, public: bool) -> object:
    """``new_event`` for Python (tests)."""
    return new_event(kind, data, private, seats, public)
