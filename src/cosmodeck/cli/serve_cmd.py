"""``cosmodeck serve``: browser play (FastAPI + WebSockets on uvicorn); SQLite file by default."""

from __future__ import annotations

import argparse
import logging
from typing import Any


def add_parser(sub: Any) -> None:
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
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from cosmodeck.server.app import create_app
    from cosmodeck.server.config import ServerConfig
    from cosmodeck.storage import Store, StoreRefused

    if args.grace < 0 or args.bot_speed < 0:
        raise SystemExit("cosmodeck serve: --grace and --bot-speed must not be negative")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(db=args.db, grace_s=args.grace, bot_speed=args.bot_speed)
    try:  # refuse to start on a database this server cannot write or that another server owns
        store = Store(config.db)
        store.claim()
    except StoreRefused as e:
        raise SystemExit(f"cosmodeck serve: {e.message}") from None
    app = create_app(config, store)
    print(f"cosmodeck: serving on http://{args.host}:{args.port}/ (database: {store.safe_url})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False,
                ws_max_size=1 << 16)
    return 0
