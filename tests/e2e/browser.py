"""What the real-browser tests share: where Chromium is, how it starts, and ``watch``."""

from __future__ import annotations

from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def watch(page: Page, errors: list[str], paced: bool = False) -> Page:
    """The page's uncaught errors and console errors go to ``errors``; bot and dice steps are shown
    as soon as they come (the page's pace set to instant) unless ``paced``."""
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if not paced:
        page.add_init_script("localStorage.setItem('slipstream:speed', 'instant')")
    page.set_default_timeout(30_000)
    return page


