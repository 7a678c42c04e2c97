"""Chat, signals and emotes, checked against the talk rules the engine puts in the view.

The server knows no game's rules. A view may carry a ``talk`` key; this module only reads it:

- absent or ``null``: talk is free (chat, and any signal or emote);
- ``true`` / ``false``: free chat allowed / refused (signals and emotes stay free);
- an object ``{"chat": bool, "signals": [kind, ...], "emotes": [kind, ...]}``: chat only if
  ``chat`` is true; a signal or emote only if its kind is listed (a missing list allows none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cosmodeck.server.protocol import ChatMsg, EmoteMsg, ProtocolError, SignalMsg

TalkMsg = ChatMsg | SignalMsg | EmoteMsg


def check_talk(view: Mapping[str, Any], msg: TalkMsg) -> None:
    """Raise ``ProtocolError('talk_forbidden', ...)`` unless the view's talk rules allow ``msg``."""
    rules = view.get("talk")
    if rules is None:
        return
    if isinstance(rules, bool):
        if isinstance(msg, ChatMsg) and not rules:
            raise ProtocolError("talk_forbidden", "free chat is not allowed now")
        return
    if not isinstance(rules, Mapping):
        raise ProtocolError("talk_forbidden", "this game's talk rules refuse it")
    if isinstance(msg, ChatMsg):
        if rules.get("chat") is not True:
            raise ProtocolError("talk_forbidden", "free chat is not allowed now: use signals and emotes")
        return
    key = "signals" if isinstance(msg, SignalMsg) else "emotes"
    allowed = rules.get(key)
    if not isinstance(allowed, (list, tuple)) or msg.kind not in allowed:
        what = "signal" if isinstance(msg, SignalMsg) else "emote"
        raise ProtocolError("talk_forbidden", f"the {what} {msg.kind!r} is not allowed now")


class TokenBucket:
    """At most ``rate`` messages per second on average, bursts of ``2 * rate``."""

    __slots__ = ("capacity", "last", "rate", "tokens")

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = 2.0 * rate
        self.tokens = self.capacity
        self.last = 0.0

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
