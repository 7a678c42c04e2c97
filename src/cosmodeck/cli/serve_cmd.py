"""``cosmodeck serve``: browser play (FastAPI + WebSockets on uvicorn); SQLite file by default.

The limits for a server open to the internet are flags here and fields of ``ServerConfig``;
docs/SERVER.md "Security and limits" explains each one and its default.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
from typing import Any


def _defaults() -> dict[str, Any]:
    from cosmodeck.server.config import ServerConfig

    return {f.name: f.default for f in dataclasses.fields(ServerConfig)}


def add_parser(sub: Any) -> None:
    d = _defaults()
    p = sub.add_parser("serve", help="serve browser play: rooms, invite links, bots, replays")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None,
                   help="database: an SQLAlchemy URL (postgresql://user@host/db) or an SQLite file path "
                        "(default ./cosmodeck.db)")
    p.add_argument("--grace", type=float, default=30.0,
                   help="seconds a player may be gone before a bot plays their seat (default 30)")
    p.add_argument("--bot-speed", type=float, default=1.0,
                   help="multiplies bot reaction times (default 1; tests use small values)")
    p.add_argument("--turn-timer", type=float, default=d["turn_s"],
                   help=f"seconds a player has for a turn-based step before a bot plays their seat until they "
                        f"act again; 0 for none (default {d['turn_s']:g})")
    p.add_argument("--lab", action="store_true",
                   help="also serve the design lab at /lab: edit card data, run simulate/compare in worker "
                        "processes (off by default; docs/LAB.md)")
    p.add_argument("--lab-token", default=None,
                   help="the lab's token (at least 16 characters); default: the COSMODECK_LAB_TOKEN environment "
                        "variable, or a new random token printed with the lab's link. Prefer the variable: "
                        "a command line is visible to every user of the machine")
    multi = p.add_argument_group("several processes on one PostgreSQL database (docs/SERVER.md)")
    multi.add_argument("--public-url", default=None,
                       help="where clients reach this process, e.g. https://example.org/s1: a process that does "
                            "not run a room redirects its clients here (default: none, they are asked to retry)")
    multi.add_argument("--lease", type=float, default=d["lease_s"],
                       help=f"seconds a silent (hung, cut off) process keeps its rooms before another resumes "
                            f"them (default {d['lease_s']:g}); a process that exits loses them at once")
    multi.add_argument("--scan", type=float, default=d["scan_s"],
                       help=f"seconds between looks for rooms no process runs (default {d['scan_s']:g})")
    p.add_argument("--ws-deflate", action="store_true",
                   help="compress WebSocket frames (permessage-deflate): less bandwidth, but every frame is compressed "
                        "for every client, about a tenth of the server's CPU under load (off by default)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    lim = p.add_argument_group("limits (see docs/SERVER.md, Security and limits)")
    lim.add_argument("--room-rate", default=d["room_rate"],
                     help=f"rooms one client address may create, e.g. 10/minute, 100/day; '' for no limit "
                          f"(default {d['room_rate']})")
    lim.add_argument("--forwarded-allow-ips", default="127.0.0.1",
                     help="proxies trusted to tell the client address (X-Forwarded-For), comma-separated, "
                          "for the per-address limit behind a reverse proxy (default 127.0.0.1)")
    lim.add_argument("--max-body", type=int, default=d["max_body"],
                     help=f"bytes of a request body (default {d['max_body']})")
    lim.add_argument("--max-data", type=int, default=d["max_data"],
                     help=f"bytes of an uploaded card data or missions document (default {d['max_data']})")
    lim.add_argument("--max-message", type=int, default=d["max_message"],
                     help=f"bytes of one WebSocket message from a client (default {d['max_message']})")
    lim.add_argument("--max-json-depth", type=int, default=d["max_json_depth"],
                     help=f"nesting levels of a body or message, at most 200 (default {d['max_json_depth']})")
    lim.add_argument("--act-rate", type=float, default=d["act_rate"],
                     help=f"moves per second one seat may send over all its connections, bursts of twice that "
                          f"(default {d['act_rate']:g})")
    lim.add_argument("--talk-rate", type=float, default=d["talk_rate"],
                     help=f"chat lines, signals and emotes per second one seat may send, bursts of twice that "
                          f"(default {d['talk_rate']:g})")
    lim.add_argument("--message-rate", type=float, default=d["message_rate"],
                     help=f"messages of any kind per second one connection may send, bursts of twice that; "
                          f"beyond it they are dropped unread (default {d['message_rate']:g})")
    lim.add_argument("--seat-connections", type=int, default=d["seat_connections"],
                     help=f"connections one seat may hold at once: a newer one closes the oldest "
                          f"(default {d['seat_connections']})")
    lim.add_argument("--spectators", type=int, default=d["spectators"],
                     help=f"spectator connections one room accepts at once (default {d['spectators']})")
    lim.add_argument("--waiting-ttl", type=float, default=d["waiting_ttl_s"],
                     help=f"seconds before a room nobody started expires (default {d['waiting_ttl_s']:g})")
    lim.add_argument("--keep-finished", type=float, default=d["keep_finished_s"],
                     help=f"seconds a finished room stays in memory after its last client left "
                          f"(default {d['keep_finished_s']:g}); it stays readable from the database")
    lim.add_argument("--bot-max-iters", type=int, default=d["bot_max_iters"],
                     help=f"largest ismcts iters=... a room may ask for (default {d['bot_max_iters']})")
    lim.add_argument("--bot-max-ms", type=float, default=d["bot_max_ms"],
                     help=f"largest ismcts ms=... per decision (default {d['bot_max_ms']:g})")
    lim.add_argument("--bot-cpu-burst", type=float, default=d["bot_cpu_burst_s"],
                     help=f"CPU seconds a room's search bots may spend at once (default {d['bot_cpu_burst_s']:g})")
    lim.add_argument("--bot-cpu-rate", type=float, default=d["bot_cpu_rate"],
                     help=f"CPU seconds per second that refill that budget (default {d['bot_cpu_rate']:g})")
    p.set_defaults(func=run)


def config_from_args(args: argparse.Namespace) -> Any:
    """The ``ServerConfig`` the flags describe; ``SystemExit`` with a clear message on a bad value."""
    import math

    from cosmodeck.server.config import ServerConfig
    from cosmodeck.server.guard import parse_rate

    def bad(flag: str, why: str) -> SystemExit:
        return SystemExit(f"cosmodeck serve: {flag} {why}")

    for flag, value in (("--grace", args.grace), ("--bot-speed", args.bot_speed), ("--turn-timer", args.turn_timer),
                        ("--keep-finished", args.keep_finished), ("--bot-cpu-burst", args.bot_cpu_burst),
                        ("--bot-cpu-rate", args.bot_cpu_rate)):
        if not math.isfinite(value) or value < 0:
            raise bad(flag, "must be a finite number, not negative")
    for flag, value in (("--lease", args.lease), ("--scan", args.scan), ("--max-body", args.max_body),
                        ("--max-data", args.max_data),
                        ("--max-message", args.max_message), ("--bot-max-iters", args.bot_max_iters),
                        ("--waiting-ttl", args.waiting_ttl), ("--bot-max-ms", args.bot_max_ms),
                        ("--act-rate", args.act_rate), ("--talk-rate", args.talk_rate),
                        ("--message-rate", args.message_rate), ("--seat-connections", args.seat_connections)):
        if not math.isfinite(value) or value <= 0:
            raise bad(flag, "must be a positive finite number")
    if args.spectators < 0:
        raise bad("--spectators", "must not be negative")
    if not 1 <= args.max_json_depth <= 200:
        raise bad("--max-json-depth", "must be between 1 and 200")
    if args.max_data > args.max_body:
        raise bad("--max-data", "must not exceed --max-body (the document travels in the body)")
    try:
        parse_rate(args.room_rate)
    except ValueError as e:
        raise bad("--room-rate", f"is not a rate like 10/minute: {e}") from None
    lab_token = lab_token_of(args)
    return ServerConfig(db=args.db, grace_s=args.grace, bot_speed=args.bot_speed, max_message=args.max_message,
                        turn_s=args.turn_timer,
                        keep_finished_s=args.keep_finished, room_rate=args.room_rate, max_body=args.max_body,
                        max_data=args.max_data, max_json_depth=args.max_json_depth,
                        waiting_ttl_s=args.waiting_ttl, bot_max_iters=args.bot_max_iters,
                        bot_max_ms=args.bot_max_ms, bot_cpu_burst_s=args.bot_cpu_burst,
                        bot_cpu_rate=args.bot_cpu_rate, ws_deflate=args.ws_deflate, lab=args.lab,
                        lab_token=lab_token, public_url=_public_url(args.public_url), lease_s=args.lease,
                        scan_s=args.scan, act_rate=args.act_rate, talk_rate=args.talk_rate,
                        message_rate=args.message_rate, seat_connections=args.seat_connections,
                        spectators=args.spectators)


def lab_token_of(args: argparse.Namespace) -> str | None:
    """The lab's token: ``--lab-token``, else ``COSMODECK_LAB_TOKEN``, else a new random one (None without --lab)."""
    import os

    from cosmodeck.server.labauth import ENV, new_token, token_problem

    given, source = args.lab_token, "--lab-token"
    if given is None:
        given, source = os.environ.get(ENV) or None, ENV
    if given is None:
        return new_token() if args.lab else None
    if not args.lab:  # the variable may stay in the environment of a server without the lab
        if source == ENV:
            return None
        raise SystemExit("cosmodeck serve: --lab-token needs --lab")
    problem = token_problem(given)
    if problem is not None:
        raise SystemExit(f"cosmodeck serve: the lab token ({source}) {problem}")
    return str(given)


