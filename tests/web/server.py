"""A real ``slipstream serve`` process on a free loopback port, and small HTTP/WebSocket clients."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "tests.web.toyplugin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The server in a subprocess (``python -m slipstream.web serve``: ``slipstream serve`` with every
    protocol limit set), with Toy Dash registered through the plugin hook; ``env`` adds variables
    (``SLIPSTREAM_LIMIT_*``)."""

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        bot_delay: float = 0.0,
        plugins: str = PLUGIN,
        env: dict[str, str] | None = None,
        args: Sequence[str] = (),
        module: str = "slipstream.web",
    ) -> None:
        self.env = env or {}
        self.module = module
        """The module run with ``-m`` (``tests.web.clockserve``: the server with its clock moved on)."""
        self.args = list(args)
        """More options for ``serve`` (``--forwarded-allow-ips ...``)."""
        self.database_url = database_url
        self.log_path = log_path
        self.bot_delay = bot_delay
        self.plugins = plugins
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0, port: int = 0) -> Server:
        """Start on ``port`` (a free one if 0; a given port is retried while it is still held)."""
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            **self.env,
        }
        for attempt in range(3):
            self.port = port or free_port()
            log = self.log_path.open("ab")
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    self.module,
                    "serve",
                    "--port",
                    str(self.port),
                    "--database-url",
                    self.database_url,
                    "--bot-delay",
                    str(self.bot_delay),
                    "--plugins",
                    self.plugins,
                    *self.args,
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            log.close()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    if httpx.get(f"{self.url}/api/health", timeout=1.0).status_code == 200:
                        return self
                except httpx.HTTPError:
                    time.sleep(0.1)
            self.stop()
            if attempt == 2:
                break
            time.sleep(0.5)
        raise RuntimeError(f"server did not start; log:\n{self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def client(self, address: str | None = None) -> Api:
        """An HTTP client; ``address``: the loopback address it connects from (``127.0.0.2``: another
        client address, for the per-address limits)."""
        return Api(self.url, address)


class Api:
    """A thin HTTP client that returns (status, json); ``address``: the local address it connects from."""

    def __init__(self, base: str, address: str | None = None) -> None:
        transport = httpx.HTTPTransport(local_address=address) if address else None
        self.http = httpx.Client(base_url=base, timeout=10.0, transport=transport)

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kwargs.pop("headers", {}))
        r = self.http.request(method, path, headers=headers, **kwargs)
        try:
            return r.status_code, r.json()
        except json.JSONDecodeError:
            return r.status_code, r.text

    def ok(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        status, body = self.call(method, path, token, **kwargs)
        if status >= 300:
            raise AssertionError(f"{method} {path} -> {status} {body}")
        return body

    def new_match(
        self,
        game: str = "toy-dash",
        players: int = 2,
        humans: int = 2,
        bot: str = "random",
        public: bool = False,
        pace: str | None = None,
        **options: Any,
    ) -> tuple[str, str, list[str]]:
        """Create, join ``humans`` seats, fill the rest with bots, start: (id, host token, seat tokens);
        ``public``: listed in ``GET /api/matches``; ``pace``: a turn-based pace (else live)."""
        bots = {str(s): bot for s in range(humans, players)}
        body: dict[str, Any] = {"game": game, "players": players, "options": options, "bots": bots}
        if public:
            body["public"] = True
        if pace is not None:
            body["pace"] = pace
        made = self.ok("POST", "/api/matches", json=body)
        tokens = [
            self.ok("POST", f"/api/matches/{made['id']}/seats/{s}/join", json={"name": f"seat{s}"})["token"]
            for s in range(humans)
        ]
        self.ok("POST", f"/api/matches/{made['id']}/start", made["host_token"])
        return made["id"], made["host_token"], tokens

    def state(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.ok("GET", f"/api/matches/{match_id}/state", token)
        return result

    def wait(self, match_id: str, token: str | None, until: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Poll the state until ``until(state)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            st = self.state(match_id, token)
            if until(st):
                return st
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last state: {st}")
            time.sleep(0.02)

    def play_out(self, match_id: str, tokens: list[str], choose: str = "dash") -> dict[str, Any]:
        """Play every human seat to the end (each picks ``choose`` when it may, else its first action)."""
        for _ in range(2000):
            for token in tokens:
                st = self.state(match_id, token)
                if st["result"] is not None:
                    return st
                if st["legal"]:
                    pick = next((a for a in st["legal"] if a.endswith(choose)), st["legal"][0])
                    status, body = self.call(
                        "POST",
                        f"/api/matches/{match_id}/actions",
                        token,
                        json={"action": pick, "ply": st["ply"]},
                    )
                    if status != 200 and body["error"]["code"] not in ("stale", "not_your_turn"):
                        raise AssertionError(body)
            time.sleep(0.005)
        raise AssertionError("the match did not end")


def ws_connect(server: Server, match_id: str, address: str | None = None, **kwargs: Any) -> ClientConnection:
    """A WebSocket to a match (no hello yet), from the loopback ``address`` if given."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                    source_address=(address, 0) if address else None)
    return connect(f"{server.ws_url}/ws/matches/{match_id}", open_timeout=10, sock=sock, **kwargs)


@contextlib.contextmanager
def ws_open(
    server: Server, match_id: str, token: str | None, address: str | None = None
) -> Iterator[ClientConnection]:
    """A WebSocket to a match that has said hello with ``token`` (``None``: a spectator), from the
    loopback ``address`` if given."""
    with ws_connect(server, match_id, address) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        yield ws


def ws_recv(ws: ClientConnection, timeout: float = 20.0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return data


def ws_until(
    ws: ClientConnection, pred: Any, timeout: float = 20.0, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = ws_recv(ws, max(0.01, deadline - time.monotonic()))
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg


def one_ending(a: Api, b: Api, match_id: str, timeout: float = 20.0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two server processes (through clients ``a`` and ``b``) end a match the same way: its final state
    as ``a`` tells a spectator, and its record, the same in both."""
    final_a = a.wait(match_id, None, lambda s: s["result"] is not None, timeout=timeout)
    final_b = b.wait(match_id, None, lambda s: s["result"] is not None, timeout=timeout)
    assert final_a["ply"] == final_b["ply"] and final_a["view"] == final_b["view"]
    record: dict[str, Any] = a.ok("GET", f"/api/matches/{match_id}/record")
    assert record == b.ok("GET", f"/api/matches/{match_id}/record"), "one match, the same record in both"
    assert len(record["actions"]) == final_a["ply"]
    return final_a, record


def ws_quiet(ws: ClientConnection, seconds: float = 1.0) -> None:
    """Nothing reaches ``ws`` for ``seconds`` but what the table itself says when a client comes or goes
    (``presence``, and the chat history sent on connecting): an ``AssertionError`` names anything else."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            msg = ws_recv(ws, max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            return
        if msg["type"] == "presence" or (msg["type"] == "chat" and msg.get("reset")):
            continue
        raise AssertionError(f"a {msg['type']} message came: {msg}")
