"""``slipstream serve``: the game server and browser UI (FastAPI + uvicorn).

Everything that can stop it is checked before it says it is running: the port (a number from 1 to 65535,
free on that address), the plugins and the database (reachable, writable). Each failure is one line and
exit code 2.
"""

from __future__ import annotations

import socket
from typing import Any

import typer

from .common import fail, message_of

CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server before giving up (``connect_timeout`` in the URL overrides)."""


def with_connect_timeout(url: str) -> str:
    """A PostgreSQL URL with a ``connect_timeout``, so an unreachable server is an error, not a hang."""
    if not url.startswith(("postgresql://", "postgres://")) or "connect_timeout=" in url:
        return url
    return f"{url}{'&' if '?' in url else '?'}connect_timeout={CONNECT_TIMEOUT}"


def database_problem(exc: BaseException) -> str:
    """The first line of what the database driver said (SQLAlchemy wraps it in its own long text)."""
    cause = getattr(exc, "orig", None) or exc.__cause__ or exc
    text = str(cause).strip().splitlines()
    return text[0] if text else type(cause).__name__


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (so a port in use is refused before the server says it runs)."""
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be from 1 to 65535, not {port}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ValueError(f"cannot listen on {host}:{port}: {message_of(exc)}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        reason = (exc.strerror or str(exc)).lower()
        hint = " (another server is running there: choose another --port)" if exc.errno == 98 else ""
        raise ValueError(f"cannot listen on {host}:{port}: {reason}{hint}") from None
    return sock


def serve_command(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    database_url: str = typer.Option(
        "slipstream.sqlite3",
        "--database-url",
        help="A SQLite file path (default: ./slipstream.sqlite3) or a postgresql://user@host/db URL.",
    ),
    bot_delay: float = typer.Option(0.6, help="Seconds a bot waits before moving, so people can follow."),
    plugins: str = typer.Option(
        "", help="Comma-separated modules to import first (they may register games)."
    ),
    forwarded_allow_ips: str = typer.Option(
        "",
        "--forwarded-allow-ips",
        help="Comma-separated addresses or networks of the reverse proxies whose X-Forwarded-For names the "
        "client (the per-address limits then count players, not the proxy); default: none.",
    ),
) -> None:
    """Play in the browser: start the server and print the URL to open."""
    from sqlalchemy.exc import SQLAlchemyError

    from slipstream.web.app import create_app
    from slipstream.web.serve import run, trusted_proxies

    try:
        if not bot_delay >= 0:
            raise ValueError(f"--bot-delay must be 0 or more seconds, not {bot_delay}")
        trusted_proxies(forwarded_allow_ips)
        sock = listen(host, port)
    except ValueError as exc:
        raise fail(exc) from None
    try:
        app: Any = create_app(with_connect_timeout(database_url), bot_delay=bot_delay, plugins=plugins or None)
    except SQLAlchemyError as exc:
        sock.close()
        raise fail(f"cannot open the database {database_url}: {database_problem(exc)}") from None
    except (ImportError, ValueError, OSError) as exc:
        sock.close()
        raise fail(exc) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Slipstream is running: open http://{shown}:{port}/ in your browser (Ctrl+C stops it)")
    run(app, host, port, sockets=[sock], forwarded_allow_ips=forwarded_allow_ips)  # every limit of docs/web.md


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
