"""Exact JSON round trip of the Blast Off! state core (``_dump`` / ``_load``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.result import Result
from cosmodeck.games.blast_off.actions import parse_action

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState

_PLAIN = ("phase", "cur", "dir", "dealer", "fcol", "fval", "passes", "extra", "turn_no", "drawn", "starter_returns",
          "resp_no", "rthen", "cd_rocket", "cd_idx", "cd_t", "cd_last", "dec_t", "recent_n")
_LISTS = ("draw", "disc", "skip", "placings", "mdeck", "mdisc", "inforce", "revealed")


def dump(st: BlastOffState) -> dict[str, Any]:
    out: dict[str, Any] = {k: getattr(st, k) for k in _PLAIN}
    for k in _LISTS:
        out[k] = list(getattr(st, k))
    out["hands"] = [list(h) for h in st.hands]
    out["wface"] = [[c, col, val] for c, (col, val) in sorted(st.wface.items())]
    out["known"] = [sorted(k) for k in st.known]
    out["kby"] = list(st.kby)
    out["customs"] = [[m.id, m.source] for m in st.customs]
    out["obls"] = [list(o) for o in st.obls]
    out["penalties"] = [list(p) for p in st.penalties]
    out["recent"] = [dict(e) for e in st.recent]
    out["viols"] = [list(v) for v in st.viols]
    out["cd_seq"] = list(st.cd_seq)
    out["cd_slots"] = [[v, s] for v, s in sorted(st.cd_slots.items())]
    out["cd_acted"] = sorted(st.cd_acted)
    out["pend"] = [[s, [str(a) for a in p] if isinstance(p, list) else str(p)] for s, p in sorted(st.pend.items())]
    out["rdone"] = sorted(st.rdone)
    out["ctx"] = st.ctx
    out["res"] = None if st.res is None else st.res.to_dict()
    return out


def load(st: BlastOffState, core: dict[str, Any]) -> None:
    for k in _PLAIN:
        setattr(st, k, core[k])
    for k in ("cd_t", "dec_t"):
        setattr(st, k, float(core[k]))
    for k in _LISTS:
        setattr(st, k, [int(x) for x in core[k]])
    st.hands = [[int(x) for x in h] for h in core["hands"]]
    if len(st.hands) != st.players:
        raise ValueError("hands do not match the number of players")
    st.wface = {int(c): (int(col), int(val)) for c, col, val in core["wface"]}
    st.known = [frozenset(int(x) for x in k) for k in core["known"]]
    st.kby = [int(x) for x in core.get("kby", [-1] * st.players)]  # absent in states saved before it existed
    g = st.g
    st.customs = tuple(replace(g.authored(src), id=ident) for ident, src in core["customs"])
    st.has_restriction = any(st.mission(mi).kind == "restriction" for mi in st.inforce)
    st.penalties = [(int(s), str(k), m) for s, k, m in core["penalties"]]
    st.recent = [dict(e) for e in core["recent"]]
    st.obls = [(int(s), int(m), e, float(d), int(due)) for s, m, e, d, due in core["obls"]]
    st.viols = [(int(s), int(m), float(a), float(b), int(n), bool(c)) for s, m, a, b, n, c in core["viols"]]
    st.cd_seq = tuple(int(v) for v in core["cd_seq"])
    st.cd_slots = {int(v): int(s) for v, s in core["cd_slots"]}
    st.cd_acted = {int(s) for s in core["cd_acted"]}
    st.pend = {int(s): ([parse_action(x) for x in p] if isinstance(p, list) else parse_action(p))
               for s, p in core["pend"]}
    st.rdone = {int(s) for s in core["rdone"]}
    st.ctx = core["ctx"]
    r = core["res"]
    st.res = None if r is None else Result(
        r["reason"], frozenset(r["winners"]), tuple(tuple(t) for t in r["ranking"]),
        {int(k): v for k, v in r["scores"].items()}, r["team_win"], r["details"])
