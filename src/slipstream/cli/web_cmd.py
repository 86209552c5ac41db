"""``slipstream serve``: the game server and browser UI (FastAPI + uvicorn)."""

from __future__ import annotations

import typer


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
) -> None:
    """Play in the browser: start the server and print the URL to open."""
    import uvicorn

    from slipstream.web.app import create_app

    app = create_app(database_url, bot_delay=bot_delay, plugins=plugins or None)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Slipstream is running: open http://{shown}:{port}/ in your browser (Ctrl+C stops it)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
