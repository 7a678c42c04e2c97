"""Typed messages of the protocol (DESIGN.md "Server protocol") and their error codes.

Client -> server (JSON text frames):
    {"type": "act", "action": "<notation>", "version": V}
    {"type": "start"}                         seated player: start now; absent seats get bots until they come
    {"type": "chat", "text": "..."}           free text, when the game's talk rules allow it
    {"type": "signal", "kind": "pass"}        a signal, when allowed
    {"type": "emote", "kind": "cheer", "target": "M3"?}   a non-verbal emote, when allowed
    {"type": "ping"}                          -> {"type": "pong"}
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

KIND_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"
TARGET_PATTERN = r"^[A-Za-z0-9_:.,-]{1,32}$"


class ProtocolError(Exception):
    """A refused client message: ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ActMsg(_Msg):
    type: Literal["act"]
    action: Annotated[StrictStr, Field(min_length=1, max_length=512)]
    version: StrictInt


class StartMsg(_Msg):
    type: Literal["start"]


class ChatMsg(_Msg):
    type: Literal["chat"]
    text: Annotated[StrictStr, Field(min_length=1, max_length=2000)]


class SignalMsg(_Msg):
    type: Literal["signal"]
    kind: Annotated[StrictStr, Field(pattern=KIND_PATTERN)]


class EmoteMsg(_Msg):
    type: Literal["emote"]
    kind: Annotated[StrictStr, Field(pattern=KIND_PATTERN)]
    target: Annotated[StrictStr, Field(pattern=TARGET_PATTERN)] | None = None


class PingMsg(_Msg):
    type: Literal["ping"]


ClientMsg = ActMsg | StartMsg | ChatMsg | SignalMsg | EmoteMsg | PingMsg
_TYPES: dict[str, type[_Msg]] = {
    "act": ActMsg, "start": StartMsg, "chat": ChatMsg, "signal": SignalMsg, "emote": EmoteMsg, "ping": PingMsg,
}


def parse_client_message(text: str | bytes, max_bytes: int) -> ClientMsg:
    """Parse one frame; raise ``ProtocolError`` with a stable code on anything malformed."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_frame", "send JSON text frames, not binary")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"a message may be at most {max_bytes} bytes")
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise ProtocolError("bad_json", f"not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = obj.get("type")
    model = _TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; known: {', '.join(sorted(_TYPES))}")
    try:
        msg = model.model_validate(obj)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc'])) or '(message)'}: {err['msg']}" for err in e.errors())
        raise ProtocolError("bad_message", f"malformed {kind!r} message: {problems}") from None
    assert isinstance(msg, ActMsg | StartMsg | ChatMsg | SignalMsg | EmoteMsg | PingMsg)
    return msg


# ---- REST ------------------------------------------------------------------------------------
class CreateRoom(BaseModel):
    """``POST /api/rooms`` body."""

    model_config = ConfigDict(extra="forbid")

    game: StrictStr
    players: StrictInt
    bots: dict[str, StrictStr] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt | None = None

