"""What every command shares: one-line errors with exit code 2, and ``-o key=value`` options.

An error is one line on stderr, never wrapped (whatever the terminal's width, or none), never a traceback:
``error: <what is wrong and what is valid>``. Bad input exits with code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

try:  # Typer 0.29 and later carry their own copy of Click: its errors are that copy's
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - an older Typer, on Click itself
    from click import ClickException  # type: ignore[assignment]

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
    """``["laps=4", "track=A"]`` -> ``{"laps": "4", "track": "A"}`` (the game converts the values); an option
    given twice is refused (which one was meant?)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad option {item!r}: write KEY=VALUE, e.g. -o laps=4")
        key = key.strip()
        if key in out:
            raise ValueError(f"option {key!r} is given twice (-o {key}={out[key]} and -o {item.strip()}): give it once")
        out[key] = value.strip()
    return out


def usage_error(exc: ClickException) -> str:
    """Click's own error (a malformed number, an unknown option, a missing argument) as one line that
    says where to find the valid input: ``no such option: --job (Possible options: --jobs, --out); see
    slipstream simulate --help``."""
    text = one_line(exc.format_message())
    text = text[:1].lower() + text[1:]
    ctx: Any = getattr(exc, "ctx", None)
    if ctx is None:
        return text
    names = []
    while ctx is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    path = " ".join(["slipstream", *reversed(names[:-1])])  # the outermost name is how Python ran it
    return f"{text.rstrip('.')}; see {path} --help"


class OneLineErrors(TyperGroup):
    """The ``slipstream`` command group: Click's and Typer's own parse errors (``-n abc``, ``--job 2``, a
    missing argument) are printed like every other error, ``error: ...`` on one line with exit code 2,
    instead of Typer's boxed usage text."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
        except ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # the help was printed: nothing to add
                code = exc.exit_code
            else:
                errors.print(f"[bold red]error:[/] {escape(usage_error(exc))}")
                code = exc.exit_code
            if not standalone_mode:
                raise
        except typer.Abort:
            if not standalone_mode:
                raise
            errors.print("Aborted.")
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)
