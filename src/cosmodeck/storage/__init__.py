"""Event-sourced room storage (SQLAlchemy): SQLite by default, PostgreSQL by URL."""

from cosmodeck.storage.errors import RoomLost, StorageError, StorageUnavailable, StoreRefused
from cosmodeck.storage.repository import RoomRow, Step, Store, default_url

__all__ = ["RoomLost", "RoomRow", "Step", "StorageError", "StorageUnavailable", "Store", "StoreRefused",
           "default_url"]
