"""Blast Off! determinization: a full state from one seat's view, secrets re-drawn (BLO-13).

Copied from the view exactly: phase, turn, dealer, direction, the whole discard pile with its
faces (so the Wilds' declarations), the top face, skip marks, placings, passes, the missions
(in force, discarded, revealed; authored ones through their MDL ``source``), the penalty
history, the public log (``recent``), the countdown (rocket, sequence, called value, slots,
who acted, last player, next call), the decision and its deadline, the RESPONSE step number
and who has responded, the seat's own hand, drawn card, pending choice and obligations, and
the cards it knows another seat holds (``known``: the hand it gave by a pass or a swap, minus
what that seat has played since), the result once the game is over.

What the seat cannot see is re-drawn uniformly among the possibilities its view allows:

- the other seats' hands: each keeps the cards the seat knows it holds and gets the rest of its
  public count from the unseen cards (every physical card not in the discard pile, the seat's
  hand or a known hand); the draw pile is what is left, in a random order;
- the card the turn player drew, while another seat waits for its decision (``DRAWN``): a
  DRAWN step only happens when the drawn card leaves a choice (BLO-4.4.2: with
  ``drawn_card_play=must``, a Wild or a playable card that breaks a restriction), so that
  card is drawn uniformly among the unseen cards that leave one;
- the mission deck: its contents are public (the missions neither in force nor discarded),
  its order is shuffled; the game's random generator is drawn afresh;
- turn-based timing (``timing="steps"``): another seat's hidden COUNTDOWN choice (it has
  chosen: the view says so) is uniform among its legal slaps, as the game's own
  ``resample_hidden`` does; its hidden RESPONSE submissions are a model, since they are
  unbounded: each announcement or gesture that would fulfil one of its open obligations, and
  each catch of a seat with an open violation (both derived below), independently with
  probability 1/2.

Public but not in the view, derived from the view's public log (``recent``, BLO-12.10): the
other seats' open obligations (trigger, expected argument, real-time deadline or due step,
fulfilment by a matching announcement, expiry at the deadline, at the player's next turn
action or slap, or at the end of the RESPONSE step) and every seat's open violations (missed
obligations and broken restrictions, their catch windows, which ones were caught), the
pending resolution of a paused card (``DECLARE``, ``CHOOSE``, ``AUTHOR``), the continuation
of a RESPONSE step, a pending extra turn, and the turn counter that bounds real-time catch
windows (only its increments matter; it restarts at 0). The replay follows the engine's own
order (BLO-12.1) and timing (BLO-12.2, 12.5). The seat's own obligations come from its view
itself. The log holds the last 48 public events: an obligation or violation that arose
before them is left out (catching it then looks like a false catch in the search), and a
triggering card whose face beneath is no longer known triggers no ``below``/``onto`` rule.

Left out: what the seat saw happen but the view no longer shows, and behavioural inferences
(a player who drew had no clean match; a player who did not slap may still hold the value):
the draws are uniform given the view. ``known`` of a hand the seat did not give, and of the
seat's own hand, are empty (they constrain no rule). The log is empty and the seed 0.

The state is first rebuilt through the game's own JSON format (``game.load_state``), once
per view object (views are treated as immutable; the search asks many times per view); each
determinization is a clone of it with the secrets re-drawn, so it is a genuine
``BlastOffState``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import Announce, Catch, Gesture, parse_action
from cosmodeck.games.blast_off.cards import (
    BLAST_OFF,
    COLOURS,
    LETTERS,
    TYPE_BY_NAME,
    TYPE_KIND,
    WILD,
)
from cosmodeck.games.blast_off.cards import (
    COUNTDOWN as K_COUNTDOWN,
)
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.legal import drawn_options, legal_slaps
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED, EV_SIZE, Mission
from cosmodeck.games.blast_off.phases import (
    AUTHOR,
    CD_END,
    CD_VALUE,
    CHOOSE,
    COUNTDOWN,
    DECLARE,
    DRAWN,
    FIRST,
    NEXT,
    PHASE_NAMES,
    RESPONSE,
    START_CD,
)
from cosmodeck.games.blast_off.state import BlastOffState

Obl = tuple[int, int, "str | None", float, int]
Viol = tuple[int, int, float, float, int, bool]
Top = tuple[int, int, int]  # kind, colour, value of the card on top (kind -1: unknown)
UNKNOWN_TOP: Top = (-1, -1, 0)

# events inside a card's resolution, before its obligations (BLO-12.1 steps 2-5), or actions
# another seat may take while the resolution waits for a decision (real time)
_INSIDE = frozenset({"effect", "hand", "reshuffled", "penalized", "choose_needed", "timeout", "announced",
                     "gestured", "caught", "catch_failed", "catch_duplicate", "went_out", "declare_needed",
                     "declared"})
_RESUME = frozenset({"declared", "effect", "hand", "timeout"})  # a paused resolution carries on
# other seats' actions: inside a resolution only while it waits for a decision (DECLARE, CHOOSE)
_OTHERS = frozenset({"announced", "gestured", "caught", "catch_failed", "catch_duplicate"})


def _face(text: str) -> tuple[int, int]:
    """``R4`` -> (3, 4); ``GBO`` -> (1, BLAST_OFF); ``-4`` -> (-1, 4); ``--`` -> (-1, 0)."""
    col = -1 if text[0] == "-" else LETTERS.index(text[0])
    return col, _value(text[1:])


def _value(text: str | int) -> int:
    if text == "BO":
        return BLAST_OFF
    return 0 if text == "-" else int(text)


class _Missions:
    """Mission ids of the view to the state's indices (authored ones after the data's, BLO-9.2)."""

    def __init__(self, g: BlastOffGame, view: Mapping[str, Any]) -> None:
        self.g = g
        base = len(g.missions)
        self.customs: list[tuple[str, str]] = [(m["id"], m["source"]) for m in view["missions"] if "source" in m]
        self.index: dict[str, int] = {m.id: i for i, m in enumerate(g.missions)}
        self.index.update({cid: base + k for k, (cid, _src) in enumerate(self.customs)})
        self.custom_missions = [replace(g.authored(src), id=cid) for cid, src in self.customs]

    def mission(self, mi: int) -> Mission:
        ms = self.g.missions
        return ms[mi] if mi < len(ms) else self.custom_missions[mi - len(ms)]


class _Replay:
    """Follows the public log like the engine would, for what the view leaves out (see the module doc)."""

    def __init__(self, g: BlastOffGame, view: Mapping[str, Any], ms: _Missions) -> None:
        self.g = g
        self.ms = ms
        self.rt = view["timing"] == "realtime"
        o = g.options
        self.ooc = bool(o["mission_out_of_control"])
        self.referee = g.referee
        self.players = int(view["players"])
        self.events: list[dict[str, Any]] = [dict(e) for e in view["recent"]]
        self.obls: list[Obl] = []
        self.viols: list[Viol] = []
        self.turns = 0  # real-time turn actions completed within the log (turn_no, up to a constant)
        self.extra = -1
        self.pending: dict[str, Any] | None = None  # a card's resolution not yet at its obligations
        self.last_ctx: dict[str, Any] | None = None  # the last resolution that reached them
        self.last_choose = ""  # mission id of the last choose_needed
        self.rthen: str | None = None
        self._run(view)

    # ---- the state at the start of the log, walking back from the view ----------------------
    def _sizes_after(self, view: Mapping[str, Any]) -> tuple[list[int], list[list[int]]]:
        cur = list(view["hand_sizes"])
        after: list[list[int]] = [[] for _ in self.events]
        for i in range(len(self.events) - 1, -1, -1):
            e = self.events[i]
            after[i] = cur[:]
            t = e["type"]
            if t in ("played", "slap_accepted"):
                cur[e["seat"]] = int(e["left"]) + 1
            elif t == "drew":
                cur[e["seat"]] = max(0, cur[e["seat"]] - int(e["count"]))
            elif t == "effect" and e.get("effect") == "swap_hands" and "target" in e:
                a, b = e["seat"], e["target"]
                cur[a], cur[b] = cur[b], cur[a]
            elif t == "effect" and e.get("effect") == "pass_hands":
                d = int(e["direction"])
                cur = [cur[self._next(cur, s, d)] if cur[s] else 0 for s in range(self.players)]
        return cur, after

    def _next(self, sizes: Sequence[int], frm: int, d: int) -> int:
        n = self.players
        i = frm
        for _ in range(n):
            i = (i + d) % n
            if sizes[i]:
                return i
        return frm

    def _start_inforce(self, view: Mapping[str, Any]) -> list[int]:
        cur = [m["id"] for m in view["missions_in_force"]]
        for e in reversed(self.events):
            if e["type"] == "mission_revealed":
                if self.ooc:
                    if e["mission"] in cur:
                        del cur[len(cur) - 1 - cur[::-1].index(e["mission"])]
                else:
                    cur = list(e["replaced"])
        return [self.ms.index[x] for x in cur if x in self.ms.index]

    def _start_top(self, view: Mapping[str, Any]) -> Top:
        """The top card before the log's first play, from the discard pile (unknown after a reshuffle)."""
        if any(e["type"] == "reshuffled" for e in self.events):
            return UNKNOWN_TOP
        plays = sum(1 for e in self.events if e["type"] in ("played", "slap_accepted"))
        disc = view["discard"]
        i = len(disc) - 1 - plays
        if i < 0:
            return UNKNOWN_TOP
        return (TYPE_KIND[TYPE_BY_NAME[disc[i]["card"]]], *_face(disc[i]["face"]))

    # ---- the forward replay ---------------------------------------------------------------------
    def _run(self, view: Mapping[str, Any]) -> None:
        sizes, after = self._sizes_after(view)
        self.sizes = sizes
        self.inforce = self._start_inforce(view)
        in_cd = view["countdown"] is not None
        resp = int(view["response_step"])
        for e in reversed(self.events):
            if e["type"] == "countdown_started":
                in_cd = False
            elif e["type"] == "countdown_ended":
                in_cd = True
            elif e["type"] == "response_started":
                resp = int(e["step"]) - 1
        self.in_cd = in_cd
        self.resp = resp
        self.top = self._start_top(view)
        prev = ""
        for i, e in enumerate(self.events):
            t = e["type"]
            now = float(e["t"])
            if self.rt:
                self._expire_due(now)
            p = self.pending
            if p is not None and p["stage"] == "effects" and (
                    (t not in _INSIDE and not (t == "drew" and e["reason"] != "draw"))
                    or (t in _OTHERS and not p["paused"])):
                self._flush()  # the resolution went on to its obligations without a word (12.1 step 6)
            if self.pending is not None and t in _RESUME and self.pending["stage"] == "effects":
                self.pending["t6"] = now
            seat = e.get("seat", -1)
            if t in ("played", "slap_accepted"):
                slap = t == "slap_accepted"
                if self.rt and (slap or not e["drawn"]):
                    self._expire_seat(seat, now, during_turn=not slap)
                kind = TYPE_KIND[TYPE_BY_NAME[e["card"]]]
                col, val = _face(e["face"])
                before = self.sizes
                bk, bc, bv = self.top
                self.top = (kind, col, val)
                self.sizes = after[i]
                bo = slap and e.get("value") == "BO"
                ctx: dict[str, Any] = {
                    "ev": EV_PLAYED, "a": seat, "k": kind, "col": col, "val": val, "bk": bk, "bc": bc, "bv": bv,
                    "sz": before, "cd": slap, "bo": bo, "t6": now, "paused": False,
                    "then": (CD_END if bo else CD_VALUE) if slap else (START_CD if e["card"] == "CD" else NEXT),
                    "stage": "declare" if slap and kind == WILD and e["face"] == "-BO" else "effects"}
                ctx["paused"] = ctx["stage"] == "declare"
                self.pending = ctx
                if ctx["stage"] == "effects":
                    self._restriction(ctx, now)
            elif t == "declared":
                col, val = _face(e["face"])
                self.top = (WILD, col, val)
                p = self.pending
                if p is not None and p["stage"] == "declare":
                    p["col"], p["val"], p["stage"], p["t6"] = col, val, "effects", now
                    self._restriction(p, now)
            elif t == "drew":
                before = self.sizes
                self.sizes = after[i]
                if e["reason"] == "draw":
                    if self.rt:
                        self._expire_seat(seat, now, during_turn=True)
                    self.pending = {"ev": EV_DRAW, "a": seat, "k": -1, "col": -1, "val": 0, "bk": -1, "bc": -1,
                                    "bv": 0, "sz": before, "cd": False, "bo": False, "t6": now, "then": NEXT,
                                    "stage": "effects", "paused": False}
                elif e["reason"] in ("caught", "penalty", "false_catch"):
                    self._size_triggers(before, self.in_cd, now)
            elif t == "passed":
                if self.rt:
                    self._expire_seat(seat, now, during_turn=True)
            elif t == "slap_bounced":
                if self.rt:
                    self._expire_seat(seat, now, during_turn=False)
            elif t in ("announced", "gestured"):
                self._fulfil(seat, t == "gestured", e["token"], e.get("arg"))
            elif t == "caught":
                self._caught(int(e["target"]), e["mission"], now)
                if self.rt:
                    self._prune(now)
            elif t in ("catch_failed", "catch_duplicate"):
                if self.rt:
                    self._prune(now)
            elif t == "went_out":
                self.obls = [x for x in self.obls if x[0] != seat]
                self.viols = [x for x in self.viols if x[0] != seat]
                if self.extra == seat:
                    self.extra = -1
                self.sizes = after[i]
            elif t == "turn":
                if prev not in ("countdown_ended", "declared"):  # not after a countdown, not the first turn
                    self._turn_done(now)
                self.extra = -1
            elif t == "countdown_started":
                self._turn_done(now)
                self.in_cd = True
                self.extra = -1
            elif t == "countdown_ended":
                self.in_cd = False
            elif t == "mission_revealed":
                mi = self.ms.index.get(e["mission"], -1)
                if mi >= 0:
                    self.inforce = [*self.inforce, mi] if self.ooc else [mi]
            elif t == "response_started":
                self.resp = int(e["step"])
                self.rthen = self._continuation(i)
            elif t == "response_ended":
                self._expire_steps()
            elif t == "effect":
                if (e.get("effect"), e.get("result")) in (("extra_turn", None), ("reverse", "play_again")):
                    self.extra = seat
                self.sizes = after[i]
            elif t == "hand":
                self.sizes = after[i]
            elif t == "choose_needed":
                self.last_choose = str(e.get("mission", ""))
                if self.pending is not None:
                    self.pending["paused"] = True
            elif t == "game_over":
                self.obls, self.viols = [], []
            if t != "turn_skipped":
                prev = t
        self.sizes = list(view["hand_sizes"])
        if self.rt:
            self._expire_due(float(view["now"]))
        if self.pending is not None and self.pending["stage"] == "effects" and view["phase"] != "CHOOSE":
            self._flush()

    def _continuation(self, i: int) -> str:
        """What a RESPONSE step leads to (``rthen``): the resolution that started it."""
        for e in reversed(self.events[:i]):
            t = e["type"]
            if t == "slap_accepted":
                return CD_END if e.get("value") == "BO" else CD_VALUE
            if t == "played":
                return START_CD if e["card"] == "CD" else NEXT
            if t in ("kept", "passed"):
                return NEXT
        return ""

    # ---- the engine's rules, on the replayed quantities (missions.py) -------------------------
    def _violation(self, seat: int, mi: int, now: float, during_turn: bool) -> None:
        if self.referee:
            return  # 12.7: drawn publicly at once, nothing stays open
        o = self.g.options
        if self.rt:
            self.viols.append((seat, mi, now, now + o["catch_window_s"], self.turns + (2 if during_turn else 1), False))
        else:
            start = self.resp + 1
            self.viols.append((seat, mi, float(start), float(start + o["catch_window_steps"] - 1), 0, False))

    def _restriction(self, ctx: dict[str, Any], now: float) -> None:
        if ctx["ev"] != EV_PLAYED or ctx["bk"] < 0:
            return
        for mi in self.inforce:
            m = self.ms.mission(mi)
            if m.kind == "restriction" and m.applies(ctx["cd"]):
                assert m.forbid_card is not None and m.forbid_onto is not None
                if m.forbid_card.match(ctx["k"], ctx["col"], ctx["val"]) and m.forbid_onto.match(
                        ctx["bk"], ctx["bc"], ctx["bv"]):
                    self._violation(ctx["a"], mi, now, during_turn=not ctx["cd"])
                    return

    def _oblige(self, mi: int, actor: int, col: int, now: float) -> None:
        m = self.ms.mission(mi)
        if m.arg == "hand_size":
            expect: str | None = str(self.sizes[actor])
        elif m.arg == "colour":
            if col < 0:
                return
            expect = COLOURS[col]
        else:
            expect = None
        seats = [s for s in range(self.players) if self.sizes[s] and s != actor] if m.who_others else (
            [actor] if self.sizes[actor] else [])
        deadline = now + self.g.options["obligation_s"] if self.rt else -1.0
        for s in seats:
            self.obls.append((s, mi, expect, deadline, self.resp + 1))

    def _size_triggers(self, before: Sequence[int], in_cd: bool, now: float) -> None:
        for s in range(self.players):
            n = self.sizes[s]
            if not n or n == before[s]:
                continue
            for mi in self.inforce:
                m = self.ms.mission(mi)
                if m.event == EV_SIZE and m.n == n and m.applies(in_cd) and m.kind == "obligation":
                    self._oblige(mi, s, -1, now)

    def _flush(self) -> None:
        """12.1 step 6: the obligations of the pending card or draw, then ``hand_size_becomes``."""
        ctx = self.pending
        assert ctx is not None
        self.pending = None
        self.last_ctx = ctx
        now = ctx["t6"]
        for mi in self.inforce:
            m = self.ms.mission(mi)
            if m.kind != "obligation" or m.event != ctx["ev"] or not m.applies(ctx["cd"]):
                continue
            if ctx["ev"] == EV_PLAYED:
                assert m.cond is not None
                if not m.cond.match(ctx["k"], ctx["col"], ctx["val"], ctx["bc"], ctx["bv"]):
                    continue
            self._oblige(mi, ctx["a"], ctx["col"], now)
        self._size_triggers(ctx["sz"], ctx["cd"], now)

    def effects_of(self, ctx: Mapping[str, Any]) -> list[int]:
        """Effects in force triggered by the card in ``ctx``, in reveal order (``missions.matching``)."""
        out = []
        for mi in self.inforce:
            m = self.ms.mission(mi)
            if m.kind == "effect" and m.event == EV_PLAYED and m.applies(ctx["cd"]):
                assert m.cond is not None
                if m.cond.match(ctx["k"], ctx["col"], ctx["val"], ctx["bc"], ctx["bv"]):
                    out.append(mi)
        return out

    def _fulfil(self, seat: int, gesture: bool, token: str, arg: str | None) -> None:
        for i, ob in enumerate(self.obls):
            if ob[0] != seat:
                continue
            m = self.ms.mission(ob[1])
            if m.gesture == gesture and m.token == token and ob[2] == arg:
                del self.obls[i]
                return

    def _expire_due(self, now: float) -> None:
        due = [ob for ob in self.obls if 0 <= ob[3] <= now]
        if due:
            self.obls = [ob for ob in self.obls if not 0 <= ob[3] <= now]
            for ob in due:
                self._violation(ob[0], ob[1], ob[3], during_turn=False)

    def _expire_seat(self, seat: int, now: float, during_turn: bool) -> None:
        due = [ob for ob in self.obls if ob[0] == seat]
        if due:
            self.obls = [ob for ob in self.obls if ob[0] != seat]
            for ob in due:
                self._violation(seat, ob[1], now, during_turn)

    def _expire_steps(self) -> None:
        due = [ob for ob in self.obls if ob[4] <= self.resp]
        self.obls = [ob for ob in self.obls if ob[4] > self.resp]
        for ob in due:
            self._violation(ob[0], ob[1], 0.0, during_turn=False)
        self.viols = [v for v in self.viols if v[3] > self.resp]

    def is_open(self, v: Viol, now: float) -> bool:
        if self.rt:
            return now < v[3] or self.turns < v[4]
        return v[2] <= self.resp <= v[3]

    def _caught(self, target: int, mission: str | None, now: float) -> None:
        for i, v in enumerate(self.viols):
            if v[0] == target and not v[5] and self.is_open(v, now) and (
                    mission is None or self.ms.mission(v[1]).id == mission):
                self.viols[i] = (*v[:5], True)
                return

    def _prune(self, now: float) -> None:
        self.viols = [v for v in self.viols if self.is_open(v, now)]

    def _turn_done(self, now: float) -> None:
        self.turns += 1
        if self.rt:
            self._prune(now)


