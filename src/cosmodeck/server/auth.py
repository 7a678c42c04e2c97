"""Seat tokens: never in a URL, never in a log, never stored in plain text.

A client opens ``/ws/ROOM`` (no query) and its first message is ``{"type": "auth", "token": T}``
(``null`` or no token: a spectator). The server keeps only the SHA-256 of each token; a token is a
random 128-bit secret, so a plain hash is enough (there is nothing to guess or brute-force).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from cosmodeck.server.protocol import MAX_JSON_DEPTH, ProtocolError, parse_json

AUTH_TIMEOUT_S = 10.0  # a socket that has not authenticated by then is closed
TOKEN_KEY = "token_sha256"


class AuthMsg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["auth"]
    token: Annotated[StrictStr, Field(max_length=256)] | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored_hash)


def parse_auth(text: str | bytes | None, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> AuthMsg:
    """The first client message; ``ProtocolError('auth_required' | 'bad_message', ...)`` otherwise."""
    if not isinstance(text, str):
        raise ProtocolError("auth_required", 'send {"type": "auth", "token": ...} first, as a JSON text frame')
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("too_large", f"a message may be at most {max_bytes} bytes")
    obj = parse_json(text, max_depth, "the first message")
    if not isinstance(obj, dict) or obj.get("type") != "auth":
        raise ProtocolError("auth_required", 'the first message must be {"type": "auth", "token": ...}')
    try:
        return AuthMsg.model_validate(obj)
    except ValidationError:
        raise ProtocolError("bad_message", "malformed auth message: token must be a string or null") from None


def seat_hashes(seats: dict[str, dict[str, str]]) -> tuple[dict[str, dict[str, str]], bool]:
    """Seats with every plain token (rooms stored by old versions) replaced by its hash; True if any was."""
    out: dict[str, dict[str, str]] = {}
    changed = False
    for key, seat in seats.items():
        if "token" in seat:
            out[key] = {TOKEN_KEY: hash_token(seat["token"])}
            changed = True
        else:
            out[key] = dict(seat)
    return out, changed


# ---- logs ------------------------------------------------------------------------------------
_SECRETS = re.compile(r"""(token["']?\s*[=:]\s*["']?)([^\s"'&#,}]+)""", re.IGNORECASE)


def redact(text: str) -> str:
    """Hide every ``token=...`` / ``"token": "..."`` value (URLs, frames, reprs)."""
    return _SECRETS.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """A logging filter that rewrites any record whose text carries a token (uvicorn's handshake line
    with a query a client should not have sent, a websockets debug frame, an exception message)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: let logging report it as usual
            return True
        if redact(message) != message:
            if isinstance(record.msg, str):
                record.msg = redact(record.msg)
            if isinstance(record.args, tuple):  # keep the args' types: formatters (uvicorn's access log) read them
                record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
            try:
                still = record.getMessage()
            except Exception:
                still = message
            if redact(still) != still:
                record.msg, record.args = redact(still), None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def install_log_redaction() -> None:
    """Attach ``RedactTokens`` to every handler of the root logger and of uvicorn's and websockets' loggers."""
    flt = RedactTokens()
    names = ["", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "websockets.server",
             "websockets.protocol", "cosmodeck"]
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(flt)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(flt)
