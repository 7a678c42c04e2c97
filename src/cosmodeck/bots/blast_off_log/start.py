"""The state at the start of a view's public log, walked back from the view, and the full replay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cosmodeck.bots.blast_off_log.records import face
from cosmodeck.bots.blast_off_log.replay import PublicLog
from cosmodeck.games.blast_off.cards import TYPE_BY_NAME, TYPE_KIND
from cosmodeck.games.blast_off.game import BlastOffGame


def replay_view(g: BlastOffGame, view: Mapping[str, Any]) -> PublicLog:
    """The view's whole public log (``recent``) replayed from its first event, settled at the view's time."""
    events: Sequence[Mapping[str, Any]] = view["recent"]
    log = PublicLog(g, view)
    log.sizes = _sizes_before(view, events)
    log.inforce = _inforce_before(view, events)
    log.top_kind, log.face = _top_before(view, events)
    log.in_cd, log.resp = _countdown_and_step_before(view, events)
    if events:
        log.now = float(events[0]["t"])
    for e in events:
        log.feed(e, float(e["t"]))
    log.settle(float(view["now"]))
    return log


def _sizes_before(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[int]:
    cur = list(view["hand_sizes"])
    for e in reversed(events):
        cur = size_back(cur, e)
    return cur


def size_back(cur: list[int], e: Mapping[str, Any]) -> list[int]:
    """The hand sizes ``cur`` walked back over event ``e`` (one step of ``_sizes_before``; ``cur`` may be
    changed in place, and the result is the list to use)."""
    t = e["type"]
    if t in ("played", "slap_accepted"):
        cur[e["seat"]] = int(e["left"]) + 1
    elif t == "drew":
        cur[e["seat"]] = max(0, cur[e["seat"]] - int(e["count"]))
    elif t == "effect" and e.get("effect") == "swap_hands" and "target" in e:
        a, b = e["seat"], e["target"]
        cur[a], cur[b] = cur[b], cur[a]
    elif t == "effect" and e.get("effect") == "pass_hands":  # each active seat got its giver's hand
        d = int(e["direction"])
        cur = [cur[_next_active(cur, s, d)] if cur[s] else 0 for s in range(len(cur))]
    return cur


def _next_active(sizes: Sequence[int], frm: int, d: int) -> int:
    n = len(sizes)
    i = frm
    for _ in range(n):
        i = (i + d) % n
        if sizes[i]:
            return i
    return frm


def _inforce_before(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[str]:
    cur = [m["id"] for m in view["missions_in_force"]]
    for e in reversed(events):
        cur = inforce_back(cur, e)
    return cur


def inforce_back(cur: list[str], e: Mapping[str, Any]) -> list[str]:
    """The missions in force ``cur`` walked back over event ``e`` (one step of ``_inforce_before``; ``cur``
    may be changed in place, and the result is the list to use)."""
    if e["type"] == "mission_revealed":
        if e["mission"] in cur:
            del cur[len(cur) - 1 - cur[::-1].index(e["mission"])]
        cur = list(e.get("replaced") or ()) + cur
    return cur


def _top_before(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> tuple[int, tuple[int, int]]:
    """The top card before the log's first play, from the discard pile (kind -1: unknown after a reshuffle)."""
    unknown = -1, (-1, 0)
    if any(e["type"] == "reshuffled" for e in events):
        return unknown
    plays = sum(1 for e in events if e["type"] in ("played", "slap_accepted"))
    disc = view["discard"]
    i = len(disc) - 1 - plays
    if i < 0:
        return unknown
    return TYPE_KIND[TYPE_BY_NAME[disc[i]["card"]]], face(disc[i]["face"])


def _countdown_and_step_before(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> tuple[bool, int]:
    in_cd = view["countdown"] is not None
    resp = int(view["response_step"])
    for e in reversed(events):
        in_cd, resp = step_back(in_cd, resp, e)
    return in_cd, resp


def step_back(in_cd: bool, resp: int, e: Mapping[str, Any]) -> tuple[bool, int]:
    """(in a countdown, response step) walked back over event ``e`` (one step of
    ``_countdown_and_step_before``)."""
    t = e["type"]
    if t == "countdown_started":
        return False, resp
    if t == "countdown_ended":
        return True, resp
    if t == "response_started":
        return in_cd, int(e["step"]) - 1
    return in_cd, resp
