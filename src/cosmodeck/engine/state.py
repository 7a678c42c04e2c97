"""The State base class: the public API of DESIGN.md over a few per-game hooks.

A game subclasses ``State`` and implements the ``_hooks``; this class owns what is common:
checks before an action, time and deadlines, the action log, records, JSON and clones.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from abc import ABC, abstractmethod
from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cosmodeck.engine import validate as V
from cosmodeck.engine.errors import CosmodeckError, IllegalActionError, StateFormatError
from cosmodeck.engine.events import Event
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game

Self = TypeVar("Self", bound="State")

STATE_VERSION = 2  # the format ``to_json`` writes: cosmodeck-state/2 (names); /1 (integers) still loads
STATE_VERSIONS = (1, 2)


class Action(Protocol):
    """Actions are small frozen values; ``str(action)`` is their stable notation."""

    def __str__(self) -> str: ...


# One log entry: (game time, seat or None for an explicit advance, action or None).
LogEntry = tuple[float, int | None, Any]
# The log is an immutable cons list so that clones share it for free.
LogNode = tuple["LogNode | None", LogEntry]


_HINTS: dict[type, dict[str, Any] | None] = {}


def _shape_ok(value: Any, hint: Any) -> bool:
    """``value`` has the type its annotation names, all the way down (``True`` is not an ``int``)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_shape_ok(value, a) for a in args)
    if origin is typing.Literal:
        return any(type(value) is type(a) and value == a for a in args)
    if origin in (tuple, list, frozenset, set):
        if not isinstance(value, origin):
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(map(_shape_ok, value, args))
        return not args or all(_shape_ok(v, args[0]) for v in value)
    if not isinstance(hint, type):
        return True  # a form this check does not know: the game's _check decides
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if not isinstance(value, hint):
        return False
    return not dataclasses.is_dataclass(value) or _fields_ok(value)


def _fields_ok(action: Any) -> bool:
    cls = type(action)
    if cls not in _HINTS:
        try:
            _HINTS[cls] = typing.get_type_hints(cls)
        except Exception:  # unresolvable annotations: the game's _check decides
            _HINTS[cls] = None
    hints = _HINTS[cls]
    if hints is None:
        return True
    return all(_shape_ok(getattr(action, f.name), hints.get(f.name, Any)) for f in dataclasses.fields(action))


