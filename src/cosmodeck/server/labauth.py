"""The design lab's door: a lab token, exchanged once for an HttpOnly SameSite=Strict cookie.

``cosmodeck serve --lab`` makes a random token (or takes ``--lab-token`` / ``COSMODECK_LAB_TOKEN``) and
prints the lab's link with the token in the URL fragment (``/lab#token=...``), which a browser never
sends to a server or a proxy. The page posts the token to ``/api/lab/login``; the answer sets a cookie
holding a value derived from the token (HMAC-SHA256), never the token itself. Every other lab route
refuses a request without that cookie (401) or with a wrong one (403); scripts may send
``Authorization: Bearer TOKEN`` instead. State-changing requests must also come from the lab's own
origin (``Origin`` / ``Sec-Fetch-Site``): a page on another port of the same host is "same-site" for
SameSite cookies, but not same-origin. Comparisons are constant-time (``hmac.compare_digest`` of
fixed-length digests). The token lives only in this process's memory: no log line and no database row.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from urllib.parse import urlsplit

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request

from cosmodeck.server.guard import client_address
from cosmodeck.server.protocol import ProtocolError

COOKIE = "cosmodeck_lab"
ENV = "COSMODECK_LAB_TOKEN"
MIN_TOKEN = 16  # characters of a token given with --lab-token or the environment
MAX_TOKEN = 256
COOKIE_MAX_AGE_S = 7 * 24 * 3600
LOGIN_FAILURES = "10/minute"  # wrong tokens one client address may send to /api/lab/login
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class LabDenied(ProtocolError):
    """A lab request refused at the door, with its HTTP status (401 or 403, 429 for too many wrong tokens)."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(code, message)
        self.status = status


def new_token() -> str:
    """A fresh lab token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_problem(token: str) -> str | None:
    """Why a token given by the operator is unusable, or None."""
    if not MIN_TOKEN <= len(token) <= MAX_TOKEN:
        return f"must be {MIN_TOKEN} to {MAX_TOKEN} characters long"
    if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
        return "must be printable ASCII without spaces"
    return None


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class LabGate:
    """Checks every lab request; holds the token only as digests."""

    def __init__(self, token: str) -> None:
        self._token = _digest(token)
        self._session = hmac.new(token.encode("utf-8"), b"cosmodeck-lab-session-v1", hashlib.sha256).hexdigest()
        self._session_digest = _digest(self._session)
        self._failures = parse(LOGIN_FAILURES)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    @property
    def cookie_value(self) -> str:
        return self._session

    def token_ok(self, given: str) -> bool:
        return hmac.compare_digest(_digest(given), self._token)

    def login(self, request: Request, given: str) -> None:
        """Accept ``given`` as the lab token or raise ``LabDenied`` (wrong tokens are rate-limited per address)."""
        address = client_address(request)
        if not self._limiter.test(self._failures, "lab-login", address):
            reset = self._limiter.get_window_stats(self._failures, "lab-login", address).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            raise LabDenied("lab_login_limited", f"too many wrong lab tokens from your address; try again in "
                            f"{wait} s", 429)
        if not self.token_ok(given):
            self._limiter.hit(self._failures, "lab-login", address)
            raise LabDenied("lab_bad_token", "this is not the lab token: copy the lab link that "
                            "`cosmodeck serve --lab` printed", 403)

    def check(self, request: Request) -> None:
        """Raise ``LabDenied`` unless ``request`` carries the lab cookie or the token as a Bearer header,
        and, for a state-changing method, comes from the lab's own origin."""
        check_same_origin(request)
        auth = request.headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            if self.token_ok(auth[7:].strip()):
                return
            raise LabDenied("lab_bad_token", "the Bearer token is not the lab token", 403)
        cookie = request.cookies.get(COOKIE)
        if cookie is None:
            raise LabDenied("lab_login_required", "the design lab needs its token: open the lab link that "
                            "`cosmodeck serve --lab` printed (it ends in #token=...)", 401)
        if not hmac.compare_digest(_digest(cookie), self._session_digest):
            raise LabDenied("lab_bad_token", "this lab session is no longer valid (the server has a new lab "
                            "token): open the lab link that `cosmodeck serve --lab` printed", 403)


def check_same_origin(request: Request) -> None:
    """A POST (or any unsafe method) must come from a page of this very origin."""
    if request.method in SAFE_METHODS:
        return
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise LabDenied("lab_cross_site", "the lab accepts changes only from its own page", 403)
    origin = request.headers.get("origin")
    if origin is not None and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host", "")):
        raise LabDenied("lab_cross_site", "the lab accepts changes only from its own page", 403)