def _public_url(url: str | None) -> str | None:
    if url is None:
        return None
    url = url.rstrip("/")
    if not url.startswith(("http://", "https://")) or "?" in url or "#" in url:
        raise SystemExit("cosmodeck serve: --public-url must be an http:// or https:// base URL, "
                         "e.g. https://example.org/s1")
    return url


def _tune_gc() -> None:
    """The collector's policy for a long-running server (its p99 latency): ``server.gcpolicy``."""
    from cosmodeck.server import gcpolicy

    gcpolicy.tune()


def run(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    from cosmodeck.server.app import create_app
    from cosmodeck.server.labauth import ENV
    from cosmodeck.storage import Store, StoreRefused

    config = config_from_args(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:  # refuse to start on a database this server cannot write or that another server owns
        store = Store(config.db)
        store.claim()
    except StoreRefused as e:
        raise SystemExit(f"cosmodeck serve: {e.message}") from None
    app = create_app(config, store)
    print(f"cosmodeck: serving on http://{args.host}:{args.port}/ (database: {store.safe_url})", flush=True)
    if config.lab:  # printed, never logged: the link is what the person opens (docs/LAB.md)
        link = f"http://{args.host}:{args.port}/lab"
        if args.lab_token is None and not os.environ.get(ENV):
            print(f"cosmodeck: design lab on {link}#token={config.lab_token}", flush=True)
        else:
            print(f"cosmodeck: design lab on {link} (token from {'--lab-token' if args.lab_token else ENV}; "
                  f"open {link}#token=YOUR_TOKEN)", flush=True)
    _tune_gc()
    # ws_max_size: uvicorn closes a connection whose frame exceeds it (1009); the room's own limit is
    # max_message (an error frame, the socket kept open), so the transport allows somewhat more.
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False,
                ws_max_size=max(1 << 16, 4 * config.max_message), proxy_headers=True,
                forwarded_allow_ips=args.forwarded_allow_ips, ws_per_message_deflate=config.ws_deflate)
    return 0