class State(ABC):
    """A game in progress. See DESIGN.md "Public API"."""

    game: Game[Any]
    players: int
    seed: int
    rng: Rng
    now: float
    _log: LogNode | None

    def __init__(self, game: Game[Any], players: int, seed: int) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.now = 0.0
        self._log = None

    # ==== hooks each game implements ===================================================
    @abstractmethod
    def _to_act(self) -> frozenset[int]: ...

    @abstractmethod
    def _legal(self, seat: int) -> list[Any]:
        """Legal actions of a seat in ``to_act`` (the game is not over)."""

    @abstractmethod
    def _check(self, seat: int, action: Any) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal for ``seat`` now.

        Must agree exactly with ``_legal`` (one source of truth).
        """

    @abstractmethod
    def _do(self, seat: int, action: Any) -> list[Event]:
        """Apply a checked action; return its events."""

    def _deadline(self) -> float | None:
        """Game time of the next timer event, or ``None``."""
        return None

    def _fire(self) -> list[Event]:
        """Process every timer event due at ``self.now`` (called by ``advance``)."""
        return []

    def _observe(self, events: list[Event]) -> None:
        """Called with the events of every accepted action and timer, in order (default: nothing).

        A game whose views show a public history (e.g. for catching missed obligations) keeps it here.
        """
        return None

    @abstractmethod
    def _result(self) -> Result | None: ...

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """Game-specific state as JSON-ready data (exact)."""

    @abstractmethod
    def _load(self, core: dict[str, Any]) -> None:
        """Restore from ``_dump`` output (base fields are already set)."""

    @abstractmethod
    def _copy_into(self, other: State) -> None:
        """``other`` is a shallow copy of ``self``: replace its mutable containers with copies."""

    @abstractmethod
    def census(self) -> Counter[str]:
        """Every card id in every zone, counted (the conformance suite checks conservation)."""

    @abstractmethod
    def resample_hidden(self: Self, owner: int | None, rng: Rng) -> Self:
        """A clone whose secrets owned by ``owner`` are re-drawn consistently with what the
        other seats know (``owner=None``: secrets nobody sees, such as deck order).

        Used by the no-leak property and by determinizing search.
        """

    # ==== public API ===================================================================
    @property
    def to_act(self) -> frozenset[int]:
        if self._result() is not None:
            return frozenset()
        return self._to_act()

    def _seat(self, seat: Any, spectator: bool = False) -> None:
        """The one seat check of every public method: an int seat of this game (``None``: spectator)."""
        if seat is None and spectator:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {seat!r} in a {self.players}-player game", "bad_seat")

    def _action(self, action: Any) -> Any:
        """The one action check: notation is parsed; a hand-built action's fields must have the types its
        class declares, all the way down (a cell given as a list, a bool card: ``bad_action``); what the
        values mean (a card not in hand, an odd digit) is the game's ``_check``."""
        if isinstance(action, str):
            return self.game.parse_action(action)
        checked = self.game.checked_actions
        if checked.get(id(action)) is action:  # this very object was checked before (legal lists reuse them)
            return action
        if dataclasses.is_dataclass(action) and not isinstance(action, type):
            same = _fields_ok(action)
        else:  # not a dataclass: it must at least be what its notation denotes
            try:
                same = self.game.parse_action(str(action)) == action
            except (CosmodeckError, TypeError, ValueError, AttributeError, IndexError, KeyError):
                same = False
        if not same:
            raise IllegalActionError(f"{type(action).__name__} is not a well-formed action of this game",
                                     "bad_action")
        if len(checked) >= 50_000:
            checked.clear()
        checked[id(action)] = action  # the strong reference keeps the id from being reused
        return action

    def legal_actions(self, seat: int) -> list[Any]:
        self._seat(seat)
        if self._result() is not None or seat not in self._to_act():
            return []
        return self._legal(seat)

    def is_legal(self, seat: int, action: Any) -> bool:
        try:
            self._precheck(seat, action)
        except IllegalActionError:
            return False
        return True

    def _precheck(self, seat: int, action: Any) -> Any:
        action = self._action(action)
        if self._result() is not None:
            raise IllegalActionError("the game is over", "game_over")
        self._seat(seat)
        if seat not in self._to_act():
            raise IllegalActionError(f"seat {seat} may not act now", "not_your_turn")
        self._check(seat, action)
        return action

    def apply(self, seat: int, action: Any, at: float | None = None) -> list[Event]:
        """Apply ``action`` (an action or its notation) for ``seat`` at game time ``at``.

        Deadlines due at or before ``at`` are processed first (time passes regardless).
        Raises ``IllegalActionError`` and leaves the state as it was (after that advance).
        """
        pre: list[Event] = []
        if at is not None:
            at = float(at)
            if at < self.now:
                raise IllegalActionError(f"time {at} is before the game time {self.now}", "time_backwards")
            pre = self._advance_to(at)
        try:
            action = self._precheck(seat, action)
        except IllegalActionError as e:
            e.events = pre
            raise
        events = self._do(seat, action)
        self._observe(events)
        self._log = (self._log, (self.now, seat, action))
        return pre + events

    def next_deadline(self) -> float | None:
        if self._result() is not None:
            return None
        return self._deadline()

    def cue(self) -> float | None:
        """A real-time game's current go signal, as the game time it was given (``None``: no signal).

        E.g. the value a Blast Off! countdown calls. Each new cue makes the runner and the server
        plan every bot's next look afresh after a human-like reaction time (``bots/reaction.py``).
        """
        if self._result() is not None:
            return None
        return self._cue()

    def _cue(self) -> float | None:
        return None

    def advance(self, at: float) -> list[Event]:
        """Apply every timer-driven change due up to game time ``at``."""
        at = float(at)
        if at < self.now:
            raise IllegalActionError(f"time {at} is before the game time {self.now}", "time_backwards")
        events = self._advance_to(at)
        if at > self._logged_time() or events:
            prev = self._log
            if prev is not None and prev[1][1] is None:
                # advance(t1); advance(t2) == advance(t2): deadlines are processed in time order.
                prev = prev[0]
            self._log = (prev, (at, None, None))
        return events

    def _logged_time(self) -> float:
        return self._log[1][0] if self._log is not None else 0.0

    def _advance_to(self, at: float) -> list[Event]:
        events: list[Event] = []
        guard = 0
        while self._result() is None:
            d = self._deadline()
            if d is None or d > at:
                break
            self.now = max(self.now, d)
            fired = self._fire()
            self._observe(fired)
            events.extend(fired)
            guard += 1
            if guard > 100_000:
                raise RuntimeError("deadline did not move forward")
        self.now = max(self.now, at)
        return events

    @property
    def is_over(self) -> bool:
        return self._result() is not None

    @property
    def result(self) -> Result | None:
        return self._result()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator."""
        self._seat(seat, spectator=True)
        res = self._result()
        out: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "now": self.now,
            "to_act": sorted(self.to_act),
            "deadline": self.next_deadline(),
            "over": res is not None,
            "result": None if res is None else res.to_dict(),
        }
        out.update(self._view(seat))
        return out

    def clone(self: Self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.copy()
        self._copy_into(other)
        return other

    # ---- log, records, JSON -----------------------------------------------------------
    def log_entries(self) -> list[LogEntry]:
        out: list[LogEntry] = []
        node = self._log
        while node is not None:
            out.append(node[1])
            node = node[0]
        out.reverse()
        return out

    @property
    def decisions(self) -> int:
        """Number of actions applied so far."""
        return sum(1 for e in self.log_entries() if e[1] is not None)

    def _log_json(self) -> list[list[Any]]:
        return [[t, "advance"] if s is None else [t, s, str(a)] for t, s, a in self.log_entries()]

    def record(self) -> dict[str, Any]:
        """The game record: header (game, options, data hash, seed, players) + timed log."""
        res = self._result()
        return {
            "format": "cosmodeck-record/1",
            **self.game.header(),
            "seed": self.seed,
            "players": self.players,
            "log": self._log_json(),
            "result": None if res is None else res.to_dict(),
        }

    def to_json(self, version: int = STATE_VERSION) -> str:
        """The state as JSON: exact, and loadable by ``game.load_state``.

        ``version=2`` (the default, ``cosmodeck-state/2``) names cards, missions, phases and colours
        (docs/state-formats.md); ``version=1`` writes the engine's own integer core (``cosmodeck-state/1``),
        the format of states saved before the named one, for tools that still read it.
        """
        if version not in STATE_VERSIONS:
            raise ValueError(f"state format version {version!r} is not one of {list(STATE_VERSIONS)}")
        obj = {
            "format": f"cosmodeck-state/{version}",
            "game": self.game.id,
            "options": self.game.options_json(),
            "data_hash": self.game.data_hash,
            "players": self.players,
            "seed": self.seed,
            "now": self.now,
            "rng": str(self.rng.state),
            "log": self._log_json(),
            "core": self._dump() if version == 1 else self._dump_named(),
        }
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))

    def _dump_named(self) -> dict[str, Any]:
        """The core of ``cosmodeck-state/2``: ``_dump`` with names for cards, missions, phases and colours.

        A game whose ``_dump`` already names everything keeps this default (the two formats then agree).
        """
        return self._dump()

    @classmethod
    def _core_from_named(cls, game: Game[Any], players: int, core: Any) -> Any:
        """The ``_dump`` core of a ``_dump_named`` core (untrusted): ``StateFormatError`` for a value that is
        not a name where one belongs; the core's own validation runs afterwards on the result."""
        return core

    # ---- validation ---------------------------------------------------------------------
    @classmethod
    def _validate_core(cls, game: Game[Any], players: int, core: Any, now: float) -> None:
        """Check the game-specific core (``_dump`` output as JSON) before it is loaded.

        Raise ``StateFormatError`` (see ``engine.validate``) naming the field and the problem.
        Each game checks schema, types, ranges, ids, the card census and cross-field consistency.
        """
        return None

    def _validate_loaded(self) -> None:
        """Checks that need the loaded state (the rules' own helpers); raise ``StateFormatError``."""
        return None

    def _validate_flow(self) -> None:
        """Phase, to-act and timers agree: the game can go on from here (or it is over)."""
        if self._result() is not None:
            return
        due = self._deadline()
        if due is not None and not due >= self.now:
            V.fail("now", f"a timer was due at {due}, before the game time {self.now}, and never fired",
                   V.INCONSISTENT)
        to_act = self._to_act()
        if not to_act and due is None:
            V.fail("core", "nobody may act and no timer is pending: the game could never go on", V.INCONSISTENT)
        for seat in sorted(to_act):
            if not 0 <= seat < self.players:
                V.fail("core", f"seat {seat} is to act in a {self.players}-player game", V.INCONSISTENT)
            if not self._legal(seat):
                V.fail("core", f"seat {seat} is to act but has no legal action", V.INCONSISTENT)

    def validate(self) -> None:
        """Raise ``StateFormatError`` unless this state passes every check ``load_state`` makes.

        States reached by play always validate (the conformance suite checks it after every step).
        """
        type(self)._from_json(self.game, json.loads(self.to_json()), named=True)

    @classmethod
    def _validate_header(cls, game: Game[Any], obj: dict[str, Any]) -> None:
        info = game.info
        players = V.integer(obj.get("players"), "players", info.min_players, info.max_players)
        V.integer(obj.get("seed"), "seed")
        now = V.number(obj.get("now"), "now", 0.0)
        raw = V.string(obj.get("rng"), "rng")
        if not raw.isdigit() or not 0 <= int(raw) < 1 << 64 or len(raw) > 20:
            V.fail("rng", f"{raw[:40]!r} is not a generator state (a decimal below 2**64)", V.RANGE)
        last = 0.0
        for i, entry in enumerate(V.seq(obj.get("log"), "log")):
            f = f"log[{i}]"
            V.seq(entry, f)
            if len(entry) == 2 and entry[1] == "advance":
                t = V.number(entry[0], f"{f}[0]", 0.0)
            elif len(entry) == 3:
                t = V.number(entry[0], f"{f}[0]", 0.0)
                V.integer(entry[1], f"{f}[1]", 0, players - 1)
                text = V.string(entry[2], f"{f}[2]")
                try:
                    game.parse_action(text)
                except CosmodeckError as e:
                    V.fail(f"{f}[2]", f"{text[:60]!r} is not an action of this game: {e}")
            else:
                V.fail(f, "must be [time, seat, action] or [time, 'advance']")
            if t < last:
                V.fail(f"{f}[0]", f"time {t} is before the previous entry's {last}", V.INCONSISTENT)
            last = t
        if last > now:
            V.fail("now", f"game time {now} is before the last logged time {last}", V.INCONSISTENT)
        if not isinstance(obj.get("core"), dict):
            V.fail("core", "must be an object")

    @classmethod
    def _from_json(cls: type[Self], game: Game[Any], obj: dict[str, Any], flow: bool = True,
                   checked: bool = True, named: bool = False) -> Self:
        """``checked=False`` skips every validation: only for cores this package's own code has just built
        (``bots.determinize.load_core``; the determinization tests validate what it builds).
        ``named``: the core is ``_dump_named`` output (``cosmodeck-state/2``), translated before validation."""
        if checked:
            cls._validate_header(game, obj)
            if named:
                try:
                    obj = {**obj, "core": cls._core_from_named(game, int(obj["players"]), obj["core"])}
                except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                    if isinstance(e, StateFormatError):
                        raise
                    raise StateFormatError(f"malformed state: {type(e).__name__}: {e}", V.TYPE) from e
            cls._validate_core(game, int(obj["players"]), obj["core"], float(obj["now"]))
        st = object.__new__(cls)
        try:
            st.game = game
            st.players = int(obj["players"])
            st.seed = int(obj["seed"])
            st.now = float(obj["now"])
            st.rng = Rng(raw_state=int(obj["rng"]))
            node: LogNode | None = None
            for entry in obj["log"]:
                if len(entry) == 2 and entry[1] == "advance":
                    node = (node, (float(entry[0]), None, None))
                else:
                    node = (node, (float(entry[0]), int(entry[1]), game.parse_action(str(entry[2]))))
            st._log = node
            st._load(obj["core"])
            if checked:
                st._validate_loaded()
            if flow and checked:
                st._validate_flow()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            if isinstance(e, StateFormatError):
                raise
            raise StateFormatError(f"malformed state: {type(e).__name__}: {e}", V.TYPE) from e
        return st

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} players={self.players} seed={self.seed} t={self.now}>"
