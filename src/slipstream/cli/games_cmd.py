"""``slipstream games``: the registered games, their players, what each is like and its options."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

import slipstream

from .common import fail


def games_command(
    game_id: Annotated[str | None, typer.Argument(help="show only this game")] = None,
) -> None:
    """List the games with their player counts and status, then each game's description and options."""
    console = Console(highlight=False)
    known = slipstream.available_games()
    if game_id is not None and game_id not in known:
        raise fail(f"unknown game {game_id!r}; the games are: {', '.join(known)}")
    table = Table(title="Slipstream games")
    for col in ("id", "name", "players", "status"):
        table.add_column(col)
    for gid, cls in known.items():
        if game_id in (None, gid):
            table.add_row(gid, cls.name, f"{cls.min_players}-{cls.max_players}", cls.status)
    console.print(table)
    for gid, cls in known.items():
        if game_id not in (None, gid):
            continue
        console.print(f"\n[bold]{gid}[/]: {escape(cls.name)}")
        if cls.description:
            console.print(Padding(escape(cls.description), (0, 0, 0, 2), expand=False))
        console.print("  options (-o key=value):")
        for spec in cls.option_specs:
            choices = f" [{'|'.join(map(str, spec.choices))}]" if spec.choices else ""
            console.print(f"    [cyan]{spec.name}[/]={escape(str(spec.default))}{escape(choices)}  {escape(spec.help)}")


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
