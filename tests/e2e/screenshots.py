"""The screenshots in docs/screenshots/: each game at the start, mid-race and at the end, on a laptop
(Ann, seat 1) and on a phone (Bob, seat 2), against a heuristic bot in seat 3, in Debian's Chromium.

    PYTHONPATH=src python -m tests.e2e.screenshots docs/screenshots [GAME ...]

A real server (Toy Dash not needed) on a temporary SQLite file; both players click their way through
the race (stopping and finishing early where the game asks, so the race moves on).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from tests.e2e.browser import ARGS, CHROMIUM, watch
from tests.web.server import Api, Server

GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "scrap-racer": ({"short": True}, 100),
    "brc-grand-prix": ({"laps": 2}, 45),
    "rev-it-up": ({}, 70),
    "rush-n-crush": ({}, 60),
    "highway-heist": ({"difficulty": "easy"}, 60),
}
"""Each game's options here (a short race) and the step from which its mid-race pictures are taken."""
PREFER = ("stop", "finish", "keep the item", "do nothing", "dash", "roll", "move", "done", "stay", "safe")
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def race(api: Api, game: str, options: dict[str, Any]) -> tuple[str, str, list[str]]:
    made = api.ok(
        "POST",
        "/api/matches",
        json={"game": game, "players": 3, "options": options, "bots": {"2": "heuristic"}, "title": "Friday race"},
    )
    tokens = [
        api.ok("POST", f"/api/matches/{made['id']}/seats/{seat}/join", json={"name": name})["token"]
        for seat, name in enumerate(("Ann", "Bob"))
    ]
    return made["id"], made["host_token"], tokens


def step(page: Page) -> bool:
    page.evaluate("document.querySelectorAll('details.all-moves').forEach(d => { d.open = true; })")
    buttons = page.locator("#actions button.action:not([disabled])")
    labels = buttons.all_inner_texts()
    if not labels:
        return False
    pick = next((i for word in PREFER for i, t in enumerate(labels) if word in t.lower()), 0)
    try:
        buttons.nth(pick).click(timeout=1500)
    except Exception:
        return False
    return True


def shoot(page: Page, path: Path) -> None:
    page.wait_for_timeout(250)
    page.screenshot(path=str(path))


def main(out: Path, only: list[str] | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    srv = Server(str(tmp / "shots.sqlite3"), tmp / "server.log").start()
    errors: list[str] = []
    try:
        api = srv.client()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for game, (options, middle_ply) in GAMES.items():
                if only and game not in only:
                    continue
                mid, host, tokens = race(api, game, options)
                pages = []
                for seat, size in ((0, DESKTOP), (1, PHONE)):
                    ctx = browser.new_context(viewport=size)
                    saved = {"host": host if seat == 0 else None, "seats": {str(seat): tokens[seat]}}
                    ctx.add_init_script(f"localStorage.setItem('slipstream:{mid}', {json.dumps(json.dumps(saved))})")
                    page = watch(ctx.new_page(), errors)
                    page.goto(f"{srv.url}/m/{mid}")
                    pages.append(page)
                desktop, phone = pages
                desktop.click("#start-btn")
                for page in pages:
                    page.wait_for_selector("#board svg")
                desktop.wait_for_selector("#turn.mine, #turn:has-text('Waiting for')")
                shoot(desktop, out / f"{game}-start-desktop.png")
                shoot(phone, out / f"{game}-start-phone.png")
                clicks, middle, deadline = 0, False, time.monotonic() + 600
                while time.monotonic() < deadline:
                    if all(" over — " in page.inner_text("#turn") for page in pages):
                        break
                    moved = [step(page) for page in pages]
                    clicks += sum(moved)
                    ply = api.ok("GET", f"/api/matches/{mid}")["ply"]
                    if not middle and ply >= middle_ply and desktop.locator("button.action").count():
                        shoot(desktop, out / f"{game}-mid-desktop.png")
                        shoot(phone, out / f"{game}-mid-phone.png")
                        middle = True
                    if not any(moved):
                        desktop.wait_for_timeout(40)
                else:
                    raise RuntimeError(f"{game}: the race did not end in 10 minutes")
                for page in pages:
                    page.wait_for_selector("#result:not([hidden])")
                shoot(desktop, out / f"{game}-end-desktop.png")
                shoot(phone, out / f"{game}-end-phone.png")
                for page in pages:
                    page.context.close()
                print(f"{game}: {clicks} clicks, {api.ok('GET', f'/api/matches/{mid}')['ply']} steps")
            browser.close()
    finally:
        srv.stop()
    if errors:
        raise SystemExit(f"page errors: {errors}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"), sys.argv[2:])
