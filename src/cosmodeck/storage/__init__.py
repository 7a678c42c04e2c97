"""Event-sourced room storage (SQLAlchemy): SQLite by default, PostgreSQL by URL."""

from cosmodeck.storage.repository import RoomRow, Step, Store, default_url

__all__ = ["RoomRow", "Step", "Store", "default_url"]
