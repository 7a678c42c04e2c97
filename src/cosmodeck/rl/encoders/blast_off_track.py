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
``now`` left out (each event's own time is used by ``feed``, and the features use the view's).
``tests/rl/test_direct.py`` proves the features equal to the full replay's on thousands of positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cosmodeck.bots.blast_off_log import Play, PublicLog
from cosmodeck.bots.blast_off_log.start import (
    _countdown_and_step_before,
    _inforce_before,
    _sizes_before,
    _top_before,
)
from cosmodeck.games.blast_off.game import BlastOffGame

Sig = tuple[Any, ...]


def _play_sig(p: Play | None, turns: int | None) -> Sig | None:
    if p is None:
        return None
    return (p.event, p.actor, p.kind, p.col, p.val, p.bkind, p.bcol, p.bval, p.in_cd, p.blast_off,
            tuple(p.before), p.t, None if turns is None else p.turns - turns, p.paused, p.choosing, p.late)


def signature(log: PublicLog) -> Sig:
    """Everything of ``log`` that its future (and the features) depends on, turn count relative (real
    time; turn-based, the count is never read: ``need`` is 0 and a play's count unused)."""
    t = log.turns if log.rt else 0
    pt = t if log.rt else None
    return (tuple(log.sizes), tuple(log.inforce), log.face, log.top_kind, log.in_cd, log.resp,
            tuple((o.seat, o.mission, o.gesture, o.token, o.expect, o.deadline, o.due) for o in log.obls),
            tuple((v.seat, v.mission, v.start, v.end, v.need - t, v.caught) for v in log.viols),
            _play_sig(log.pending, pt), _play_sig(log.last, pt), log.last_choose, log.extra, log.rthen,
            log._then, log.lost, tuple(log.by_id))


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


class LogTrack:
    """The chain of one table (see the module docstring); ``log(game, state, public)`` per position."""

    __slots__ = ("chain", "end", "first", "owner", "sigs")

    def __init__(self) -> None:
        self.owner: object | None = None  # the state (one game) the chain follows
        self.chain: PublicLog | None = None
        self.first = -1  # sequence number of the chain's first event
        self.end = -1  # sequence number of the last event fed to the chain
        self.sigs: dict[int, Sig] = {}  # event number -> the chain's signature after feeding it

    def log(self, g: BlastOffGame, owner: object, public: Mapping[str, Any]) -> PublicLog:
        """``replay_view(g, public)`` (the settled replay of the public facts of this position)."""
        events: Sequence[Mapping[str, Any]] = public["recent"]
        first, last = int(events[0]["n"]), int(events[-1]["n"])
        fresh = PublicLog(g, public)
        fresh.sizes = _sizes_before(public, events)
        fresh.inforce = _inforce_before(public, events)
        fresh.top_kind, fresh.face = _top_before(public, events)
        fresh.in_cd, fresh.resp = _countdown_and_step_before(public, events)
        fresh.now = float(events[0]["t"])
        chain, sigs = self.chain, self.sigs
        if owner is not self.owner or chain is None or last < self.end or first < self.first:
            sigs = {}
        sig0 = signature(fresh)
        new_sigs: dict[int, Sig] = {first - 1: sig0}
        joined = sigs.get(first - 1) == sig0  # the fresh log is in the chain's state before event ``first``
        log = fresh
        i = 0
        if not joined:
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
            assert chain is not None
            for n in range(first + i, self.end + 1):
                new_sigs[n] = sigs[n]
            log = chain
            i = self.end - first + 1  # the chain has been fed every event up to ``self.end``
        while i < len(events):
            e = events[i]
            log.feed(e, float(e["t"]))
            new_sigs[int(e["n"])] = signature(log)
            i += 1
        self.owner, self.chain, self.first, self.end, self.sigs = owner, log, first, last, new_sigs
        return settled_copy(log, float(public["now"]))
