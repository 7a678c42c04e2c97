"""The browser-play server: FastAPI + WebSockets over the public engine API (DESIGN.md "Server protocol")."""

from cosmodeck.server.app import create_app
from cosmodeck.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
