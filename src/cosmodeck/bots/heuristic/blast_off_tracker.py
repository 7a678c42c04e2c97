"""Follow Blast Off!'s public log (the view's ``recent`` events) and derive violations from it.

BLO-12.10: every violation is derivable from the public log, so a bot can catch on evidence instead
of guessing. The tracker mirrors the engine's mission bookkeeping (``games/blast_off/missions.py``)
from spectator events only, in both timings:

- turn-based (``timing="steps"``, BLO-11, 12.2-12.5): an obligation falls due at the end of the
  ``RESPONSE`` step after its trigger; a violation is catchable in the first ``catch_window_steps``
  RESPONSE steps that start after it arises;
- real time (BLO-10, 12.2, 12.5): an obligation falls due ``obligation_s`` after its trigger (the
  event's game time ``t``), or at its player's next turn action (play, draw, pass) or slap, if that
  comes first; an announcement counts only if it is made strictly before the deadline (the engine
  fires deadlines before an action at the same time). A violation stays catchable until the later
  of ``catch_window_s`` after it arose and the end of the next turn action (the current one
  included when the violation arose in a turn action). The tracker counts completed turn actions
  (``played``/``kept``/``passed``; a ``swap_hands`` choice delays the count) to know that.

An accepted card resolves as in BLO-12.1: the restriction check at the play (or at the declaration
of a Wild in the Blast Off slot), effects, then obligations (including ``hand_size_becomes``) and
the reveal. The tracker therefore stages a play's obligations and creates them at the first event
that is not part of the play's effects (or when asked, unless the play waits for a DECLARE or
CHOOSE decision), with the game time of that moment for their deadline.

Soundness: every obligation and violation the tracker holds also exists in the engine, with the
same deadline and catch window; it may miss some (after a resync, or for missions it cannot know,
e.g. authored before it started following). Since announcements fulfil the oldest matching
obligation, a subset stays a subset, so a catch on a violation derived here is never false. Where
it cannot mirror the engine exactly (an effect fired by ``hand_size_becomes``), it sets ``lost``
and its owner resyncs from the view. ``found`` lists every violation derived, as (seat, mission).
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, LETTERS, TYPE_BY_NAME, TYPE_KIND
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED, EV_SIZE, Mission

# events that belong to a card's resolution before its obligations (12.1 steps 2-5)
_RESOLVING = frozenset(("went_out", "declare_needed", "choose_needed", "effect", "hand", "reshuffled", "timeout"))


def _face(text: str) -> tuple[int, int]:
    col = -1 if text[0] == "-" else LETTERS.index(text[0])
    v = text[1:]
    return col, (BLAST_OFF if v == "BO" else 0 if v == "-" else int(v))


@dataclass(slots=True)
class Obligation:
    """An obligation owed (12.2): real time by ``deadline`` (s); turn-based by the end of RESPONSE ``due``."""

    seat: int
    mission: str
    gesture: bool
    token: str
    expect: str | None
    deadline: float
    due: int


@dataclass(slots=True)
class Violation:
    """A derived violation (12.4) and its catch window (12.5).

    Real time: open while the game time is before ``end`` or fewer than ``need`` turn actions are
    complete (in the tracker's count). Turn-based: open in RESPONSE steps ``start``..``end``.
    """

    key: int
    seat: int
    mission: str
    start: float
    end: float
    need: int
    caught: bool = False


@dataclass(slots=True)
class _Play:
    """A card (or a Draw) being resolved: its obligations wait for the end of its effects."""

    event: int
    actor: int
    kind: int
    col: int
    val: int
    bkind: int
    bcol: int
    bval: int
    in_cd: bool
    before: list[int]
    t: float
    paused: bool = False   # waiting for a DECLARE (Blast Off slot) or a CHOOSE (swap_hands) decision
    choosing: bool = False


class PublicTracker:
    """Follows spectator events only; derives obligations owed and violations as they arise."""

    def __init__(self, g: BlastOffGame, view: dict[str, Any]) -> None:
        self.g = g
        self.rt = view.get("timing", "steps") != "steps"
        o = g.options
        self.obligation_s = float(o["obligation_s"])
        self.window_s = float(o["catch_window_s"])
        self.window_steps = int(o["catch_window_steps"])
        self.by_id: dict[str, Mission] = {m.id: m for m in g.missions}
        for m in view.get("missions") or ():  # authored missions (BLO-9.2), where the view writes them down
            if m.get("source") and m["id"] not in self.by_id:
                self._on_mission_authored({"mission": m["id"], "source": m["source"]}, 0.0)
        self.inforce: list[str] = [m["id"] for m in view["missions_in_force"]]
        self.sizes: list[int] = list(view["hand_sizes"])
        top = view["top"]
        self.face = _face(top["face"])
        self.top_kind = TYPE_KIND[TYPE_BY_NAME[top["card"]]]
        self.in_cd = view.get("countdown") is not None
        self.resp = int(view.get("response_step") or 0)  # turn-based: the last RESPONSE step started
        self.turns = 0  # real time: turn actions completed since the tracker started
        self.now = float(view.get("now") or 0.0)
        self.obls: list[Obligation] = []
        self.viols: list[Violation] = []
        self.found: list[tuple[int, str]] = []
        self.lost = False  # the log went where the tracker cannot follow exactly: resync from a view
        self._play: _Play | None = None
        self._next_key = 0

    # ---- queries ----------------------------------------------------------------------------
    def catchable(self, now: float | None = None, deadline: float | None = None,
                  step: int | None = None) -> list[Violation]:
        """Violations a catch is sure to find open, oldest first.

        Real time: the catch is applied at some time t >= ``now`` (the view's game time) and before
        ``deadline`` (the view's next deadline: the simulator and the server never apply an action
        past a due deadline). It is open at t if fewer turn actions than ``need`` are complete (the
        view's state holds until t), or if ``deadline`` <= its window's end. Turn-based: ``step`` is
        the current RESPONSE step.
        """
        if now is not None:
            self.settle(now)
        out = []
        for v in self.viols:
            if v.caught or not self.sizes[v.seat]:
                continue
            if self.rt:
                if self.turns < v.need or (deadline is not None and deadline <= v.end):
                    out.append(v)
            elif step is not None and v.start <= step <= v.end:
                out.append(v)
        return out

    def owed(self, seat: int) -> list[Obligation]:
        return [o for o in self.obls if o.seat == seat]

    def settle(self, now: float) -> None:
        """The game time is ``now``: finish a resolution that is not waiting, expire due deadlines."""
        if self._play is not None and not self._play.paused:
            self._finish_play()
        if self.rt:
            self._expire_due(now)
            self.now = max(self.now, now)

    # ---- feeding ----------------------------------------------------------------------------
    def feed(self, d: dict[str, Any], t: float | None = None) -> None:
        """One public event (as a spectator sees it); ``t`` (or ``d["t"]``) is its game time."""
        if t is None:
            t = float(d.get("t", self.now))
        kind = d["type"]
        p = self._play
        if p is not None and not p.paused and kind not in _RESOLVING and not (
                kind == "drew" and d.get("reason") == "effect"):
            self._finish_play()
        if self.rt:
            self._expire_due(t)
        self.now = max(self.now, t)
        handler = getattr(self, "_on_" + kind, None)
        if handler is not None:
            handler(d, t)

    def _on_played(self, d: dict[str, Any], t: float) -> None:
        seat = d["seat"]
        if self.rt and not d.get("drawn"):
            self._expire_seat(seat, t, 2)  # 12.2: a turn action ends the player's obligations
        self._start_play(d, t, in_cd=False)
        self.turns += 1  # the turn action completes with its resolution (a CHOOSE pause undoes this)

    def _on_slap_accepted(self, d: dict[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 1)
        self._start_play(d, t, in_cd=True)

    def _on_slap_bounced(self, d: dict[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 1)

    def _on_passed(self, d: dict[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 2)
        self.turns += 1

    def _on_kept(self, d: dict[str, Any], t: float) -> None:
        self.turns += 1

    def _on_drew(self, d: dict[str, Any], t: float) -> None:
        seat, reason = d["seat"], d.get("reason")
        before = list(self.sizes)
        if reason == "draw" and self.rt:
            self._expire_seat(seat, t, 2)
        self.sizes[seat] += d["count"]
        if reason == "draw":
            self._play = _Play(EV_DRAW, seat, -1, -1, 0, -1, -1, 0, False, before, t)
        elif reason != "effect":  # a penalty draw (caught, false catch, referee): hand_size_becomes
            self._size_triggers(before, self.in_cd, t)

    def _on_hand(self, d: dict[str, Any], t: float) -> None:
        self.sizes[d["seat"]] = d["count"]

    def _on_declared(self, d: dict[str, Any], t: float) -> None:
        self.face = _face(d["face"])
        p = self._play
        if p is not None and p.paused and not p.choosing:  # a Wild in the Blast Off slot (10.7)
            p.col, p.val = self.face
            p.paused = False
            p.t = t
            self._restriction(p, t)

    def _on_choose_needed(self, d: dict[str, Any], t: float) -> None:
        p = self._play
        if p is not None:
            p.paused = p.choosing = True
            self.turns -= 1

    def _on_effect(self, d: dict[str, Any], t: float) -> None:
        m = self.by_id.get(d.get("mission", ""))
        if m is not None and m.event == EV_SIZE:
            self.lost = True  # an effect inside the hand_size_becomes triggers: not mirrored exactly
        p = self._play
        if p is not None and p.choosing and d.get("effect") == "swap_hands":
            p.paused = p.choosing = False
            p.t = t
            self.turns += 1

    def _on_went_out(self, d: dict[str, Any], t: float) -> None:
        seat = d["seat"]
        self.sizes[seat] = 0
        self.obls = [o for o in self.obls if o.seat != seat]
        self.viols = [v for v in self.viols if v.seat != seat]

    def _on_game_over(self, d: dict[str, Any], t: float) -> None:
        self.obls, self.viols, self._play = [], [], None

    def _on_mission_authored(self, d: dict[str, Any], t: float) -> None:
        with suppress(CosmodeckError, KeyError):  # an unknown mission: nothing is derived from it
            self.by_id[d["mission"]] = replace(self.g.authored(d["source"]), id=d["mission"])

    def _on_mission_revealed(self, d: dict[str, Any], t: float) -> None:
        gone = set(d.get("replaced") or ())
        self.inforce = [i for i in self.inforce if i not in gone] + [d["mission"]]

    def _on_countdown_started(self, d: dict[str, Any], t: float) -> None:
        self.in_cd = True  # (the Countdown card's turn action was counted at its "played" event)

    def _on_countdown_ended(self, d: dict[str, Any], t: float) -> None:
        self.in_cd = False

    def _on_announced(self, d: dict[str, Any], t: float) -> None:
        self._fulfil(d["seat"], False, d["token"], d.get("arg"))

    def _on_gestured(self, d: dict[str, Any], t: float) -> None:
        self._fulfil(d["seat"], True, d["token"], None)

    def _on_caught(self, d: dict[str, Any], t: float) -> None:
        for v in self.viols:
            if v.seat == d["target"] and v.mission == d["mission"] and not v.caught and self._open(v, t):
                v.caught = True
                break

    def _on_response_started(self, d: dict[str, Any], t: float) -> None:
        self.resp = int(d["step"])

    def _on_response_ended(self, d: dict[str, Any], t: float) -> None:
        step = int(d["step"])
        due = [o for o in self.obls if o.due <= step]
        if due:
            self.obls = [o for o in self.obls if o.due > step]
            for o in due:
                self._violation(o.seat, o.mission, float(step + 1), float(step + self.window_steps), 0)
        self.viols = [v for v in self.viols if v.end > step]

    # ---- the engine's rules, mirrored -------------------------------------------------------
    def _missions(self) -> list[Mission]:
        return [m for m in (self.by_id.get(i) for i in self.inforce) if m is not None]

    def _start_play(self, d: dict[str, Any], t: float, in_cd: bool) -> None:
        kind = TYPE_KIND[TYPE_BY_NAME[d["card"]]]
        col, val = _face(d["face"])
        bcol, bval = self.face
        p = _Play(EV_PLAYED, d["seat"], kind, col, val, self.top_kind, bcol, bval, in_cd, list(self.sizes), t)
        self.face, self.top_kind = (col, val), kind
        self.sizes[d["seat"]] = d["left"]
        self._play = p
        if in_cd and d["card"] == "W" and val == BLAST_OFF and col < 0:
            p.paused = True  # the Blast Off slot waits for the Wild's declaration (10.7)
            return
        self._restriction(p, t)

    def _restriction(self, p: _Play, t: float) -> None:
        """12.1 step 4: a play breaking a restriction in force stands and is a violation."""
        if not self.sizes[p.actor]:
            return
        for m in self._missions():
            if m.kind == "restriction" and m.applies(p.in_cd):
                assert m.forbid_card is not None and m.forbid_onto is not None
                if m.forbid_card.match(p.kind, p.col, p.val) and m.forbid_onto.match(p.bkind, p.bcol, p.bval):
                    if self.rt:
                        self._violation(p.actor, m.id, t, t + self.window_s, self.turns + (1 if p.in_cd else 2))
                    else:
                        self._violation(p.actor, m.id, float(self.resp + 1),
                                        float(self.resp + self.window_steps), 0)
                    return

    def _finish_play(self) -> None:
        """12.1 step 6: the obligations of the resolved event, then ``hand_size_becomes``."""
        p = self._play
        assert p is not None
        self._play = None
        for m in self._missions():
            if m.kind != "obligation" or m.event != p.event or not m.applies(p.in_cd):
                continue
            if p.event == EV_PLAYED:
                assert m.cond is not None
                if not m.cond.match(p.kind, p.col, p.val, p.bcol, p.bval):
                    continue
            self._oblige(m, p.actor, p.col, p.t)
        self._size_triggers(p.before, p.in_cd, p.t)

    def _size_triggers(self, before: list[int], in_cd: bool, t: float) -> None:
        missions = [m for m in self._missions() if m.event == EV_SIZE and m.applies(in_cd)]
        if not missions:
            return
        for s, n in enumerate(self.sizes):
            if n and n != before[s]:
                for m in missions:
                    if m.n == n:
                        if m.kind == "obligation":
                            self._oblige(m, s, -1, t)
                        elif m.kind == "effect":
                            self.lost = True

    def _oblige(self, m: Mission, actor: int, col: int, t: float) -> None:
        if m.arg == "hand_size":
            expect: str | None = str(self.sizes[actor])
        elif m.arg == "colour":
            if col < 0:
                return
            expect = COLOURS[col]
        else:
            expect = None
        seats = [s for s, n in enumerate(self.sizes) if n and s != actor] if m.who_others else (
            [actor] if self.sizes[actor] else [])
        deadline = t + self.obligation_s if self.rt else -1.0
        self.obls += [Obligation(s, m.id, m.gesture, m.token, expect, deadline, self.resp + 1) for s in seats]

    def _fulfil(self, seat: int, gesture: bool, token: str, arg: str | None) -> None:
        for i, o in enumerate(self.obls):
            if o.seat == seat and o.gesture == gesture and o.token == token and o.expect == arg:
                del self.obls[i]
                return

    def _expire_due(self, t: float) -> None:
        """Real time: obligations whose deadline has come (<= t) become violations, earliest first."""
        while True:
            due = [o.deadline for o in self.obls if 0 <= o.deadline <= t]
            if not due:
                break
            d = min(due)
            keep: list[Obligation] = []
            for o in self.obls:
                if 0 <= o.deadline <= d:
                    self._violation(o.seat, o.mission, d, d + self.window_s, self.turns + 1)
                else:
                    keep.append(o)
            self.obls = keep
        self.viols = [v for v in self.viols if self._open(v, t)]

    def _expire_seat(self, seat: int, t: float, turns: int) -> None:
        """Real time: the player's turn action (``turns`` = 2) or slap (1) ends their obligations."""
        keep: list[Obligation] = []
        for o in self.obls:
            if o.seat == seat:
                self._violation(seat, o.mission, t, t + self.window_s, self.turns + turns)
            else:
                keep.append(o)
        self.obls = keep

    def _violation(self, seat: int, mission: str, start: float, end: float, need: int) -> None:
        self.viols.append(Violation(self._next_key, seat, mission, start, end, need))
        self._next_key += 1
        self.found.append((seat, mission))

    def _open(self, v: Violation, t: float) -> bool:
        if self.rt:
            return t < v.end or self.turns < v.need
        return v.start <= self.resp <= v.end
