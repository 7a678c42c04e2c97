"""Server test fixtures: the toy game registered, a real server on 127.0.0.1 per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cosmodeck.server import ServerConfig
from tests.server.toy_game import toy_registered
from tests.server.util import serve_in_thread


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    """The toy game exists only during server tests (other tests iterate over the registry)."""
    with toy_registered():
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "rooms.db")


@pytest.fixture
def server(db_path: str) -> Iterator[str]:
    # tests create many rooms from one address: no room rate here (test_limits_caps tests it)
    with serve_in_thread(ServerConfig(db=db_path, bot_speed=0.02, grace_s=30.0, room_rate="")) as base:
        yield base


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    from tests.pg import postgres_server

    with postgres_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_admin: str) -> str:
    from tests.pg import fresh_database

    return fresh_database(postgres_admin)
