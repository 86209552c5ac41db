"""Fixtures for the simulator tests: Toy Dash (tests/toygame.py) registered for the test's duration."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import toygame


@pytest.fixture
def toy() -> Iterator[str]:
    """Register Toy Dash (its hooks declared on the game); its game id."""
    toygame.install()
    yield toygame.ToyDash.id
    toygame.uninstall()
