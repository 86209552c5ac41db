"""``slipstream version`` names the build that runs."""

from __future__ import annotations

import platform

from typer.testing import CliRunner

import slipstream
from slipstream import _native
from slipstream.cli.main import app


def test_version_names_the_build_and_the_python() -> None:
    result = CliRunner().invoke(app, ["version"])
    assert result.exit_code == 0
    assert result.output == (f"slipstream {slipstream.__version__}\nbuild: {_native.mode}\n"
                             f"Python {platform.python_version()}\n")
    assert _native.mode in ("compiled", "pure") or _native.mode.startswith("pure (")
