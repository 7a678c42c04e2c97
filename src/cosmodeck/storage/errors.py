"""Storage failures the server turns into clear answers instead of crashes."""

from __future__ import annotations


class StorageError(Exception):
    """Base class: ``message`` is for people (it never contains a token)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StorageUnavailable(StorageError):
    """A write did not happen (database locked past its busy timeout, server down, read-only file).

    Nothing was stored: the caller keeps its previous state and may retry later.
    """


class RoomLost(StorageError):
    """This server may no longer write the room: another server owns it, or the stored steps moved on.

    The caller must drop the room from memory; loading it again from storage gives the truth.
    """


class StoreRefused(StorageError):
    """The database cannot be used by this server at all (read-only, or owned by another process)."""
