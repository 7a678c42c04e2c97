"""Server settings (all have production defaults; tests shorten the delays)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ServerConfig:
    db: str | None = None  # SQLAlchemy URL or SQLite path; None = ./cosmodeck.db
    grace_s: float = 30.0  # a player gone this long has a bot take their seat until they return
    takeover_bot: str = "random"  # the bot that plays for a player who is gone
    turn_s: float = 60.0  # a human seat's turn timer in turn-based steps (0 = none); then a bot plays it
    idle_bot: str = "heuristic:level=normal"  # the bot that plays an idle (timed out, voted, kicked) seat
    bot_speed: float = 1.0  # bot reaction times are multiplied by this (tests: small)
    max_message: int = 4096  # bytes of one client message
    chat_max: int = 280  # characters of one chat line
    chat_history: int = 50  # chat lines resent to a client that (re)joins
    event_history: int = 100  # recent steps whose events are resent to a client that (re)joins (its log)
    talk_rate: float = 5.0  # talk messages per second a seat may send, over all its connections (burst: twice that)
    keep_finished_s: float = 60.0  # a finished room stays in memory this long after its last client left
    # ---- limits for a server open to the internet (docs/SERVER.md "Security and limits") ----
    room_rate: str = "10/minute"  # rooms one client address may create ("N/second|minute|hour|day"; "" = no limit)
    max_body: int = 1 << 20  # bytes of a request body (413 beyond; checked before the body is read)
    max_data: int = 512 * 1024  # bytes of one uploaded data document (card data, missions)
    max_json_depth: int = 32  # nesting levels of a request body or a client message (at most 200)
    act_rate: float = 10.0  # moves per second a seat may send, over all its connections (burst: twice that)
    message_rate: float = 40.0  # messages per second one connection may send, of any kind (burst: twice that)
    seat_connections: int = 4  # connections one seat may hold at once; a newer one closes the oldest
    spectators: int = 100  # spectator connections one room accepts at once
    build_timeout_s: float = 10.0  # seconds to validate uploaded data and build a room's game (off the event loop)
    waiting_ttl_s: float = 24 * 3600.0  # a room nobody started within this long expires (not resumed at start-up)
    bot_max_iters: int = 5000  # largest ismcts iters=... a room may ask for
    bot_max_ms: float = 5000.0  # largest ismcts ms=... (milliseconds per decision) a room may ask for
    bot_cpu_burst_s: float = 60.0  # CPU seconds a room's search bots may spend at once ...
    bot_cpu_rate: float = 0.25  # ... refilled at this many CPU seconds per second; when spent, a cheap bot moves
    ws_deflate: bool = False  # permessage-deflate on WebSockets: less bandwidth, much more CPU per frame
    # ---- several processes on one PostgreSQL database (docs/SERVER.md "Several server processes") ----
    public_url: str | None = None  # where clients reach this process (sent in redirects); None: no redirects
    lease_s: float = 10.0  # a process silent this long loses its room locks (PostgreSQL idle_session_timeout)
    scan_s: float = 1.0  # how often a process looks for rooms nobody runs (their process died) and resumes them
    lab: bool = False  # serve the design lab (/lab, /api/lab/...); off: those routes do not exist (404)
    # the lab's token (docs/LAB.md "Who may use the lab"); None: a random one nobody knows. Never in a repr or log.
    lab_token: str | None = field(default=None, repr=False)
