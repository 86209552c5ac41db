"""Fixtures for the web tests: a real server process on a real SQLite file, Toy Dash registered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import toygame
from tests.web.server import Api, Server
from tests.web.test_postgres import pg_database  # noqa: F401 - the fixture, asked for by database_url

ROOMY = {
    "SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "100000",
    "SLIPSTREAM_LIMIT_OPEN_MATCHES_PER_ADDRESS": "100000",
    "SLIPSTREAM_LIMIT_RUNNING_MATCHES_PER_ADDRESS": "100000",
}
"""The shared test server lets one client create and run many matches (test_attacks and test_hostile
check the limits)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module (a fresh SQLite file in a temporary directory); stopped after."""
    tmp: Path = tmp_path_factory.mktemp("web")
    srv = Server(str(tmp / "slipstream.sqlite3"), tmp / "server.log", env=ROOMY).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = server.client()
    yield client
    client.http.close()


@pytest.fixture
def toy() -> Iterator[str]:
    """Toy Dash registered in this process for the test's duration."""
    toygame.install()
    yield toygame.ToyDash.id
    toygame.uninstall()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or one on the test PostgreSQL server (``pg_database``)."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    url: str = request.getfixturevalue("pg_database")
    return url
