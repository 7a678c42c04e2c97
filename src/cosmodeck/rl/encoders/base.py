"""The encoder contract: a player view in, a fixed-length vector and a fixed action catalog out.

An encoder is built once per (game definition, player count) from public, static facts (the
game's options and card data). ``encode`` then reads *only* the player view ``state.view(seat)``,
so an observation can never contain what that seat may not see. The action catalog lists every
distinct action notation the game can offer for that configuration; ``key`` maps a legal action
to its catalog entry (usually ``str(action)``), and the mask is the set of legal entries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Feature:
    """One slice of the observation vector: its name, length and meaning (documented in docs/rl.md)."""

    name: str
    size: int
    doc: str


EMPTY_VIEW: Mapping[str, Any] = {}
#: Key of the ``cache`` entry that survives the state's changes: a dict where an encoder may keep what it
#: follows from one position of a game to the next (what it holds must not change the observation).
MEMO = "memo"
#: ``Legal.action`` of an index that is not legal now.
ILLEGAL = object()


class Legal:
    """A seat's legal catalog entries: ``indices`` (for the mask) and ``action(index)`` (the engine
    action to apply, ``None`` for the real-time ``wait``, ``ILLEGAL`` if the index is not legal).

    ``indices`` may be computed on first use (``_compute``): the environments write masks with ``fill``,
    which a subclass may do without ever building the list."""

    __slots__ = ("_indices",)

    def __init__(self, indices: list[int] | None = None) -> None:
        self._indices = indices

    @property
    def indices(self) -> list[int]:
        got = self._indices
        if got is None:
            got = self._indices = self._compute()
        return got

    def _compute(self) -> list[int]:
        raise NotImplementedError

    def fill(self, row: Mask) -> None:
        """Set the all-zero ``row`` (the catalog's length) to 1 at ``indices``."""
        idx = self.indices
        if idx:
            row[idx] = 1

    def action(self, index: int) -> Any:
        raise NotImplementedError

    def with_noop(self, noop: int) -> Legal:
        """The same entries plus the real-time ``wait`` at catalog index ``noop``."""
        raise NotImplementedError


class MapLegal(Legal):
    """Legal entries held as a catalog index -> engine action dict (``legal_map``)."""

    __slots__ = ("map",)

    def __init__(self, legal: dict[int, Any]) -> None:
        super().__init__(list(legal))
        self.map = legal

    def action(self, index: int) -> Any:
        return self.map.get(index, ILLEGAL)

    def with_noop(self, noop: int) -> Legal:
        self.map[noop] = None
        self.indices.append(noop)
        return self


class Writer:
    """Fills an observation vector slice by slice, checking each slice's name and length.

    Values go into a plain list (much faster than numpy item assignment) that ``done`` turns
    into the ``float32`` vector.
    """

    __slots__ = ("features", "i", "out", "pos")

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = features
        self.out: list[float] = [0.0] * sum(f.size for f in features)
        self.pos = 0
        self.i = 0

    def _next(self, name: str) -> tuple[int, int]:
        f = self.features[self.i]
        if f.name != name:
            raise AssertionError(f"encoder writes {name!r} where the layout has {f.name!r}")
        start = self.pos
        self.pos += f.size
        self.i += 1
        return start, f.size

    def start(self, name: str) -> int:
        """Where the next slice starts in ``out``, for an encoder that writes it directly (all zero)."""
        return self._next(name)[0]

    def values(self, name: str, values: Iterable[float]) -> None:
        start, size = self._next(name)
        vals = list(values)
        if len(vals) != size:
            raise AssertionError(f"feature {name!r} has {len(vals)} values, the layout says {size}")
        self.out[start:start + size] = vals

    def one_hot(self, name: str, index: int | None) -> None:
        """A one-hot slice; ``None`` (or an index out of range) leaves it all zero."""
        start, size = self._next(name)
        if index is not None and 0 <= index < size:
            self.out[start + index] = 1.0

    def multi_hot(self, name: str, indices: Iterable[int]) -> None:
        start, size = self._next(name)
        for k in indices:
            if 0 <= k < size:
                self.out[start + k] = 1.0

    def done(self) -> Vector:
        """The finished vector (encoders keep every value in [0, 1]; the tests check it)."""
        if self.i != len(self.features):
            raise AssertionError(f"encoder stopped at feature {self.i} of {len(self.features)}")
        return np.array(self.out, dtype=np.float32)


class DirectPath(Protocol):
    """An encoder's direct path (``*_direct.py``): writes a seat's observation straight from the state."""

    size: int

    def write(self, st: Any, me: int, out: Any, cache: dict[str, Any] | None) -> None:
        """Fill ``out`` (all zero, the observation's length: a list, or a memoryview of a float32 row written
        item by item) with exactly ``encode(st.view(me))``; ``cache`` as in ``Encoder.encode_state``."""


def ratio(n: float, scale: float) -> float:
    """``n / scale`` clipped to [0, 1] (every observation value lies in [0, 1])."""
    if scale <= 0:
        return 0.0
    v = n / scale
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else float(v)


def rel(seat: int, me: int, players: int) -> int:
    """A seat as seen from ``me``: 0 is me, 1 the next seat clockwise, and so on."""
    return (seat - me) % players


class Encoder(ABC):
    """Per-game encoder; see the module docstring."""

    game_id: str
    players: int
    features: tuple[Feature, ...]
    actions: tuple[str, ...]
    #: Catalog index of the environment's "wait" action in real-time games, else ``None``.
    noop: int | None = None
    #: ``key(action, view)`` ignores the view: catalog indices may be cached per action value.
    view_free_keys: bool = True
    #: The direct path that ``encode_state``/``write_state`` use (``None``: they encode ``state.view(seat)``).
    direct: DirectPath | None = None
    #: Compiled hooks an encoder may set (``None``: the generic path). ``row_writer(state, seat, row)`` clears a
    #: contiguous float32 row and writes ``encode_state(state, seat)`` into it; ``mask_writer(state, seat, row)``
    #: clears a contiguous int8 row and writes the mask of ``legal_state(state, seat)``; ``action_at(state, seat,
    #: index)`` is ``legal_state(state, seat).action(index)`` with ``None`` for ``ILLEGAL`` (turn-based games only:
    #: no ``wait``). ``observer(state, seat, active)`` is a fresh ``{"observation", "action_mask"}`` of new arrays
    #: (the mask all zero unless ``active``: the seat decides now); ``actor(state, seat, index)`` applies
    #: ``action_at(state, seat, index)`` and says whether it was legal. The tests prove each equal to the generic
    #: path it replaces.
    row_writer: Callable[[Any, int, Vector], None] | None = None
    mask_writer: Callable[[Any, int, Mask], None] | None = None
    action_at: Callable[[Any, int, int], Any] | None = None
    observer: Callable[[Any, int, bool], dict[str, Any]] | None = None
    actor: Callable[[Any, int, int], bool] | None = None

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self._index_of: dict[int, int] = {}
        self._alive: list[Any] = []

    def _finish(self) -> None:
        """Call at the end of ``__init__`` once ``features`` and ``actions`` are set."""
        self.index = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise AssertionError(f"{self.game_id}: the action catalog has duplicate entries")

    @property
    def obs_size(self) -> int:
        return sum(f.size for f in self.features)

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def slices(self) -> dict[str, slice]:
        """Where each feature lies in the observation vector."""
        out: dict[str, slice] = {}
        pos = 0
        for f in self.features:
            out[f.name] = slice(pos, pos + f.size)
            pos += f.size
        return out

    @abstractmethod
    def encode(self, view: Mapping[str, Any]) -> Vector:
        """The observation vector of a player view (values in [0, 1])."""

    def key(self, action: Any, view: Mapping[str, Any]) -> str | None:
        """The catalog entry of a legal action (``None``: not in the catalog, never offered)."""
        return str(action)

    def legal_map(self, legal: Sequence[Any], view: Mapping[str, Any]) -> dict[int, Any]:
        """Catalog index -> engine action, for the legal actions that the catalog holds."""
        out: dict[int, Any] = {}
        index = self.index
        if self.view_free_keys:
            # Games reuse their action objects, so the cache is keyed by identity: ``_index_of`` maps
            # id -> catalog index (-1: not in the catalog) and ``_alive`` keeps every cached object
            # alive, so an id cannot be reused by another object while it is in the cache.
            index_of = self._index_of
            try:
                idx = [index_of[id(a)] for a in legal]
            except KeyError:
                if len(index_of) > 100_000:  # actions made fresh each time would pile up
                    index_of.clear()
                    self._alive.clear()
                for a in legal:
                    if id(a) not in index_of:
                        k = self.key(a, view)
                        index_of[id(a)] = index.get(k, -1) if k is not None else -1
                        self._alive.append(a)
                idx = [index_of[id(a)] for a in legal]
            # The first legal action of each catalog entry wins (dict keeps the last: feed it reversed).
            out = dict(zip(reversed(idx), reversed(legal), strict=True))
            out.pop(-1, None)
            return out
        for a in legal:
            k = self.key(a, view)
            if k is not None:
                j = index.get(k)
                if j is not None and j not in out:
                    out[j] = a
        return out

    # ---- the direct path: straight from the state, through the seat's information filter ----
    def encode_state(self, state: Any, seat: int, cache: dict[str, Any] | None = None) -> Vector:
        """Exactly ``encode(state.view(seat))``: through the encoder's ``direct`` path when it has one
        (straight from the state, through the seat's information filter: faster), else through the view.

        ``cache`` is a dict the caller clears whenever the state changes: what is public may be
        computed once in it and shared by every seat's observation of the same position.
        """
        direct = self.direct
        if direct is None:
            return self.encode(state.view(seat))
        row: Vector = np.zeros(direct.size, dtype=np.float32)
        direct.write(state, seat, memoryview(row.data), cache)
        return row

    def write_state(self, state: Any, seat: int, row: Vector, cache: dict[str, Any] | None = None) -> None:
        """Write ``encode_state(state, seat, cache)`` into ``row`` (a preallocated float32 vector of the
        observation's length, any content): in place, item by item, on the direct path of a contiguous row."""
        direct = self.direct
        if direct is None or not row.flags.c_contiguous:
            row[:] = self.encode_state(state, seat, cache)
            return
        row.fill(0.0)
        direct.write(state, seat, memoryview(row.data), cache)

    def legal_state(self, state: Any, seat: int) -> Legal:
        """The seat's legal catalog entries now, as ``legal_map(state.legal_actions(seat), view)``."""
        view = EMPTY_VIEW if self.view_free_keys else state.view(seat)
        return MapLegal(self.legal_map(state.legal_actions(seat), view))

    def mask(self, indices: Iterable[int]) -> Mask:
        m: Mask = np.zeros(len(self.actions), dtype=np.int8)
        m[np.fromiter(indices, dtype=np.intp)] = 1
        return m
