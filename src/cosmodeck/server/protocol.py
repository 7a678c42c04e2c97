"""Typed messages of the protocol (DESIGN.md "Server protocol") and their error codes.

Client -> server (JSON text frames):
    {"type": "act", "action": "<notation>", "version": V}
    {"type": "start"}                         seated player: start now; absent seats get bots until they come
    {"type": "chat", "text": "..."}           free text, when the game's talk rules allow it
    {"type": "signal", "kind": "pass"}        a signal, when allowed
    {"type": "emote", "kind": "cheer", "target": "M3"?}   a non-verbal emote, when allowed
    {"type": "ping"}                          -> {"type": "pong"}
    {"type": "back"}                          "I'm back": take my seat back from the bot playing it
    {"type": "vote_bot", "seat": S}           vote to hand idle seat S to a bot (every other human must)
    {"type": "kick", "seat": S}               host only: hand seat S to a bot now
    {"type": "rematch"}                       host only, once over: a new room with the same game and seats
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from cosmodeck.server.safejson import JsonError, loads

KIND_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"
TARGET_PATTERN = r"^[A-Za-z0-9_:.,-]{1,32}$"
SEAT_KEY_PATTERN = r"^[0-9]{1,2}$"  # ASCII digits only: "²".isdigit() is true but int("²") fails
MAX_JSON_DEPTH = 32  # default nesting limit of a client message or request body (ServerConfig.max_json_depth)


class ProtocolError(Exception):
    """A refused client message: ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}  # fields a client can act on, e.g. which action a stale_version refused

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}


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


class BackMsg(_Msg):
    type: Literal["back"]


class VoteMsg(_Msg):
    type: Literal["vote_bot"]
    seat: StrictInt


class KickMsg(_Msg):
    type: Literal["kick"]
    seat: StrictInt


class RematchMsg(_Msg):
    type: Literal["rematch"]


ClientMsg = ActMsg | StartMsg | ChatMsg | SignalMsg | EmoteMsg | PingMsg | BackMsg | VoteMsg | KickMsg | RematchMsg
_TYPES: dict[str, type[_Msg]] = {
    "act": ActMsg, "start": StartMsg, "chat": ChatMsg, "signal": SignalMsg, "emote": EmoteMsg, "ping": PingMsg,
    "back": BackMsg, "vote_bot": VoteMsg, "kick": KickMsg, "rematch": RematchMsg,
}


def parse_json(text: str | bytes, max_depth: int, what: str) -> Any:
    """Client JSON (a message or a body) parsed without recursion; ``bad_json`` / ``too_deep`` errors."""
    try:
        return loads(text, max_depth, what)
    except JsonError as e:
        raise ProtocolError(e.code, e.message) from None


def parse_client_message(text: str | bytes, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> ClientMsg:
    """Parse one frame; raise ``ProtocolError`` with a stable code on anything malformed."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_frame", "send JSON text frames, not binary")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"a message may be at most {max_bytes} bytes")
    obj = parse_json(text, max_depth, "the message")
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
    assert isinstance(msg, ActMsg | StartMsg | ChatMsg | SignalMsg | EmoteMsg | PingMsg | BackMsg | VoteMsg
                      | KickMsg | RematchMsg)
    return msg


# ---- REST ------------------------------------------------------------------------------------
SeatKey = Annotated[StrictStr, Field(pattern=SEAT_KEY_PATTERN)]
BotSpec = Annotated[StrictStr, Field(min_length=1, max_length=200)]
OptionName = Annotated[StrictStr, Field(min_length=1, max_length=64)]


class CreateRoom(BaseModel):
    """``POST /api/rooms`` body.

    ``options`` are option values; a game's card data (``options.data``) and file-valued options
    (Blast Off's ``missions``) are *documents*: the text itself (a string) or a JSON object,
    never the name of a file (see ``cosmodeck.server.rooms``).
    """

    model_config = ConfigDict(extra="forbid")

    game: Annotated[StrictStr, Field(max_length=64)]
    players: StrictInt
    bots: Annotated[dict[SeatKey, BotSpec], Field(max_length=16)] = Field(default_factory=dict)
    options: Annotated[dict[OptionName, Any], Field(max_length=64)] = Field(default_factory=dict)
    seed: StrictInt | None = None
    host: StrictInt | None = None  # the creator's seat (the host); default: the first human seat

