# cython: language_level=3
"""Events for the compiled fast paths: the very objects ``Event(...)`` makes, built by writing their slots.

``Event`` (``engine/events.py``) is a frozen dataclass with slots: its ``__init__`` sets each field through
``object.__setattr__`` (frozen), a Python call per field. ``new_event`` allocates the object as
``object.__new__(Event)`` does and stores each field in its slot, at the offset its member descriptor names
(read once, at import, from ``Event``'s own descriptors; CPython's stable ``PyMemberDescrObject`` layout).
``tests/engine/test_fast_event.py`` proves the events equal, field for field, to ``Event(...)``'s.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF

from cosmodeck.engine.events import Event

cdef extern from "Python.h":
    """
    #include "structmember.h"
    static Py_ssize_t cosmodeck_member_offset(PyObject* d, int* ok) {
        /* a member descriptor's slot offset, when it is a plain object slot (T_OBJECT_EX, writable) */
        if (Py_TYPE(d) != &PyMemberDescr_Type) { *ok = 0; return 0; }
        PyMemberDef* m = ((PyMemberDescrObject*)d)->d_member;
        *ok = (m->type == T_OBJECT_EX && !(m->flags & READONLY));
        return m->offset;
    }
    """
    Py_ssize_t cosmodeck_member_offset(object d, int* ok)
    PyTypeObject* Py_TYPE(object o)
    object PyType_GenericAlloc(PyTypeObject* t, Py_ssize_t n)  # a new reference, GC-tracked as object.__new__


cdef Py_ssize_t _offset(str name) except -1:
    cdef int ok = 0
    cdef Py_ssize_t off = cosmodeck_member_offset(Event.__dict__[name], &ok)
    if not ok:  # pragma: no cover - Event changed its layout
        raise ImportError(f"fast_event: Event.{name} is not a plain object slot")
    return off


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



# ---- ``Event.__init__`` compiled (events.py installs it) ------------------------------------------------------

_SEATS_DEFAULT = Event.__dataclass_fields__["seats"].default  # ``frozenset()``, the dataclass's own default
_DATACLASS_INIT = Event.__init__  # the generated ``__init__`` (for subclasses of ``Event``)
_NO_DATA = object()  # ``data`` not given: a new dict, as the field's ``default_factory``


cdef inline void _set(PyObject* e, Py_ssize_t off, object v) noexcept:
    """Store ``v`` in a slot that may already hold a value (``__init__`` called again on an event)."""
    cdef PyObject** at = <PyObject**>((<char*>e) + off)
    cdef PyObject* old = at[0]
    Py_INCREF(v)
    at[0] = <PyObject*>v
    Py_XDECREF(old)


def event_init(self, type, data=_NO_DATA, private=None, seats=_SEATS_DEFAULT, public=True):
    """The dataclass's generated ``__init__`` (the same fields, defaults and stored objects: nothing is
    converted or checked, as there), writing each slot directly instead of ``object.__setattr__`` per field."""
    if data is _NO_DATA:
        data = {}
    if Py_TYPE(self) is not T_EVENT:  # a subclass: its own layout may differ
        _DATACLASS_INIT(self, type, data, private, seats, public)
        return
    cdef PyObject* e = <PyObject*>self
    _set(e, O_TYPE, type)
    _set(e, O_DATA, data)
    _set(e, O_PRIVATE, private)
    _set(e, O_SEATS, seats)
    _set(e, O_PUBLIC, public)
