"""Limits at the door: room creation rate per client address, and request bodies read with a cap.

The rate limit uses the ``limits`` library (a moving window in memory, per address). The
address is the TCP peer, or, behind a reverse proxy that uvicorn trusts
(``--forwarded-allow-ips``), the client address the proxy forwards.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request

from cosmodeck.server.protocol import ProtocolError


class RateLimited(ProtocolError):
    """``too_many_rooms`` (HTTP 429) with the seconds to wait (``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("too_many_rooms", message)
        self.retry_after = retry_after


def parse_rate(rate: str) -> RateLimitItem | None:
    """``"10/minute"`` -> a rate; ``""`` -> no limit; anything else -> ``ValueError``."""
    if not rate.strip():
        return None
    item = parse(rate)
    if item.amount < 1:
        raise ValueError(f"rate {rate!r} allows nothing")
    return item


class RoomRate:
    """At most ``rate`` rooms per client address (a moving window)."""

    def __init__(self, rate: str) -> None:
        self.item = parse_rate(rate)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, address: str) -> None:
        if self.item is None:
            return
        if self._limiter.hit(self.item, "rooms", address):
            return
        reset = self._limiter.get_window_stats(self.item, "rooms", address).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise RateLimited(f"too many new rooms from your address (at most {self.item.amount} per "
                          f"{_per(self.item)}); try again in {wait} s", wait)


def _per(item: RateLimitItem) -> str:
    unit = str(item.GRANULARITY.name)
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused with 413 ``too_large`` before it is read when it is announced too
    large, and as soon as it grows past ``max_bytes`` when it is streamed without a length."""
    announced = request.headers.get("content-length")
    if announced is not None:
        if not announced.isascii() or not announced.isdigit():
            raise ProtocolError("bad_request", "the Content-Length header is not a number")
        if int(announced) > max_bytes:
            raise ProtocolError("too_large", f"a request body may be at most {max_bytes} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise ProtocolError("too_large", f"a request body may be at most {max_bytes} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
