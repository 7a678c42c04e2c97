"""Follow Blast Off!'s public log (the view's ``recent`` events) and derive violations from it.

BLO-12.10: every violation is derivable from the public log, so a bot can catch on evidence instead
of guessing. The tracker covers the turn-based timing (``timing="steps"``, BLO-11), where obligations
fall due at the end of the RESPONSE step after their trigger.
"""

from __future__ import annotations

from typing import Any

from cosmodeck.games.blast_off.cards import BLAST_OFF, COLOURS, LETTERS, TYPE_BY_NAME, TYPE_KIND
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.mdl import EV_DRAW, EV_PLAYED, EV_SIZE, Mission


def _face(text: str) -> tuple[int, int]:
    col = -1 if text[0] == "-" else LETTERS.index(text[0])
    v = text[1:]
    return col, (BLAST_OFF if v == "BO" else 0 if v == "-" else int(v))


class PublicTracker:
    """Follows spectator events only; reports (seat, mission id) violations as they arise."""

    def __init__(self, g: BlastOffGame, view: dict[str, Any]) -> None:
        self.by_id: dict[str, Mission] = {m.id: m for m in g.missions}
        self.inforce = [m["id"] for m in view["missions_in_force"]]
        self.sizes = list(view["hand_sizes"])
        self.face = _face(view["top"]["face"])
        self.top_kind = TYPE_KIND[TYPE_BY_NAME[view["top"]["card"]]]
        self.in_cd = False
        self.pending: list[tuple[int, str, str | None, str]] = []  # seat, mission, expected arg, token
        self.due: list[tuple[int, str, str | None, str]] = []
        self.waiting: dict[str, Any] | None = None
        self.found: list[tuple[int, str]] = []

    def _missions(self) -> list[Mission]:
        return [self.by_id[i] for i in self.inforce]

    def _oblige(self, m: Mission, actor: int, col: int) -> None:
        arg = None if m.arg is None else (str(self.sizes[actor]) if m.arg == "hand_size" else
                                          (COLOURS[col] if col >= 0 else "?"))
        if arg == "?":
            return
        seats = [s for s, n in enumerate(self.sizes) if n and s != actor] if m.who_others else [actor]
        self.pending += [(s, m.id, arg, m.token) for s in seats if self.sizes[s]]

    def _played(self, d: dict[str, Any]) -> None:
        kind = TYPE_KIND[TYPE_BY_NAME[d["card"]]]
        col, val = _face(d["face"])
        bcol, bval = self.face
        onto = (self.top_kind, bcol, bval)
        self.face, self.top_kind = (col, val), kind
        self.sizes[d["seat"]] = d["left"]
        if d["left"] == 0:
            return
        for m in self._missions():
            if not m.applies(self.in_cd):
                continue
            if m.kind == "restriction" and m.forbid_card and m.forbid_onto:
                if m.forbid_card.match(kind, col, val) and m.forbid_onto.match(*onto):
                    self.found.append((d["seat"], m.id))
            elif m.kind == "obligation" and m.event == EV_PLAYED and m.cond:
                if m.cond.match(kind, col, val, bcol, bval):
                    self._oblige(m, d["seat"], col)
            elif m.kind == "obligation" and m.event == EV_SIZE and m.n == d["left"]:
                self._oblige(m, d["seat"], -1)

    def feed(self, d: dict[str, Any]) -> None:
        t = d["type"]
        if self.waiting is not None and t == "declared":
            self._played({**self.waiting, "face": d["face"]})
            self.waiting = None
        elif t in ("played", "slap_accepted"):
            if d["card"] == "W" and d["face"] == "-BO":
                self.waiting = d
                self.sizes[d["seat"]] = d["left"]
            else:
                self._played(d)
        elif t == "mission_revealed":
            self.inforce = [d["mission"]]
        elif t == "countdown_started":
            self.in_cd = True
        elif t == "countdown_ended":
            self.in_cd = False
        elif t == "drew":
            self.sizes[d["seat"]] += d["count"]
            if d["reason"] == "draw":
                for m in self._missions():
                    if m.kind == "obligation" and m.event == EV_DRAW and m.applies(False):
                        self._oblige(m, d["seat"], -1)
        elif t in ("announced", "gestured"):
            for i, (s, _mid, arg, token) in enumerate(self.due):
                if s == d["seat"] and token == d["token"] and arg == d.get("arg"):
                    del self.due[i]
                    break
        elif t == "response_started":
            self.due, self.pending = self.due + self.pending, []
        elif t == "response_ended":
            self.found += [(s, mid) for s, mid, _a, _t in self.due]
            self.due = []
