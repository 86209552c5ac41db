"""``slipstream new-game ID``: a new game's package, written from templates in the shape every game shares.

The package is a tiny playable 2-player race (``game_template/*.tmpl``): ``game.py``, ``types.py``,
``state.py``, ``rules.py``, ``notation.py`` and two optional hook modules, ``render.py`` and ``metrics.py``
(``docs/adding-a-game.md``). Written into the games' own folder, the registry finds it at once.
"""

from __future__ import annotations

import keyword
import re
from importlib import resources
from pathlib import Path
from string import Template
from typing import Annotated

import typer

import slipstream
import slipstream.games

from .common import fail

GAME_ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
"""A game id: lower-case words of letters and digits joined by single hyphens, starting with a letter."""

TEMPLATES = "game_template"


def package_name(game_id: str) -> str:
    """The new package's folder: the id with underscores for hyphens (``dice-dash`` -> ``dice_dash``).
    Used only to name the folder written here: nothing finds a game's modules from its id."""
    return game_id.replace("-", "_")


def refusal(game_id: str, into: Path) -> str | None:
    """Why ``game_id`` cannot be made in ``into``, or None."""
    if not GAME_ID.fullmatch(game_id):
        return (f"{game_id!r} is not a game id: use lower-case letters and digits in words joined by hyphens, "
                "starting with a letter (dice-dash)")
    package = package_name(game_id)
    if keyword.iskeyword(package):
        return f"{game_id!r} is a Python keyword: choose another id"
    if game_id in slipstream.available_games():
        return f"{game_id!r} is taken: the games are {', '.join(slipstream.available_games())}"
    if (into / package).exists():
        return f"{into / package} exists already"
    if into.exists() and not into.is_dir():
        return f"{into}: not a folder"
    return None


def scaffold(game_id: str, into: Path) -> list[Path]:
    """Write the new game's package into ``into`` (checked by ``refusal`` first); the files written."""
    words = game_id.split("-")
    values = {"game_id": game_id, "name": " ".join(word.capitalize() for word in words),
              "title": "".join(word.capitalize() for word in words)}
    package = into / package_name(game_id)
    package.mkdir(parents=True)
    written = []
    for template in sorted(resources.files(__package__).joinpath(TEMPLATES).iterdir(), key=lambda t: t.name):
        if template.name.endswith(".tmpl"):
            path = package / template.name.removesuffix(".tmpl")
            path.write_text(Template(template.read_text(encoding="utf-8")).substitute(values), encoding="utf-8")
            written.append(path)
    return written


def new_game_command(
    game_id: Annotated[str, typer.Argument(metavar="ID", help="the new game's id, e.g. dice-dash")],
    into: Annotated[Path | None, typer.Option(help="the folder to write the package into (default: the "
                                                   "games' own folder, where the registry finds it)")] = None,
) -> None:
    """Write a new game's package: a tiny playable 2-player race in the shape every game shares."""
    folder = into if into is not None else Path(next(iter(slipstream.games.__path__)))
    problem = refusal(game_id, folder)
    if problem is not None:
        raise fail(problem)
    try:
        written = scaffold(game_id, folder)
    except OSError as exc:
        raise fail(exc) from None
    package = written[0].parent
    typer.echo(f"wrote {package} ({len(written)} files): {', '.join(path.name for path in written)}")
    found = [Path(path).resolve() for path in slipstream.games.__path__]
    if folder.resolve() not in found:
        typer.echo(f"the registry finds games in {', '.join(map(str, found))}: move the package there, or add "
                   "its folder to slipstream.games.__path__ before the games are listed")
    typer.echo(f"next: PYTHONPATH=src python scripts/make_golden.py {game_id}, then docs/adding-a-game.md")


def register(app: typer.Typer) -> None:
    app.command("new-game")(new_game_command)