class _Template:
    """Everything one view fixes, computed once; ``sample`` re-draws the rest."""

    def __init__(self, game: BlastOffGame, view: Mapping[str, Any], seat: int) -> None:
        g = game
        self.game = g
        self.view = view  # held so that its id is not reused while cached
        self.seat = seat
        n = int(view["players"])
        self.players = n
        phase = PHASE_NAMES.index(view["phase"])
        self.phase = phase
        self.rt = view["timing"] == "realtime"
        ms = _Missions(g, view)
        rep = _Replay(g, view, ms)
        self.replay = rep

        # ---- physical cards: the lowest free id of each type for every card the seat sees
        free: dict[int, list[int]] = {}
        for cid, t in enumerate(g.ctype):
            free.setdefault(t, []).append(cid)
        for ids in free.values():
            ids.reverse()

        def take(name: str) -> int:
            return free[TYPE_BY_NAME[name]].pop()

        disc = [take(c["card"]) for c in view["discard"]]
        wface = [[cid, *_face(c["face"])] for cid, c in zip(disc, view["discard"], strict=True)
                 if g.kind[cid] == WILD and c["face"] != "--"]
        cur = int(view["turn"])
        hand = [take(c) for c in view["hand"]]
        drawn = -1
        if phase == DRAWN and seat == cur and view["drawn"] is not None:
            t = TYPE_BY_NAME[view["drawn"]]
            drawn = next(c for c in reversed(hand) if g.ctype[c] == t)
            hand.remove(drawn)
            hand.append(drawn)
        self.known: list[list[int]] = [[] for _ in range(n)]
        kby = [-1] * n
        for k in view.get("known") or ():
            self.known[k["seat"]] = [take(c) for c in k["cards"]]
            kby[k["seat"]] = seat
        self.unseen = sorted(c for ids in free.values() for c in ids)
        self.sizes = list(view["hand_sizes"])
        self.hand = hand
        need = sum(self.sizes[s] - len(self.known[s]) for s in range(n) if s != seat) + int(view["draw_pile"])
        if need != len(self.unseen) or len(hand) != self.sizes[seat]:
            raise ValueError("blast-off determinization: the view's card counts do not add up")
        self.other_drawn = phase == DRAWN and seat != cur
        self.cur = cur

        # ---- missions
        inforce = [ms.index[m["id"]] for m in view["missions_in_force"]]
        mdisc = [ms.index[m["id"]] for m in view["missions_discarded"]]
        self.mdeck = [i for i in range(len(g.missions)) if i not in inforce and i not in mdisc]
        if len(self.mdeck) != int(view["mission_deck"]):
            raise ValueError("blast-off determinization: the mission deck does not add up")

        # ---- countdown
        cd = view["countdown"]
        cd_fields: dict[str, Any] = {"cd_rocket": -1, "cd_seq": [], "cd_idx": -1, "cd_t": -1.0, "cd_slots": [],
                                     "cd_acted": [], "cd_last": -1}
        if cd is not None:
            seq = [_value(v) for v in cd["sequence"]]
            last = int(cd["last"])
            cd_fields = {
                "cd_rocket": int(cd["rocket"]), "cd_seq": seq,
                "cd_idx": -1 if cd["called"] is None else seq.index(_value(cd["called"])),
                "cd_t": -1.0 if cd["next_call"] is None else float(cd["next_call"]),
                "cd_slots": sorted([_value(v), int(s)] for v, s in cd["slots"].items()),
                "cd_acted": sorted(cd["acted"]) if self.rt else [] if phase == COUNTDOWN else [last],
                "cd_last": last,
            }

        # ---- obligations: the seat's own from its view, the others' from the log
        own: list[Obl] = []
        for ob in view["obligations"]:
            dl = ob["deadline"]
            own.append((seat, ms.index[ob["mission"]], ob["expect"], -1.0 if dl is None else float(dl),
                        int(view["response_step"]) + 1 if ob["due_step"] is None else int(ob["due_step"])))
        obls = own + [ob for ob in rep.obls if ob[0] != seat]
        self.obls = obls
        viols = [list(v) for v in rep.viols]

        # ---- the resolution a decision pauses (12.1), and the steps continuation
        ctx = self._ctx(g, view, disc, rep) if phase in (DECLARE, CHOOSE, AUTHOR) else None
        rthen = ""
        if phase == RESPONSE:
            rthen = rep.rthen or ((CD_END if "BO" in cd["slots"] else CD_VALUE) if cd is not None else NEXT)
        decision = view["decision"]
        extra = rep.extra if rep.extra >= 0 and self.sizes[rep.extra] else -1

        self.pend_own: Any = None
        pending = view["pending"]
        if not self.rt and seat in self._pend_seats(view) and pending is not None:
            self.pend_own = [str(a) for a in pending] if isinstance(pending, list) else str(pending)
        self.rdone = sorted(view["responded"]) if phase == RESPONSE else []

        hands: list[list[int]] = [[] for _ in range(n)]
        hands[seat] = hand
        rest = list(self.unseen)
        for s in range(n):
            if s != seat:
                hands[s] = self.known[s] + [rest.pop() for _ in range(self.sizes[s] - len(self.known[s]))]
        if self.other_drawn:
            drawn = hands[cur][-1]
        recent = [dict(e) for e in view["recent"]]
        core: dict[str, Any] = {
            "phase": phase, "cur": cur, "dir": int(view["dir"]), "dealer": int(view["dealer"]),
            "fcol": _face(view["top"]["face"])[0], "fval": _face(view["top"]["face"])[1],
            "passes": int(view["passes"]), "extra": extra, "turn_no": rep.turns, "drawn": drawn,
            "starter_returns": 0, "resp_no": int(view["response_step"]), "rthen": rthen,
            "dec_t": -1.0 if decision is None or decision["deadline"] is None else float(decision["deadline"]),
            "recent_n": recent[-1]["n"] + 1 if recent else 0,
            "draw": rest, "disc": disc, "skip": list(view["skip_marks"]), "placings": list(view["placings"]),
            "mdeck": list(self.mdeck), "mdisc": mdisc, "inforce": inforce,
            "revealed": [ms.index[m["id"]] for m in view["missions"]],
            "hands": hands, "wface": sorted(wface), "known": [sorted(k) for k in self.known], "kby": kby,
            "customs": [[cid, src] for cid, src in ms.customs],
            "obls": [list(ob) for ob in obls], "penalties": [[p["seat"], p["kind"], p["mission"]]
                                                            for p in view["penalties"]],
            "recent": recent, "viols": viols, "pend": [], "rdone": self.rdone, "ctx": ctx,
            "res": view["result"], **cd_fields,
        }
        obj = {"format": "cosmodeck-state/1", "game": g.id, "options": g.options_json(), "data_hash": g.data_hash,
               "players": n, "seed": 0, "now": float(view["now"]), "rng": "1", "log": [], "core": core}
        base = g.load_state(json.dumps(obj))
        assert isinstance(base, BlastOffState)
        self.base = base
        self.pend_seats = self._pend_seats(view)
        self.resp_items = self._response_items(base) if phase == RESPONSE and not self.rt else {}

    @staticmethod
    def _pend_seats(view: Mapping[str, Any]) -> list[int]:
        """Seats with a hidden turn-based pending entry: chosen in a COUNTDOWN step, or in a RESPONSE step."""
        if view["timing"] == "realtime":
            return []
        if view["phase"] == "COUNTDOWN" and view["countdown"] is not None:
            return sorted(view["countdown"]["acted"])
        if view["phase"] == "RESPONSE":
            return [s for s, active in enumerate(view["active"]) if active]
        return []

    def _ctx(self, g: BlastOffGame, view: Mapping[str, Any], disc: list[int], rep: _Replay) -> dict[str, Any]:
        phase = self.phase
        cur = self.cur
        top = disc[-1]
        if phase == DECLARE and view["countdown"] is None:  # 3.7: the starter Wild
            return {"ev": -1, "a": cur, "c": top, "k": WILD, "col": -1, "val": 0, "bc": -1, "bv": 0, "bk": -1,
                    "sz": list(view["hand_sizes"]), "cd": False, "bo": False, "st": 4, "ei": 0, "eff": None,
                    "then": FIRST}
        p = rep.pending if rep.pending is not None else rep.last_ctx
        if p is not None and p["a"] == cur and p["ev"] == EV_PLAYED:
            col, val = (-1, BLAST_OFF) if phase == DECLARE else (p["col"], p["val"])
            ctx = {"ev": EV_PLAYED, "a": cur, "c": top, "k": p["k"], "col": col, "val": val, "bc": p["bc"],
                   "bv": p["bv"], "bk": p["bk"], "sz": list(p["sz"]), "cd": p["cd"], "bo": p["bo"]}
        else:  # the play fell out of the log: read it off the discard pile
            below = view["discard"][-2] if len(disc) > 1 else None
            bc, bv = _face(below["face"]) if below is not None else (-1, 0)
            sz = list(view["hand_sizes"])
            sz[cur] += 1
            cdn = view["countdown"] is not None
            col, val = _face(view["top"]["face"])
            ctx = {"ev": EV_PLAYED, "a": cur, "c": top, "k": g.kind[top], "col": col, "val": val, "bc": bc, "bv": bv,
                   "bk": g.kind[disc[-2]] if below is not None else -1, "sz": sz, "cd": cdn, "bo": cdn}
        if phase == CHOOSE:
            eff = rep.effects_of(ctx)
            mi = rep.ms.index.get(rep.last_choose, -1)
            swaps = [i for i, x in enumerate(eff) if rep.ms.mission(x).effect == "swap_hands"]
            at = eff.index(mi) if mi in eff else (swaps[0] if swaps else 0)
            return {**ctx, "st": 1, "ei": at + 1, "eff": eff, "then": START_CD if ctx["k"] == K_COUNTDOWN else NEXT}
        if phase == DECLARE:
            return {**ctx, "st": 0, "ei": 0, "eff": None, "then": CD_END}
        return {**ctx, "st": 4, "ei": 0, "eff": None, "then": CD_END}  # AUTHOR: the reveal was next (12.1 step 7)

    def _response_items(self, st: BlastOffState) -> dict[int, list[Any]]:
        """Per other seat, the submissions it may well have made: fulfil its obligations, catch on evidence."""
        out: dict[int, list[Any]] = {}
        rep = self.replay
        open_targets = sorted({v[0] for v in rep.viols if not v[5] and rep.is_open(v, 0.0)})
        for s in self.pend_seats:
            if s == self.seat:
                continue
            items: list[Any] = []
            tokens: set[str] = set()
            for ob in self.obls:
                if ob[0] != s:
                    continue
                m = st.mission(ob[1])
                if m.token in tokens:
                    continue
                tokens.add(m.token)
                items.append(Gesture(m.token) if m.gesture else Announce(m.token, ob[2]))
            if not self.game.referee:
                items += [Catch(x) for x in open_targets if x != s and st.hands[x]]
            out[s] = items
        return out

    # ---- one determinization -------------------------------------------------------------------
    def sample(self, rng: Rng) -> BlastOffState:
        c = self.base.clone()
        n = self.players
        seat = self.seat
        rest = list(self.unseen)
        rng.shuffle(rest)
        hands = c.hands
        hands[seat] = list(self.hand)
        for s in range(n):
            if s != seat:
                hands[s] = self.known[s] + [rest.pop() for _ in range(self.sizes[s] - len(self.known[s]))]
        c.draw = rest
        if self.other_drawn:
            self._draw_for_other(c, rng)
        c.mdeck = list(self.mdeck)
        rng.shuffle(c.mdeck)
        c.rng = rng.fork()
        if self.pend_seats:
            self._pend(c, rng)
        return c

    def _draw_for_other(self, c: BlastOffState, rng: Rng) -> None:
        """The other turn player's drawn card: one that leaves a DRAWN choice (uniform among them)."""
        cur = self.cur
        slot = len(c.hands[cur]) - 1
        c.drawn = c.hands[cur][slot]
        if self.game.options["drawn_card_play"] == "may":
            return
        places: list[tuple[int, int]] = [(-1, i) for i in range(len(c.draw))]
        for s in range(self.players):
            if s != self.seat:
                places += [(s, i) for i in range(len(self.known[s]), len(c.hands[s]))]
        ok = []
        for s, i in places:
            c.drawn = c.draw[i] if s < 0 else c.hands[s][i]
            if len(drawn_options(c)) != 1:
                ok.append((s, i))
        if not ok:
            c.drawn = c.hands[cur][slot]
            return
        s, i = ok[rng.randbelow(len(ok))]
        pile = c.draw if s < 0 else c.hands[s]
        pile[i], c.hands[cur][slot] = c.hands[cur][slot], pile[i]
        c.drawn = c.hands[cur][slot]

    def _pend(self, c: BlastOffState, rng: Rng) -> None:
        pend: dict[int, Any] = {}
        if self.phase == COUNTDOWN:
            for s in self.pend_seats:
                if s == self.seat:
                    pend[s] = parse_action(self.pend_own) if isinstance(self.pend_own, str) else None
                else:
                    opts = legal_slaps(c, s)
                    pend[s] = opts[rng.randbelow(len(opts))]
        else:
            for s in self.pend_seats:
                if s == self.seat:
                    pend[s] = [parse_action(a) for a in self.pend_own or ()]
                else:
                    pend[s] = [a for a in self.resp_items.get(s, ()) if rng.random() < 0.5]
        c.pend = pend


_cache: list[_Template] = []


def determinize(game: BlastOffGame, view: Mapping[str, Any], seat: int, rng: Rng) -> BlastOffState:
    """A state consistent with ``view`` (what ``seat`` sees), its hidden parts drawn with ``rng``."""
    tpl = _cache[0] if _cache else None
    if tpl is None or tpl.view is not view or tpl.seat != seat or tpl.game is not game:
        tpl = _Template(game, view, seat)
        _cache[:] = [tpl]
    return tpl.sample(rng)
