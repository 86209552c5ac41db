"""Fixtures for the simulator tests: the tiny dice race registered for the test's duration."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sim import tiny_game


@pytest.fixture
def tiny() -> Iterator[str]:
    """Register the tiny race (and its bot and metrics modules); its game id."""
    tiny_game.install()
    yield tiny_game.TinyRace.id
    tiny_game.uninstall()
