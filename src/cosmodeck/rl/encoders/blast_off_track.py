"""Blast Off!'s public-log replay followed from one position to the next, equal to the full replay.

The observation's ``owed``/``violations`` features come from ``replay_view(game, view)``: the view's
public log (``recent``, the last 48 events) replayed from its first event, from a start state walked
back from the view (``bots/blast_off_log/start.py``), then settled at the view's time. Replaying the
whole window at every position costs about 40 events fed per step. ``LogTrack`` gets the same
``PublicLog`` with a few events fed per step:

- it keeps the last *chain*: an unsettled ``PublicLog`` started where that position's window
  started, fed up to its last event, and the signature of its state after each event fed;
- at the next position (same game), the window's start state is walked back as ``replay_view`` does.
  A fresh log from it is compared with the chain's state just before the window's first event and,
  if they differ, fed event by event and compared after each. Two logs in the same state fed the
  same events stay in the same state (``feed`` is deterministic), so as soon as the signatures
  match, the chain carries on in place of the fresh log: only the events past its end are fed.
  Nothing matching (another game, a log the chain never saw), the fresh log is the full replay.

The signature holds every field that ``feed`` and ``settle`` read or that the features read, with the
replay's turn-action count (real time) taken relative (only its increments matter) and the replay's
``now`` left out (each event's own time is used by ``feed``, and the features use the view's). The
fields the replay only writes for the determinizers (``last``, ``extra``, ``rthen``...) are left out
too, so a followed log is for the features only: the bots' determinizers use the full replay.
``tests/rl/test_direct.py`` proves the signature and the features equal to the full replay's on
thousands of positions.

``blast_off_track_fast.FastLogTrack`` is this class compiled (on the compiled ``FastPublicLog``), which the
direct path uses when the extension is built (``tests/rl/test_blast_off_track_fast.py`` proves it equal to
this one); this readable class stays the reference and runs without the extension.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cosmodeck.bots.blast_off_log import Play, PublicLog
from cosmodeck.bots.blast_off_log.records import face
from cosmodeck.bots.blast_off_log.start import inforce_back, size_back, step_back
from cosmodeck.games.blast_off.cards import TYPE_BY_NAME, TYPE_KIND, TYPE_NAME
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.view import _pile_face

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState

Sig = tuple[Any, ...]


def _play_sig(p: Play | None, turns: int | None) -> Sig | None:
    if p is None:
        return None
    return (p.event, p.actor, p.kind, p.col, p.val, p.bkind, p.bcol, p.bval, p.in_cd, p.blast_off,
            tuple(p.before), p.t, None if turns is None else p.turns - turns, p.paused, p.choosing, p.late)


def signature(log: PublicLog) -> Sig:
    """Everything of ``log`` that ``feed``, ``settle`` and the features read, turn count relative (real
    time; turn-based, the count is never read: ``need`` is 0 and a play's count unused).

    Left out, because the replay only writes them (for the determinizers, which read the full replay):
    ``last``, ``last_choose``, ``extra``, ``rthen``, ``lost``, ``found`` and the violations' keys."""
    obls, viols = log.obls, log.viols
    if log.rt:
        t = log.turns
        return (tuple(log.sizes), tuple(log.inforce), log.face, log.top_kind, log.in_cd, log.resp,
                tuple((o.seat, o.mission, o.gesture, o.token, o.expect, o.deadline, o.due) for o in obls)
                if obls else (),
                tuple((v.seat, v.mission, v.start, v.end, v.need - t, v.caught) for v in viols) if viols else (),
                _play_sig(log.pending, t), tuple(log.by_id))
    return (tuple(log.sizes), tuple(log.inforce), log.face, log.top_kind, log.in_cd, log.resp,
            tuple((o.seat, o.mission, o.gesture, o.token, o.expect, o.due) for o in obls) if obls else (),
            tuple((v.seat, v.mission, v.start, v.end, v.caught) for v in viols) if viols else (),
            _play_sig(log.pending, None), tuple(log.by_id))


def settled_copy(log: PublicLog, now: float) -> PublicLog:
    """A copy of ``log`` settled at ``now`` (``log`` itself is left as it was, to be fed further)."""
    if log.pending is None and not log.rt:
        return log  # settling would change nothing (turn-based: no deadline expires by time)
    new = object.__new__(PublicLog)
    new.__dict__.update(log.__dict__)
    new.sizes = list(log.sizes)
    new.inforce = list(log.inforce)
    new.obls = list(log.obls)  # obligations are never modified, only added and removed
    new.viols = [replace(v) for v in log.viols]
    new.found = list(log.found)
    new.by_id = dict(log.by_id)
    new.pending = None if log.pending is None else replace(log.pending, before=list(log.pending.before))
    new.settle(now)
    return new


#: The event types each walk-back of ``bots/blast_off_log/start.py`` reacts to.
_SIZE_EVENTS = frozenset(("played", "slap_accepted", "drew", "effect"))
_STEP_EVENTS = frozenset(("countdown_started", "countdown_ended", "response_started"))
_PLAYS = frozenset(("played", "slap_accepted"))
_UNKNOWN_TOP = -1, (-1, 0)

Facts = tuple[tuple[int, ...], tuple[str, ...], bool, int]  # hand sizes, missions in force, countdown, step


def _back(facts: Facts, e: Mapping[str, Any]) -> Facts:
    """``facts`` walked back over event ``e`` (one step of ``replay_view``'s walk-backs, which are folds
    over the events in reverse, so walking back event by event gives what they give)."""
    kind = e["type"]
    if kind in _SIZE_EVENTS:
        sizes, inforce, in_cd, resp = facts
        return tuple(size_back(list(sizes), e)), inforce, in_cd, resp
    if kind == "mission_revealed":
        sizes, inforce, in_cd, resp = facts
        return sizes, tuple(inforce_back(list(inforce), e)), in_cd, resp
    if kind in _STEP_EVENTS:
        sizes, inforce, in_cd, resp = facts
        in_cd, resp = step_back(in_cd, resp, e)
        return sizes, inforce, in_cd, resp
    return facts


def _fresh(g: BlastOffGame, public: Mapping[str, Any], start: Facts, top: tuple[int, tuple[int, int]],
           events: Sequence[Mapping[str, Any]]) -> PublicLog:
    """A log started at the window's start (``replay_view``'s start state), before its first event."""
    (sizes, inforce, in_cd, resp), (top_kind, top_face) = start, top
    fresh = PublicLog(g, public)
    fresh.sizes, fresh.inforce, fresh.in_cd, fresh.resp = list(sizes), list(inforce), in_cd, resp
    fresh.top_kind, fresh.face = top_kind, top_face
    fresh.now = float(events[0]["t"])
    return fresh


class LogTrack:
    """The chain of one table (see the module docstring); ``log(game, state, public)`` per position.

    The start state is walked back incrementally too: ``back[n]`` holds the view's facts walked back to
    just before event ``n``, from the last position's view (``facts``); at the next position only the
    new events are walked back, and if that gives the last position's facts, the rest is as before.
    ``cum[n]`` counts the plays and reshuffles up to event ``n`` (for the top card before the window)."""

    __slots__ = ("back", "chain", "cum", "end", "facts", "first", "last_out", "owner", "sig0", "sigs")

    def __init__(self) -> None:
        self.owner: object | None = None  # the state (one game) the chain follows
        self.chain: PublicLog | None = None
        self.first = -1  # sequence number of the chain's first event
        self.end = -1  # sequence number of the last event fed to the chain
        self.sigs: dict[int, Sig] = {}  # event number -> the chain's signature after feeding it
        self.facts: Facts | None = None
        self.back: dict[int, Facts] = {}
        self.cum: dict[int, tuple[int, int]] = {}
        # the last position's (start facts, top, view time) and settled log: a position with no new event,
        # the same start and the same time has the same replay
        self.last_out: tuple[Any, PublicLog] | None = None
        # the signature of a fresh log, by what it is made of (``_fresh``): a fresh log is built only to be fed
        self.sig0: dict[tuple[Any, ...], Sig] = {}

    def _start(self, same: bool, public: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
               first: int, last: int) -> tuple[Facts, tuple[int, tuple[int, int]]]:
        """The window's start (``replay_view``'s walk-backs): the facts before event ``first``, and the top
        card's kind and face before it (``_top_before``)."""
        facts: Facts = (tuple(public["hand_sizes"]), tuple(m["id"] for m in public["missions_in_force"]),
                        public["countdown"] is not None, int(public["response_step"]))
        back: dict[int, Facts] = self.back
        cum = self.cum
        cur = facts
        k = len(events)
        if same and self.facts is not None:
            while k and int(events[k - 1]["n"]) > self.end:
                k -= 1
                cur = back[int(events[k]["n"])] = _back(cur, events[k])
            if cur != self.facts:
                same = False
        if not same or self.facts is None:
            back = self.back = {}
            cum = self.cum = {first - 1: (0, 0)}
            cur = facts
            for e in reversed(events):
                cur = back[int(e["n"])] = _back(cur, e)
            k = 0
        for e in events[k:]:
            n = int(e["n"])
            plays, shuffles = cum[n - 1]
            kind = e["type"]
            cum[n] = (plays + 1, shuffles) if kind in _PLAYS else (plays, shuffles + 1) if kind == "reshuffled" \
                else (plays, shuffles)
        self.facts = facts
        if same:  # what fell out of the window (older entries went at the previous positions)
            for n in range(self.first, first):
                del back[n]
                del cum[n - 1]
        plays = cum[last][0] - cum[first - 1][0]
        top = _UNKNOWN_TOP
        if cum[last][1] == cum[first - 1][1]:  # no reshuffle in the window
            disc = public["discard"]
            i = len(disc) - 1 - plays
            if i >= 0:
                kind_face = getattr(disc, "kind_face", None)  # the direct path's pile: no entry built
                if kind_face is not None:
                    top = kind_face(i)
                else:
                    d = disc[i]
                    top = TYPE_KIND[TYPE_BY_NAME[d["card"]]], face(d["face"])
        return back[first], top

    def log(self, g: BlastOffGame, owner: object, public: Mapping[str, Any]) -> PublicLog:
        """``replay_view(g, public)`` (the settled replay of the public facts of this position), as far as
        the features read it (see ``signature``)."""
        events: Sequence[Mapping[str, Any]] = public["recent"]
        first, last = int(events[0]["n"]), int(events[-1]["n"])
        # the same game, moved on, its window overlapping (or just after) the chain's
        same = (owner is self.owner and self.chain is not None and last >= self.end
                and self.first <= first <= self.end + 1)
        start, top = self._start(same, public, events, first, last)
        now = float(public["now"])
        seen = (first, last, start, top, now)
        if same and self.last_out is not None and self.last_out[0] == seen:
            return self.last_out[1]  # nothing new since the last position: the same replay
        chain = self.chain
        sigs = self.sigs if same else {}
        # a fresh log's state is made of the start, the top card, the timing and the authored missions
        made_of = (start, top, public.get("timing"),
                   tuple((m["id"], m.get("source")) for m in public.get("missions") or ()))
        fresh: PublicLog | None = None
        sig0 = self.sig0.get(made_of)
        if sig0 is None:
            fresh = _fresh(g, public, start, top, events)
            sig0 = signature(fresh)
            if len(self.sig0) > 10_000:
                self.sig0.clear()
            self.sig0[made_of] = sig0
        joined = sigs.get(first - 1) == sig0  # the fresh log is in the chain's state before event ``first``
        i = 0
        if not joined:
            log = fresh if fresh is not None else _fresh(g, public, start, top, events)
            new_sigs: dict[int, Sig] = {first - 1: sig0}
            while i < len(events):
                e = events[i]
                log.feed(e, float(e["t"]))
                n = int(e["n"])
                sig = new_sigs[n] = signature(log)
                i += 1
                if sigs.get(n) == sig:
                    joined = True
                    break
            if joined:
                sigs.update(new_sigs)  # the chain's own signatures before the join are not this window's
            else:
                sigs = new_sigs
        if joined:
            assert chain is not None
            log = chain
            i = self.end - first + 1  # the chain has been fed every event up to ``self.end``
        while i < len(events):
            e = events[i]
            log.feed(e, float(e["t"]))
            sigs[int(e["n"])] = signature(log)
            i += 1
        if same:
            for n in range(self.first - 1, first - 1):
                sigs.pop(n, None)
        self.owner, self.chain, self.first, self.end, self.sigs = owner, log, first, last, sigs
        out = settled_copy(log, now)
        self.last_out = (seen, out)
        return out


def pile_kind_face(st: BlastOffState, i: int) -> tuple[int, tuple[int, int]]:
    """What the tracker reads of the discard pile's entry ``i`` as the view lists it (``e``, card name and
    face): ``TYPE_KIND[TYPE_BY_NAME[e["card"]]]`` and ``records.face(e["face"])``, without building the entry
    (both looked up in a table made of those very functions)."""
    cid = st.disc[i]
    t = st.g.ctype[cid]
    cv = st.wface.get(cid)
    got = _KIND_FACE.get((t, cv))
    if got is None:
        got = _KIND_FACE[(t, cv)] = (TYPE_KIND[TYPE_BY_NAME[TYPE_NAME[t]]], face(_pile_face(st, cid)))
    return got


#: (card type, its chosen face or None) -> (kind, parsed face) of a discard entry, filled as met
_KIND_FACE: dict[tuple[int, tuple[int, int] | None], tuple[int, tuple[int, int]]] = {}
