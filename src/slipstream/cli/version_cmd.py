"""``slipstream version``: the package version, which build runs (compiled or pure Python) and the Python."""

from __future__ import annotations

import platform

import typer

import slipstream
from slipstream import _native


def version_command() -> None:
    """Show the version, whether the compiled modules run (see SLIPSTREAM_PURE) and the Python."""
    typer.echo(f"slipstream {slipstream.__version__}\nbuild: {_native.mode}\nPython {platform.python_version()}")


def register(app: typer.Typer) -> None:
    app.command("version")(version_command)
