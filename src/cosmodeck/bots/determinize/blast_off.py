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

Public but not in the view, derived from the view's public log (``recent``, BLO-12.10) by the
replay shared with the heuristic (``cosmodeck.bots.blast_off_log.replay_view``, which documents
the rules it mirrors): the other seats' open obligations and every seat's open violations (their
deadlines, due steps, catch windows, which ones were caught), the pending resolution of a paused
card (``DECLARE``, ``CHOOSE``, ``AUTHOR``), the continuation of a RESPONSE step, a pending extra
turn, and the turn counter that bounds real-time catch windows (only its increments matter; it
restarts at 0). The seat's own obligations come from its view itself. The log holds the last 48
public events: an obligation or violation that arose before them is left out (catching it then
looks like a false catch in the search), and a triggering card whose face beneath is no longer
known triggers no ``below``/``onto`` rule. A paused card whose play fell out of the log is read
off the discard pile.

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

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cosmodeck.bots.blast_off_log import Play, PublicLog, replay_view
from cosmodeck.bots.blast_off_log.records import face as _face
from cosmodeck.bots.blast_off_log.records import value as _value
from cosmodeck.bots.determinize import load_core
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import Announce, Catch, Gesture, parse_action
from cosmodeck.games.blast_off.cards import BLAST_OFF, TYPE_BY_NAME, WILD
from cosmodeck.games.blast_off.cards import (
    COUNTDOWN as K_COUNTDOWN,
)
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.legal import drawn_options, legal_slaps
from cosmodeck.games.blast_off.mdl import EV_PLAYED, Mission
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
        rep = replay_view(g, view)
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
        obls = own + [(o.seat, ms.index[o.mission], o.expect, o.deadline, o.due) for o in rep.obls
                      if o.seat != seat and o.mission in ms.index]
        self.obls = obls
        viols = [[v.seat, ms.index[v.mission], v.start, v.end, v.need, v.caught] for v in rep.viols
                 if v.mission in ms.index]

        # ---- the resolution a decision pauses (12.1), and the steps continuation
        ctx = self._ctx(g, view, disc, rep, ms) if phase in (DECLARE, CHOOSE, AUTHOR) else None
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
        base = load_core(g, n, float(view["now"]), 1, core)
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

    def _ctx(self, g: BlastOffGame, view: Mapping[str, Any], disc: list[int], rep: PublicLog,
             ms: _Missions) -> dict[str, Any]:
        phase = self.phase
        cur = self.cur
        top = disc[-1]
        if phase == DECLARE and view["countdown"] is None:  # 3.7: the starter Wild
            return {"ev": -1, "a": cur, "c": top, "k": WILD, "col": -1, "val": 0, "bc": -1, "bv": 0, "bk": -1,
                    "sz": list(view["hand_sizes"]), "cd": False, "bo": False, "st": 4, "ei": 0, "eff": None,
                    "then": FIRST}
        p: Play | None = rep.pending if rep.pending is not None else rep.last
        if p is not None and p.actor == cur and p.event == EV_PLAYED:
            col, val = (-1, BLAST_OFF) if phase == DECLARE else (p.col, p.val)
            ctx = {"ev": EV_PLAYED, "a": cur, "c": top, "k": p.kind, "col": col, "val": val, "bc": p.bcol,
                   "bv": p.bval, "bk": p.bkind, "sz": list(p.before), "cd": p.in_cd, "bo": p.blast_off}
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
            eff = [ms.index[m.id] for m in rep.effects_of(self._play_of(ctx)) if m.id in ms.index]
            mi = ms.index.get(rep.last_choose, -1)
            swaps = [i for i, x in enumerate(eff) if ms.mission(x).effect == "swap_hands"]
            at = eff.index(mi) if mi in eff else (swaps[0] if swaps else 0)
            return {**ctx, "st": 1, "ei": at + 1, "eff": eff, "then": START_CD if ctx["k"] == K_COUNTDOWN else NEXT}
        if phase == DECLARE:
            return {**ctx, "st": 0, "ei": 0, "eff": None, "then": CD_END}
        return {**ctx, "st": 4, "ei": 0, "eff": None, "then": CD_END}  # AUTHOR: the reveal was next (12.1 step 7)

    @staticmethod
    def _play_of(ctx: Mapping[str, Any]) -> Play:
        """The card of a resolution context, as the replay holds it (to match missions)."""
        return Play(EV_PLAYED, ctx["a"], ctx["k"], ctx["col"], ctx["val"], ctx["bk"], ctx["bc"], ctx["bv"],
                    ctx["cd"], ctx["bo"], list(ctx["sz"]), 0.0, 0)

    def _response_items(self, st: BlastOffState) -> dict[int, list[Any]]:
        """Per other seat, the submissions it may well have made: fulfil its obligations, catch on evidence."""
        out: dict[int, list[Any]] = {}
        rep = self.replay
        open_targets = sorted({v.seat for v in rep.viols if not v.caught and rep.is_open(v)})
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
        c._drop_caches()  # the fields were set here, outside the engine's own changes
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
