"""What every command shares: one-line errors with exit code 2, and ``-o key=value`` options.

An error is one line on stderr, never wrapped (whatever the terminal's width, or none), never a traceback:
``error: <what is wrong and what is valid>``. Bad input exits with code 2.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

errors = Console(stderr=True, soft_wrap=True, highlight=False)


def one_line(message: str) -> str:
    """``message`` on one line: inner line breaks become ``; ``."""
    return "; ".join(part.strip() for part in str(message).splitlines() if part.strip())


def describe_os_error(exc: OSError) -> str:
    """``/tmp: is a directory`` rather than ``[Errno 21] Is a directory: '/tmp'``."""
    if exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror[:1].lower()}{exc.strerror[1:]}"
    return str(exc) or type(exc).__name__


def message_of(exc: BaseException) -> str:
    """The one-line message of an error the user caused."""
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"not a text file ({exc.reason})"
    return str(exc) or type(exc).__name__


def fail(message: str | BaseException, code: int = 2) -> typer.Exit:
    """Print ``error: message`` as one line on stderr; the ``typer.Exit`` to raise."""
    text = message_of(message) if isinstance(message, BaseException) else message
    errors.print(f"[bold red]error:[/] {escape(one_line(text))}")
    return typer.Exit(code)


def parse_options(items: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """``["laps=4", "track=A"]`` -> ``{"laps": "4", "track": "A"}`` (the game converts the values)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad option {item!r}: write KEY=VALUE, e.g. -o laps=4")
        out[key.strip()] = value.strip()
    return out
