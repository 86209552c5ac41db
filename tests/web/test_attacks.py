"""The server as an attacker would use it (issue 14, items 2-4): option values that name server files,
unbounded bots, oversized and malformed input, floods. Every refusal is a clear JSON error."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import slipstream.games.scrap_racer as scrap_racer
from tests.web.server import Api, Server, ws_open, ws_recv, ws_until


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
    for status, code, message in answers:
        assert (status, code) == (400, "bad_option"), message
        assert message.split("; got")[0] == answers[0][2].split("; got")[0], "the same answer for every path"
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


# --- item 4: limits -------------------------------------------------------------------------------

TIGHT = {
    "SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "8",
    "SLIPSTREAM_LIMIT_MAX_OPEN_MATCHES": "4",
    "SLIPSTREAM_LIMIT_OPEN_EXPIRY": "2",
    "SLIPSTREAM_LIMIT_SWEEP_EVERY": "0.5",
    "SLIPSTREAM_LIMIT_HEADER_TIMEOUT": "1",
    "SLIPSTREAM_LIMIT_BODY_TIMEOUT": "1",
}


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with small limits, so a test can reach them quickly."""
    tmp = tmp_path_factory.mktemp("tight")
    srv = Server(str(tmp / "tight.sqlite3"), tmp / "server.log", env=TIGHT).start()
    try:
        yield srv
    finally:
        srv.stop()


def raw(server: Server, data: bytes, wait: float) -> bytes:
    """Send raw bytes on a fresh connection and read what comes back within ``wait`` seconds (b"" if
    the server closed the connection without a word)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as sock:
        sock.sendall(data)
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except TimeoutError:
            return out + b"<still open>"
        return out


def test_a_huge_body_is_refused_before_it_is_read(api: Api, server: Server) -> None:
    big = b'{"game": "' + b"x" * (200 * 1024 * 1024) + b'"}'
    head = (f"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(big)}\r\n\r\n").encode()
    started = time.monotonic()
    answer = raw(server, head + big[:65536], wait=5)
    assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer, answer[:300]
    assert time.monotonic() - started < 5
    chunked = httpx.post(f"{server.url}/api/matches", content=iter([b"[" + b" " * 8192] * 4), timeout=10)
    assert chunked.status_code == 413 and chunked.json()["error"]["code"] == "too_large"


def test_half_sent_requests_are_timed_out(tight: Server) -> None:
    """Headers that never end, and a body that never comes, are cut off after their timeouts (1 s here)."""
    started = time.monotonic()
    assert raw(tight, b"GET /api/health HTTP/1.1\r\nHost: x\r\n", wait=5) == b""
    assert time.monotonic() - started < 4
    answer = raw(tight, b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ga", wait=5)
    assert answer.startswith(b"HTTP/1.1 408") and b'"timeout"' in answer, answer[:300]
    keep = raw(tight, b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/he", wait=5)
    assert keep.startswith(b"HTTP/1.1 200") and not keep.endswith(b"<still open>")


def test_deeply_nested_json_gets_an_error(api: Api, server: Server) -> None:
    status, code, _ = error(api, "POST", "/api/matches", content=b"[" * 10000,
                            headers={"Content-Type": "application/json"})
    assert (status, code) == (400, "bad_request")
    mid, _host, tokens = api.new_match()
    with ws_open(server, mid, tokens[0]) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        ws.send("[" * 4000)
        reply = ws_until(ws, lambda m: m["type"] == "error")
        assert reply["code"] == "bad_request"
        ws.send(json.dumps({"type": "ping", "x": [[[[[[[[]]]]]]]]}))
        assert ws_until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    with connect(f"{server.ws_url}/ws/matches/{mid}", open_timeout=10) as ws:
        ws.send("{" * 4000)
        assert ws_recv(ws)["code"] == "bad_request"
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(timeout=5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4400


def test_websocket_frames_are_bounded(api: Api, server: Server) -> None:
    mid, _host, tokens = api.new_match()
    with ws_open(server, mid, tokens[0]) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        ws.send(json.dumps({"type": "ping", "pad": "x" * 20000}))
        assert ws_until(ws, lambda m: m["type"] == "error")["code"] == "bad_request", "too long: an error"
        ws.send(json.dumps({"type": "ping"}))
        assert ws_until(ws, lambda m: m["type"] == "pong")
        ws.send("x" * (1024 * 1024))
        with pytest.raises(ConnectionClosed) as info:
            while True:
                ws.recv(timeout=5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009, "too big to read: closed"


def test_creations_are_limited_per_client_and_open_matches_per_server(tight: Server) -> None:
    api = tight.client()
    made = [api.ok("POST", "/api/matches", json={"game": "toy-dash", "public": True}) for _ in range(4)]
    assert error(api, "POST", "/api/matches", json={"game": "toy-dash"})[:2] == (503, "busy")
    time.sleep(3.5)  # the open matches expire (2 s) and the sweep (every 0.5 s) removes them
    gone = api.ok("GET", f"/api/matches/{made[0]['id']}")
    assert gone["status"] == "expired"
    assert error(api, "POST", f"/api/matches/{made[0]['id']}/seats/0/join", json={})[:2] == (409, "not_open")
    assert made[1]["id"] in [m["id"] for m in api.ok("GET", "/api/matches?status=expired")]
    for _ in range(3):
        api.ok("POST", "/api/matches", json={"game": "toy-dash"})
    assert error(api, "POST", "/api/matches", json={"game": "toy-dash"})[:2] == (429, "too_many")
    assert api.ok("GET", "/api/health")["ok"]
