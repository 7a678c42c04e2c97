"""The Meteor heuristic's projection of a seat's view (issue 15: a bot pays only for what it reads).

``bot_view(st, seat)`` is ``{k: st.view(seat)[k] for k in BOT_KEYS}``: the entries the Meteor heuristic
(``bots/heuristic/meteor.py``) reads, equal to the whole view's, built alone (its sites and field entries are
the very objects the whole view shares, through ``st.site_entries``). What a bot given it may see is a part of
what its seat sees. Memoised per state version and seat like ``MeteorState.view`` (a fresh top-level dict each
call, read-only); when the whole view's public part of this version exists, its entries are taken from it.
The simulator gives it to the heuristic (``MeteorHeuristic.view_for``); ``tests/meteor/test_view_bot.py``
proves it equal to the view's entries on every step of seeded games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cosmodeck.games.meteor.view import (
    LIMIT,
    _field_list,
    _hands,
    _hidden_hands,
    _site_list,
    _timer,
    _window,
)

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState

__all__ = ["BOT_KEYS", "BotView", "bot_view"]

BOT_KEYS: tuple[str, ...] = ("players", "seat", "phase", "zone", "timer", "field", "sites", "volley", "passes", "hands")
# the entries of the version's shared part (``_bot_part_py``), taken as they are from a whole view's public part
_PART_KEYS = ("phase", "zone", "timer", "field", "sites", "passes", "volley", "hidden_hands")


class BotView(dict[str, Any]):
    """A seat's bot view built by the engine (``bot_view``): a bot may memoise what it computes from it by the
    identity of its lists, as from a whole view the engine built (``MeteorHeuristic._per_view``)."""

    __slots__ = ()


def _bot_part_py(st: MeteorState) -> dict[str, Any]:
    """What every seat's bot view of this version shares (the hands without faces included). The reference of
    ``view_fast.bot_part`` (``_bot_part`` is that one when it is built)."""
    entries = st.site_entries
    if len(entries) > LIMIT:
        entries.clear()
    sites = _site_list(st, entries)
    field = _field_list(st, entries)
    return {"phase": st.phase, "zone": st.zone, "timer": _timer(st), "field": field, "sites": sites,
            "passes": list(st.passes), "volley": _window(st), "hidden_hands": _hidden_hands(st)}


def bot_view(st: MeteorState, seat: int) -> BotView:
    """``{k: st.view(seat)[k] for k in BOT_KEYS}``, built alone (a seat, never a spectator)."""
    st._seat(seat)
    memo = st.memo()
    key = ("bot view", seat)
    got: dict[str, Any] | None = memo.get(key)
    if got is None:
        part: dict[str, Any] | None = memo.get("bot part")
        if part is None:
            pub: dict[str, Any] | None = memo.get("public")
            part = memo["bot part"] = _bot_part(st) if pub is None else {k: pub[k] for k in _PART_KEYS}
        got = memo[key] = {"players": st.players, "seat": seat, "phase": part["phase"], "zone": part["zone"],
                           "timer": part["timer"], "field": part["field"], "sites": part["sites"],
                           "volley": part["volley"], "passes": part["passes"], "hands": _hands(st, seat, part)}
    return BotView(got)


_bot_part: Callable[[MeteorState], dict[str, Any]]
try:  # the same function compiled (games/meteor/view_fast.pyx), when built
    from cosmodeck.games.meteor.view_fast import bot_part as _bot_part
except ImportError:  # not built: the readable function, the same views
    _bot_part = _bot_part_py
