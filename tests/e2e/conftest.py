"""Fixtures of the real-browser tests: a server, Debian's Chromium through Playwright, and a
directory for screenshots."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.e2e.browser import ARGS, CHROMIUM
from tests.web.server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("e2e")
    srv = Server(str(tmp / "e2e.sqlite3"), tmp / "server.log").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    base = os.environ.get("SLIPSTREAM_ARTIFACTS")
    out = Path(base) / "e2e" if base else tmp_path / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out
