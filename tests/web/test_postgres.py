"""The PostgreSQL path: a real server process on a real PostgreSQL server ($SLIPSTREAM_TEST_PG_URL,
which .ci/run starts on loopback). Skipped only when no server is reachable and CI is not set."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import Server

pytestmark = pytest.mark.postgres

PG_URL = os.environ.get("SLIPSTREAM_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def reachable(url: str) -> str | None:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return None
    except Exception as exc:
        return str(exc)


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh database on the test server, dropped afterwards."""
    problem = reachable(PG_URL)
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: PostgreSQL at {PG_URL} is not reachable: {problem}")
        pytest.skip(f"no PostgreSQL server reachable at {PG_URL} (set SLIPSTREAM_TEST_PG_URL): {problem}")
    import psycopg

    name = f"slipstream_web_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, _db = PG_URL.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_postgres_server_plays_persists_and_resumes_after_sigkill(pg_database: str, tmp_path: Path) -> None:
    srv = Server(pg_database, tmp_path / "pg1.log").start()
    try:
        api = srv.client()
        mid, _host, tokens = api.new_match(players=3, humans=2, public=True)
        st = api.wait(mid, tokens[0], lambda s: s["legal"])
        api.ok(
            "POST",
            f"/api/matches/{mid}/actions",
            tokens[0],
            json={"action": "0:walk", "ply": st["ply"], "id": "k"},
        )
        api.wait(mid, None, lambda s: s["actor"]["kind"] != "chance")
        before = [api.state(mid, t) for t in (None, *tokens)]
        status, body = api.call(
            "POST",
            f"/api/matches/{mid}/actions",
            tokens[0],
            json={"action": "0:walk", "ply": st["ply"], "id": "k"},
        )
        assert (status, body["error"]["code"]) == (409, "duplicate")
        srv.kill()
        srv = Server(pg_database, tmp_path / "pg2.log").start()
        api = srv.client()
        after = [api.state(mid, t) for t in (None, *tokens)]
        assert after == before, "the match resumes exactly where it was, for every seat"
        final = api.play_out(mid, tokens)
        assert final["match"]["status"] == "finished"
        record = api.ok("GET", f"/api/matches/{mid}/record")
        assert len(record["actions"]) == final["ply"] and record["game"] == "toy-dash"
        assert mid in [m["id"] for m in api.ok("GET", "/api/matches?status=finished")]
    finally:
        srv.stop()
