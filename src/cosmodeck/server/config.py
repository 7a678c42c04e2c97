"""Server settings (all have production defaults; tests shorten the delays)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerConfig:
    db: str | None = None  # SQLAlchemy URL or SQLite path; None = ./cosmodeck.db
    grace_s: float = 30.0  # a player gone this long has a bot take their seat until they return
    takeover_bot: str = "random"  # the bot that plays for a player who is gone
    bot_speed: float = 1.0  # bot reaction times are multiplied by this (tests: small)
    max_message: int = 4096  # bytes of one client message
    chat_max: int = 280  # characters of one chat line
    chat_history: int = 50  # chat lines resent to a client that (re)joins
    event_history: int = 100  # recent steps whose events are resent to a client that (re)joins (its log)
    talk_rate: float = 5.0  # talk messages per second a client may send (burst: twice that)
    keep_finished_s: float = 60.0  # a finished room stays in memory this long after its last client left
