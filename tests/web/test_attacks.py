"""The server as an attacker would use it (issue 14, items 2-4): option values that name server files,
unbounded bots, oversized and malformed input, floods. Every refusal is a clear JSON error."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import httpx

import slipstream.games.scrap_racer as scrap_racer
from tests.web.server import Api, Server


def error(api: Api, method: str, path: str, token: str | None = None, **kw: object) -> tuple[int, str, str]:
    status, body = api.call(method, path, token, **kw)
    assert isinstance(body, dict) and "error" in body, body
    assert body["error"]["message"], "every error says why"
    return status, body["error"]["code"], body["error"]["message"]


def create(api: Api, **options: object) -> tuple[int, str, str]:
    return error(api, "POST", "/api/matches", json={"game": "scrap-racer", "players": 2, "options": options})


def test_option_values_cannot_name_server_files(api: Api, tmp_path: Path) -> None:
    """Item 2: a track file elsewhere on the server is refused, and the answer is the same whether or not
    the file exists, so it tells nothing about the server's files."""
    shipped = Path(scrap_racer.__file__).with_name("tracks") / "A.toml"
    copy = tmp_path / "mine.toml"
    shutil.copy(shipped, copy)
    answers = [create(api, track=str(p)) for p in (copy, shipped, tmp_path / "missing.toml")]
    for (status, code, message), path in zip(answers, (copy, shipped, tmp_path / "missing.toml"), strict=True):
        assert (status, code) == (400, "bad_option"), message
        assert message.replace(str(path), "PATH") == answers[0][2].replace(str(copy), "PATH")
    for value in ("../tracks/A.toml", "A.toml", "~root", "C:\\x"):
        assert create(api, track=value)[:2] == (400, "bad_option")
    assert api.ok("POST", "/api/matches", json={"game": "scrap-racer", "players": 2,
                                                "options": {"track": "B"}})["match"]["options"]["track"] == "B"


def test_a_fifo_as_a_track_does_not_freeze_the_server(api: Api, server: Server, tmp_path: Path) -> None:
    fifo = tmp_path / "track.toml"
    os.mkfifo(fifo)
    started = time.monotonic()
    try:
        status, code, _ = create(api, track=str(fifo))
    except httpx.TimeoutException:
        status, code = 0, "timeout"
    finally:
        with open(os.open(fifo, os.O_RDWR | os.O_NONBLOCK), "w"):  # let a blocked reader go, if any
            pass
    assert (status, code) == (400, "bad_option")
    assert time.monotonic() - started < 5
    assert httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200


def test_only_the_lobbys_bots_or_a_bounded_search_are_accepted(api: Api) -> None:
    """Item 3: a search without a time bound, or with one above the limit, would pin a bot worker."""
    for bot in ("mcts:infs:uct", "mcts:999999999", "mcts:400", "mcts:nans", "mcts:60s", "nobody"):
        status, code, message = error(
            api, "POST", "/api/matches", json={"game": "toy-dash", "players": 2, "bots": {"1": bot}}
        )
        assert (status, code) == (400, "unknown_bot"), (bot, message)
    made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 3})
    status, code, _ = error(api, "POST", f"/api/matches/{made['id']}/seats/0/bot", made["host_token"],
                            json={"bot": "mcts:infs"})
    assert (status, code) == (400, "unknown_bot")
    for bot in ("random", "mcts", "mcts:3s", "mcts:400:2s", "mcts:200:h:1s", "mcts:0.5s:uct"):
        api.ok("POST", f"/api/matches/{made['id']}/seats/0/bot", made["host_token"], json={"bot": bot})
