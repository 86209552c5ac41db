"""The ``slipstream`` command. Commands live in the modules of this package (``register(app)``)."""

from __future__ import annotations

import importlib
import pkgutil

import typer

import slipstream.cli as cli_pkg

from .common import OneLineErrors

app = typer.Typer(
    name="slipstream",
    cls=OneLineErrors,
    help="Slipstream: play, analyse and build on tabletop racing games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _info in sorted(pkgutil.iter_modules(cli_pkg.__path__), key=lambda m: m.name):
    if _info.name == "main":
        continue
    _module = importlib.import_module(f"{cli_pkg.__name__}.{_info.name}")
    _register = getattr(_module, "register", None)
    if callable(_register):
        _register(app)


if __name__ == "__main__":  # pragma: no cover
    app()
