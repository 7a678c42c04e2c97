"""``PublicLog``: Blast Off!'s mission bookkeeping followed event by event (see the package doc)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import Any, ClassVar

from cosmodeck.bots.blast_off_log.records import Obligation, Play, Violation, face
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, TYPE_BY_NAME, TYPE_KIND
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED, EV_SIZE, Mission
from cosmodeck.games.blast_off.phases import CD_END, CD_VALUE, NEXT, START_CD

# events inside a card's resolution, before its obligations (12.1 steps 2-5), besides the draws it causes
_INSIDE = frozenset(("went_out", "declare_needed", "choose_needed", "effect", "hand", "reshuffled", "timeout",
                     "penalized", "declared"))
_RESUME = frozenset(("declared", "effect", "hand", "timeout"))  # a resolution carries on: its time


class PublicLog:
    """Follows spectator events only; derives obligations owed and violations as they arise."""

    _ON: ClassVar[dict[Any, Any]] = {}  # event kind -> the class's ``_on_KIND`` method (set for each class, below)

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._ON = _handlers(cls)

    def __init__(self, g: BlastOffGame, view: Mapping[str, Any]) -> None:
        self.g = g
        self.rt = view.get("timing", "steps") != "steps"
        o = g.options
        self.referee = g.referee
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
        self.face = face(top["face"])
        self.top_kind = TYPE_KIND[TYPE_BY_NAME[top["card"]]]
        self.in_cd = view.get("countdown") is not None
        self.resp = int(view.get("response_step") or 0)  # turn-based: the last RESPONSE step started
        self.turns = 0  # real time: turn actions completed since the replay started
        self.now = float(view.get("now") or 0.0)
        self.obls: list[Obligation] = []
        self.viols: list[Violation] = []
        self.found: list[tuple[int, str]] = []
        self.lost = False  # the log went where the replay cannot follow exactly: resync from a view
        self.pending: Play | None = None  # a resolution not yet at its obligations
        self.last: Play | None = None  # the last resolution that reached them
        self.last_choose = ""  # mission id of the last choose_needed
        self.extra = -1  # a pending extra turn (effect ``extra_turn``, or a two-player ``reverse``)
        self.rthen: str | None = None  # what the last RESPONSE step leads to (``rules_play`` continuations)
        self._then = ""
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

    def is_open(self, v: Violation, t: float | None = None) -> bool:
        """Open now (real time: at game time ``t``, default the replay's), as ``missions.is_open``."""
        if self.rt:
            return (self.now if t is None else t) < v.end or self.turns < v.need
        return v.start <= self.resp <= v.end

    def mission(self, mid: str) -> Mission | None:
        return self.by_id.get(mid)

    def effects_of(self, p: Play) -> list[Mission]:
        """Effects in force triggered by the card of ``p``, in reveal order (``missions.matching``)."""
        return self._matching(p, "effect")

    def settle(self, now: float) -> None:
        """The game time is ``now``: finish a resolution that is not waiting, expire due deadlines."""
        p = self.pending
        if p is not None:
            self._late_restriction(p, "")
            if not p.paused:
                self._finish_play()
        if self.rt:
            self._expire_due(now)
            self.now = max(self.now, now)

    # ---- feeding ----------------------------------------------------------------------------
    def follow(self, recent: Sequence[Mapping[str, Any]], seen: int, now: float) -> int:
        """Feed the events of a view's ``recent`` numbered after ``seen`` (each at its time ``t``), then settle
        at ``now``; the number of the last event fed (``seen`` when none). The events are numbered one by
        one (``n``): the first unseen one is found by its number, else every event is looked at."""
        start = seen + 1 - recent[0]["n"] if recent else 0
        if not 0 <= start < len(recent) or recent[start]["n"] != seen + 1:
            start = 0
        for e in recent[start:] if start else recent:
            n = e["n"]
            if n > seen:
                self.feed(e, float(e["t"]))
                seen = n
        self.settle(now)
        return seen

    def feed(self, d: Mapping[str, Any], t: float | None = None) -> None:
        """One public event (as a spectator sees it); ``t`` (or ``d["t"]``) is its game time."""
        if t is None:
            t = float(d.get("t", self.now))
        kind = d["type"]
        p = self.pending
        if p is not None:
            if p.late:
                self._late_restriction(p, kind)
            if not p.paused and self._ends(p, d, kind, t):
                self._finish_play()
            elif kind in _RESUME:
                p.t = t
        if self.rt:
            self._expire_due(t)
        self.now = max(self.now, t)
        handler = self._ON.get(kind)  # _on_KIND (none: an event the replay does not follow)
        if handler is not None:
            handler(self, d, t)

    def _ends(self, p: Play, d: Mapping[str, Any], kind: str, t: float) -> bool:
        """Whether event ``d`` comes after the (unpaused) resolution ``p`` reached its obligations."""
        if self.rt and t > p.t:
            return True  # a resolution happens within one instant of game time
        if kind == "drew":
            return d.get("reason") == "draw"  # an effect's or a penalty's draw is part of it
        return kind not in _INSIDE

    def _on_played(self, d: Mapping[str, Any], t: float) -> None:
        seat = d["seat"]
        if self.rt and not d.get("drawn"):
            self._expire_seat(seat, t, 2)  # 12.2: a turn action ends the player's obligations
        self._then = START_CD if d["card"] == "CD" else NEXT
        self._start_play(d, t, in_cd=False)
        self.turns += 1  # the turn action completes with its resolution (a CHOOSE pause undoes this)

    def _on_slap_accepted(self, d: Mapping[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 1)
        self._then = CD_END if d.get("value") == "BO" else CD_VALUE
        self._start_play(d, t, in_cd=True)

    def _on_slap_bounced(self, d: Mapping[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 1)

    def _on_passed(self, d: Mapping[str, Any], t: float) -> None:
        if self.rt:
            self._expire_seat(d["seat"], t, 2)
        self._then = NEXT
        self.turns += 1

    def _on_kept(self, d: Mapping[str, Any], t: float) -> None:
        self._then = NEXT
        self.turns += 1

    def _on_drew(self, d: Mapping[str, Any], t: float) -> None:
        seat, reason = d["seat"], d.get("reason")
        before = list(self.sizes)
        if reason == "draw" and self.rt:
            self._expire_seat(seat, t, 2)
        self.sizes[seat] += d["count"]
        if reason == "draw":
            self.pending = Play(EV_DRAW, seat, -1, -1, 0, -1, -1, 0, False, False, before, t, self.turns)
        elif reason != "effect":  # a penalty draw (caught, false catch, referee): hand_size_becomes
            self._size_triggers(before, self.in_cd, t)

    def _on_hand(self, d: Mapping[str, Any], t: float) -> None:
        self.sizes[d["seat"]] = d["count"]

    def _on_declared(self, d: Mapping[str, Any], t: float) -> None:
        self.face = face(d["face"])
        p = self.pending
        if p is not None and p.paused and not p.choosing:  # a Wild in the Blast Off slot (10.7)
            p.col, p.val = self.face
            p.paused = False
            p.t = t
            self._restriction(p, t)

    def _on_choose_needed(self, d: Mapping[str, Any], t: float) -> None:
        self.last_choose = str(d.get("mission", ""))
        p = self.pending
        if p is not None:
            p.paused = p.choosing = True
            self.turns -= 1

    def _on_effect(self, d: Mapping[str, Any], t: float) -> None:
        m = self.by_id.get(d.get("mission", ""))
        if m is not None and m.event == EV_SIZE:
            self.lost = True  # an effect inside the hand_size_becomes triggers: not mirrored exactly
        if (d.get("effect"), d.get("result")) in (("extra_turn", None), ("reverse", "play_again")):
            self.extra = d["seat"]
        p = self.pending
        if p is not None and p.choosing and d.get("effect") == "swap_hands":
            p.paused = p.choosing = False
            p.t = t
            self.turns += 1

    def _on_went_out(self, d: Mapping[str, Any], t: float) -> None:
        seat = d["seat"]
        self.sizes[seat] = 0
        self.obls = [o for o in self.obls if o.seat != seat]
        self.viols = [v for v in self.viols if v.seat != seat]
        if self.extra == seat:
            self.extra = -1

    def _on_game_over(self, d: Mapping[str, Any], t: float) -> None:
        self.obls, self.viols, self.pending = [], [], None

    def _on_turn(self, d: Mapping[str, Any], t: float) -> None:
        self.extra = -1

    def _on_mission_authored(self, d: Mapping[str, Any], t: float) -> None:
        with suppress(CosmodeckError, KeyError):  # an unknown mission: nothing is derived from it
            self.by_id[d["mission"]] = replace(self.g.authored(d["source"]), id=d["mission"])

    def _on_mission_revealed(self, d: Mapping[str, Any], t: float) -> None:
        gone = set(d.get("replaced") or ())
        self.inforce = [i for i in self.inforce if i not in gone] + [d["mission"]]

    def _on_countdown_started(self, d: Mapping[str, Any], t: float) -> None:
        self.in_cd = True  # (the Countdown card's turn action was counted at its "played" event)
        self.extra = -1

    def _on_countdown_ended(self, d: Mapping[str, Any], t: float) -> None:
        self.in_cd = False

    def _on_announced(self, d: Mapping[str, Any], t: float) -> None:
        self._fulfil(d["seat"], False, d["token"], d.get("arg"))

    def _on_gestured(self, d: Mapping[str, Any], t: float) -> None:
        self._fulfil(d["seat"], True, d["token"], None)

    def _on_caught(self, d: Mapping[str, Any], t: float) -> None:
        for v in self.viols:
            if v.seat == d["target"] and v.mission == d["mission"] and not v.caught and self.is_open(v, t):
                v.caught = True
                break

    def _on_response_started(self, d: Mapping[str, Any], t: float) -> None:
        self.resp = int(d["step"])
        self.rthen = self._then

    def _on_response_ended(self, d: Mapping[str, Any], t: float) -> None:
        step = int(d["step"])
        due = [o for o in self.obls if o.due <= step]
        if due:
            self.obls = [o for o in self.obls if o.due > step]
            for o in due:
                self._violation(o.seat, o.mission, float(step + 1), float(step + self.window_steps), 0)
        self.viols = [v for v in self.viols if v.end > step]

    # ---- the engine's rules, mirrored -------------------------------------------------------
    def _missions(self) -> list[Mission]:
        inforce = self.inforce
        if not inforce:
            return []
        return [m for m in map(self.by_id.get, inforce) if m is not None]

    def _start_play(self, d: Mapping[str, Any], t: float, in_cd: bool) -> None:
        kind = TYPE_KIND[TYPE_BY_NAME[d["card"]]]
        col, val = face(d["face"])
        bcol, bval = self.face
        p = Play(EV_PLAYED, d["seat"], kind, col, val, self.top_kind, bcol, bval, in_cd,
                 in_cd and d.get("value") == "BO", list(self.sizes), t, self.turns)
        self.face, self.top_kind = (col, val), kind
        self.sizes[d["seat"]] = d["left"]
        self.pending = p
        if in_cd and d["card"] == "W" and val == BLAST_OFF and col < 0:
            p.paused = True  # the Blast Off slot waits for the Wild's declaration (10.7)
        elif not d["left"]:
            p.late = True  # going out comes first (12.1 step 2); the game may end there
        else:
            self._restriction(p, t)

    def _late_restriction(self, p: Play, kind: str) -> None:
        if p.late and kind != "went_out":
            p.late = False
            if kind != "game_over":
                self._restriction(p, p.t)

    def _restriction(self, p: Play, t: float) -> None:
        """12.1 step 4: a play breaking a restriction in force stands and is a violation."""
        if p.bkind < 0:
            return  # the card beneath is unknown
        for m in self._missions():
            if m.kind == "restriction" and m.applies(p.in_cd):
                assert m.forbid_card is not None and m.forbid_onto is not None
                if m.forbid_card.match(p.kind, p.col, p.val) and m.forbid_onto.match(p.bkind, p.bcol, p.bval):
                    if self.rt:
                        self._violation(p.actor, m.id, t, t + self.window_s, p.turns + (1 if p.in_cd else 2))
                    else:
                        self._violation(p.actor, m.id, float(self.resp + 1),
                                        float(self.resp + self.window_steps), 0)
                    return

    def _matching(self, p: Play, kind: str) -> list[Mission]:
        out = []
        for m in self._missions():
            if m.kind != kind or m.event != p.event or not m.applies(p.in_cd):
                continue
            if p.event == EV_PLAYED:
                assert m.cond is not None
                if not m.cond.match(p.kind, p.col, p.val, p.bcol, p.bval):
                    continue
            out.append(m)
        return out

    def _finish_play(self) -> None:
        """12.1 step 6: the obligations of the resolved event, then ``hand_size_becomes``."""
        p = self.pending
        assert p is not None
        self.pending = None
        self.last = p
        for m in self._matching(p, "obligation"):
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
        self.viols = [v for v in self.viols if self.is_open(v, t)]

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
        if self.referee:
            return  # 12.7: drawn for publicly at once (``penalized``), nothing stays open
        self.viols.append(Violation(self._next_key, seat, mission, start, end, need))
        self._next_key += 1
        self.found.append((seat, mission))




def _play_values(p: Play | None) -> tuple[Any, ...] | None:
    if p is None:
        return None
    return (p.event, p.actor, p.kind, p.col, p.val, p.bkind, p.bcol, p.bval, p.in_cd, p.blast_off, list(p.before),
            p.t, p.turns, p.paused, p.choosing, p.late)


def snapshot(log: PublicLog) -> tuple[Any, ...]:
    """Everything ``log`` holds, as plain values (with the Python types of the times and seats), to compare
    two logs (``replay_fast.FastPublicLog.snapshot`` gives the same for the compiled copy)."""
    return snapshot_values(log.rt, log.sizes, log.inforce, log.face, log.top_kind, log.in_cd, log.resp, log.turns,
                           log.now, log.obls, log.viols, log.found, log.lost, _play_values(log.pending),
                           _play_values(log.last), log.last_choose, log.extra, log.rthen, log._then,
                           log._next_key, log.by_id)


def snapshot_values(rt: bool, sizes: list[int], inforce: list[str], fc: tuple[int, int], top_kind: int, in_cd: bool,
                    resp: int, turns: int, now: float, obls: list[Obligation], viols: list[Violation],
                    found: list[tuple[int, str]], lost: bool, pending: Any, last: Any, last_choose: str, extra: int,
                    rthen: str | None, then: str, next_key: int, by_id: dict[str, Mission]) -> tuple[Any, ...]:
    return (bool(rt), list(sizes), list(inforce), tuple(fc), top_kind, bool(in_cd), resp, turns, type(now), now,
            [(type(o.seat), o.seat, o.mission, o.gesture, o.token, o.expect, type(o.deadline), o.deadline, o.due)
             for o in obls],
            [(v.key, v.seat, v.mission, type(v.start), v.start, type(v.end), v.end, v.need, v.caught) for v in viols],
            list(found), bool(lost), pending, last, last_choose, extra, rthen, then, next_key,
            [(k, by_id[k]) for k in sorted(by_id)])


def _handlers(cls: type) -> dict[Any, Any]:
    """``{kind: getattr(cls, "_on_" + kind)}`` for every ``_on_KIND`` method of ``cls`` (and its bases)."""
    return {name[4:]: getattr(cls, name) for name in dir(cls) if name.startswith("_on_")}


PublicLog._ON = _handlers(PublicLog)
