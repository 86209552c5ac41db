"""``slipstream games``: the registered games, their players and options."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

import slipstream


def games_command() -> None:
    """List the games with their player counts, status and options."""
    table = Table(title="Slipstream games")
    for col in ("id", "name", "players", "status", "options"):
        table.add_column(col)
    for gid, cls in slipstream.available_games().items():
        opts = ", ".join(
            f"{s.name}={s.default}" + (f" ({'/'.join(map(str, s.choices))})" if s.choices else "")
            for s in cls.option_specs
        )
        table.add_row(gid, cls.name, f"{cls.min_players}-{cls.max_players}", cls.status, opts)
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
