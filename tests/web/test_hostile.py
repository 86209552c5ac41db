"""The server under hostile use (issue 26, points 5, 6 and 8), each test against real server processes
with the limits of ``limits.py`` (made small where a test must reach them quickly):

- point 5: one socket cannot take the server: a flood from one socket leaves another match's moves as
  fast as before; a socket that never reads is cut once it leaves ``max_backlog`` messages unread,
  replies, pongs and errors included, and memory stays flat; a socket is answered at its message rate;
  sockets per address and spectators per match are capped; no client text comes back in an error;
- point 6: one address cannot fill the server with open or running matches, and ``X-Forwarded-For`` is
  believed only from the proxies named with ``--forwarded-allow-ips``;
- point 8: request headers are limited to ``max_header_bytes``, and a long finished match is replayed
  off the event loop when it is loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from slipstream.web import hub as hub_module
from slipstream.web.hub import Hub
from slipstream.web.storage import Store
from tests.web.conftest import ROOMY
from tests.web.server import Api, Server, ws_connect, ws_open, ws_recv, ws_until

MARKER = "Zqx7Marker"
"""Client text that must never come back in an error (letters and digits only: a valid match id)."""

Start = Callable[..., Server]


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Start]:
    """Start servers of the test's own (``env``: ``SLIPSTREAM_LIMIT_*``, ``args``: more options)."""
    started: list[Server] = []

    def run(env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> Server:
        name = f"s{len(started)}"
        srv = Server(str(tmp_path / f"{name}.sqlite3"), tmp_path / f"{name}.log", env=env, args=args)
        started.append(srv.start())
        return srv

    yield run
    for srv in started:
        srv.stop()


def rss_mb(server: Server) -> float:
    """The server process's resident memory, in MB."""
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def refusal(server: Server, match_id: str, token: str | None, address: str | None = None) -> tuple[str, int]:
    """A socket that says hello, expecting to be refused: the error's code and the close code."""
    ws = ws_connect(server, match_id, address, legacy=True)
    try:
        with contextlib.suppress(ConnectionClosed):  # refused at once, the hello may find it closed
            ws.send(json.dumps({"type": "hello", "token": token}))
        message = ws_recv(ws, 10)
        with pytest.raises(ConnectionClosed) as info:
            while True:
                ws.recv(timeout=10)
        assert info.value.rcvd is not None, "closed by the server with a code"
        return message.get("code", message["type"]), info.value.rcvd.code
    finally:
        ws.close_socket()


# --- point 5: one socket cannot take the server ---------------------------------------------------


class Flood:
    """A WebSocket that says hello as a spectator of ``match_id``, then never reads (a small receive
    buffer, a client queue of one message) and sends ``messages`` round and round from a thread as fast
    as the server takes them, until ``stop`` or until the server cuts it (``cut_after``)."""

    def __init__(self, server: Server, match_id: str, messages: list[str]) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        self.ws = connect(
            f"{server.ws_url}/ws/matches/{match_id}", sock=sock, max_queue=1, open_timeout=10, legacy=True
        )
        self.ws.send(json.dumps({"type": "hello", "token": None}))
        self.messages = messages
        self.sent = 0
        self.cut_after: float | None = None
        self.running = True
        self.began = time.monotonic()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while self.running:
                for text in self.messages:
                    self.ws.send(text)
                    self.sent += 1
        except (ConnectionClosed, OSError):
            self.cut_after = time.monotonic() - self.began

    def stop(self) -> None:
        self.running = False
        with contextlib.suppress(Exception):
            self.ws.socket.shutdown(socket.SHUT_RDWR)
        self.ws.close_socket()
        self.thread.join(timeout=10)


FLOOD = [
    json.dumps({"type": "x" * 4000}),  # an unknown type whose error used to echo it
    json.dumps({"type": "ping"}),
    json.dumps({"type": "text_board", "on": True}),  # a whole state with the text board
]


PAUSE = 0.03
"""Seconds between two moves of ``move_times``: each seat then sends about 16 messages a second, within
its rate (``messages_per_second``, 20), so what is timed is the server, not the rate."""


def move_times(server: Server, api: Api, moves: int) -> list[float]:
    """Seconds from ``act`` to its ``ack`` for ``moves`` moves of a fresh two-player Toy Dash race (both
    seats walk, so no die is rolled), each seat on its own WebSocket, ``PAUSE`` seconds apart."""
    mid, _host, tokens = api.new_match(length=200)
    took: list[float] = []
    with ws_open(server, mid, tokens[0]) as first, ws_open(server, mid, tokens[1]) as second:
        seats = [first, second]
        latest: list[dict[str, Any]] = [ws_until(ws, lambda m: m["type"] == "state") for ws in seats]
        ply = 0
        while len(took) < moves:
            for seat, ws in enumerate(seats):
                while not (latest[seat]["ply"] >= ply and latest[seat]["legal"]):
                    latest[seat] = ws_until(ws, lambda m: m["type"] == "state")
                action = f"{seat}:walk"
                assert action in latest[seat]["legal"], latest[seat]["legal"]
                started = time.perf_counter()
                ws.send(json.dumps({"type": "act", "action": action, "ply": latest[seat]["ply"]}))
                while (reply := ws_recv(ws))["type"] not in ("ack", "error"):
                    if reply["type"] == "state":
                        latest[seat] = reply
                took.append(time.perf_counter() - started)
                assert reply["type"] == "ack", reply
                ply = reply["ply"]
                time.sleep(PAUSE)
    return took


def test_a_flood_from_one_socket_leaves_another_matchs_moves_as_fast(server: Server, api: Api) -> None:
    """Issue 26, point 5: one spectator socket that never reads and floods unknown types, pings and
    text-board requests took another match's moves from p50 1.8 ms to 563 ms. With a message rate per
    socket it is read no faster than that, so the other match's p99 stays within twice its unloaded
    p99. Quiet and flooded rounds alternate (a fresh flooding socket each time), so a slow spell of the
    shared machine falls on both; and a measure spoilt by one is taken again, up to three times (a
    flood's cost, 6x on the code before, shows in every one)."""
    move_times(server, api, 20)  # warm up: the game's first load, the first messages
    tries: list[str] = []
    for _attempt in range(3):  # a slow spell of the shared machine can spoil one p99; a flood spoils all
        unloaded: list[float] = []
        loaded: list[float] = []
        for _round in range(3):
            unloaded += move_times(server, api, 100)
            target, _host, _tokens = api.new_match(length=200)
            flood = Flood(server, target, FLOOD)
            try:
                time.sleep(0.5)
                loaded += move_times(server, api, 100)
            finally:
                flood.stop()
            assert flood.sent > 100, "the flood did send"
        quiet, busy = percentile(unloaded, 0.99), percentile(loaded, 0.99)
        if busy <= 2 * quiet:
            return
        tries.append(
            f"p99 {busy * 1000:.1f} ms under the flood, {quiet * 1000:.1f} ms without "
            f"(p50 {percentile(loaded, 0.5) * 1000:.1f} / {percentile(unloaded, 0.5) * 1000:.1f} ms)"
        )
    raise AssertionError("; ".join(tries))


def test_a_socket_that_never_reads_is_cut_whatever_it_is_sent(start: Start) -> None:
    """Point 5: replies and pongs bypassed the unread-messages rule, so a socket that never read and
    flooded unknown types (each error echoing 4,000 characters) grew the server by 1.5 GB in 15 s. Now
    every outgoing message counts: once ``max_backlog`` are unread the socket is cut (the message rate
    is lifted here, so only the backlog rule holds it), the server's memory stays flat, and the
    address's socket is free again."""
    server = start({**ROOMY, "SLIPSTREAM_LIMIT_MAX_BACKLOG": "50",
                    "SLIPSTREAM_LIMIT_MESSAGES_PER_SECOND": "1000000",
                    "SLIPSTREAM_LIMIT_MESSAGE_BURST": "1000000"})
    api = server.client()
    mid, _host, _tokens = api.new_match()
    before = rss_mb(server)
    flood = Flood(server, mid, [json.dumps({"type": "y" * 4000}), json.dumps({"type": "ping"})])
    try:
        deadline = time.monotonic() + 20
        while flood.cut_after is None and time.monotonic() < deadline:
            time.sleep(0.1)
        grown = rss_mb(server) - before
    finally:
        flood.stop()
    assert flood.cut_after is not None, f"the socket was not cut after {flood.sent} messages"
    assert grown < 64, f"the server grew by {grown:.0f} MB"
    with ws_open(server, mid, None) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        ws.send(json.dumps({"type": "ping"}))
        assert ws_until(ws, lambda m: m["type"] == "pong")


def test_a_socket_is_answered_at_its_message_rate(server: Server, api: Api) -> None:
    """Point 5: each socket has a message rate (``messages_per_second``, 20, with a burst of
    ``message_burst``, 40): a burst of 100 pings is answered 40 at once, then 20 a second, and none is
    lost; meanwhile the server does not read the socket, so the flood waits in the client's own
    buffers."""
    mid, _host, _tokens = api.new_match()
    with ws_open(server, mid, None) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        for _ in range(100):
            ws.send(json.dumps({"type": "ping"}))
        sent = time.monotonic()
        times = []
        while len(times) < 100:
            if ws_recv(ws, 15)["type"] == "pong":
                times.append(time.monotonic() - sent)
    in_first_second = sum(1 for t in times if t < 1.0)
    assert 40 <= in_first_second <= 40 + 20 + 5, in_first_second
    assert times[-1] >= (100 - 40) / 20 - 0.5, f"the last pong came after {times[-1]:.1f} s"


def test_sockets_per_address_and_spectators_per_match_are_capped(start: Start) -> None:
    """Point 5: 3,000 spectators on one match slowed everyone's moves. An address holds at most
    ``sockets_per_address`` sockets and a match at most ``spectators_per_match`` spectators; past
    either the socket gets ``too_many`` and is closed with 4429. A player's seat is never counted as a
    spectator, and a closed socket frees its place."""
    server = start({**ROOMY, "SLIPSTREAM_LIMIT_SOCKETS_PER_ADDRESS": "3",
                    "SLIPSTREAM_LIMIT_SPECTATORS_PER_MATCH": "2"})
    api = server.client()
    mid, _host, tokens = api.new_match()
    with contextlib.ExitStack() as stack:
        opened = [stack.enter_context(ws_open(server, mid, token)) for token in (*tokens, None)]
        for ws in opened:
            ws_until(ws, lambda m: m["type"] == "state")
        assert refusal(server, mid, None) == ("too_many", 4429), "a fourth socket from one address"
        with ws_open(server, mid, None, address="127.0.0.2") as other:
            ws_until(other, lambda m: m["type"] == "state")
            assert refusal(server, mid, None, "127.0.0.3") == ("too_many", 4429), "a third spectator"
            with ws_open(server, mid, tokens[1], address="127.0.0.3") as player:
                assert ws_until(player, lambda m: m["type"] == "state")["seat"] == 1, "a seat is no spectator"
        opened[0].close()
        time.sleep(0.3)
        with ws_open(server, mid, tokens[0]) as again:
            assert ws_until(again, lambda m: m["type"] == "state")["seat"] == 0


def test_no_client_text_comes_back_in_an_error(server: Server, api: Api) -> None:
    """Point 5: the error for an unknown message type echoed it (4,000 characters for each message of a
    flood). No error, on the WebSocket or over HTTP, repeats what the client sent (the message's own
    ``id`` is a reference, not text)."""
    mid, _host, tokens = api.new_match()
    st = api.wait(mid, tokens[0], lambda s: bool(s["legal"]))
    messages = [
        {"type": MARKER * 300},
        {"type": {"nested": MARKER}},
        {"type": "act", "action": f"0:{MARKER}", "ply": st["ply"]},
        {"type": "act", "action": f"0:{MARKER}", "ply": MARKER},
        {"type": "text_board", "on": MARKER},
        {"type": "undo", "ply": MARKER},
    ]
    errors = []
    with ws_open(server, mid, tokens[0]) as ws:
        ws_until(ws, lambda m: m["type"] == "state")
        for message in messages:
            ws.send(json.dumps(message))
            errors.append(ws_until(ws, lambda m: m["type"] in ("error", "ack")))
        ws.send(json.dumps({"type": "act", "action": "0:walk", "ply": st["ply"], "id": MARKER}))
        assert ws_until(ws, lambda m: m["type"] in ("error", "ack"))["type"] == "ack"
        ws.send(json.dumps({"type": "act", "action": "0:walk", "ply": st["ply"], "id": MARKER}))
        duplicate = ws_until(ws, lambda m: m["type"] in ("error", "ack"))
        assert (duplicate["code"], duplicate["id"]) == ("duplicate", MARKER)
        errors.append({**duplicate, "id": None})
    requests: list[tuple[str, str, dict[str, Any] | None]] = [
        ("POST", "/api/matches", {"game": MARKER}),
        ("POST", "/api/matches", {"game": "toy-dash", "options": {MARKER: 1}}),
        ("POST", "/api/matches", {"game": "toy-dash", "options": {"length": MARKER}}),
        ("POST", "/api/matches", {"game": "toy-dash", "options": {"length": f"{MARKER}.toml"}}),
        ("POST", "/api/matches", {"game": "toy-dash", "players": MARKER}),
        ("POST", "/api/matches", {"game": "toy-dash", "bots": {"1": MARKER}}),
        ("POST", "/api/matches", {"game": "toy-dash", "bots": {MARKER: "random"}}),
        ("POST", "/api/matches", {"game": "toy-dash", MARKER: 1}),
        ("GET", f"/api/matches/{MARKER}", None),
        ("GET", f"/api/matches/{MARKER}/state", None),
        ("GET", f"/rules/{MARKER}", None),
        ("GET", f"/boards/{MARKER}.js", None),
        ("GET", f"/api/matches?status={MARKER}", None),
        ("POST", f"/api/matches/{mid}/seats/0/bot", {"bot": MARKER}),
    ]
    for method, path, body in requests:
        status, answer = api.call(method, path, json=body) if body is not None else api.call(method, path)
        assert status >= 400 and isinstance(answer, dict), (path, status, answer)
        errors.append(answer["error"])
    for error in errors:
        assert error.get("message"), error
        assert MARKER not in json.dumps(error), error


# --- point 6: caps per address --------------------------------------------------------------------


def test_one_address_cannot_fill_the_server_with_open_matches(start: Start) -> None:
    """Point 6: 30 creations a minute for 60 minutes of expiry is more than the 1,000 open matches a
    server holds, so one address filled it for everyone. An address now holds at most
    ``open_matches_per_address`` open matches (429 ``too_many``), below the server's total."""
    server = start({"SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "100", "SLIPSTREAM_LIMIT_MAX_OPEN_MATCHES": "5",
                    "SLIPSTREAM_LIMIT_OPEN_MATCHES_PER_ADDRESS": "2"})
    clients = {address: server.client(address) for address in ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4")}

    def create(address: str) -> tuple[int, str]:
        status, body = clients[address].call("POST", "/api/matches", json={"game": "toy-dash"})
        return status, body["id"] if status == 201 else body["error"]["code"]

    first = [create("127.0.0.1") for _ in range(2)]
    assert [status for status, _ in first] == [201, 201]
    assert create("127.0.0.1") == (429, "too_many"), "an address's third open match"
    assert [create("127.0.0.2")[0] for _ in range(2)] == [201, 201]
    assert create("127.0.0.3")[0] == 201
    assert create("127.0.0.4") == (503, "busy"), "the server's own total still holds"
    host = clients["127.0.0.1"]
    made = host.ok("GET", f"/api/matches/{first[0][1]}")
    assert made["status"] == "open"
    for client in clients.values():
        client.http.close()


def test_one_address_cannot_fill_the_server_with_running_matches(start: Start) -> None:
    """Point 6: running matches had no cap (about 128 KB each, abandoned only after a day with nobody
    there). An address may have ``running_matches_per_address`` running, the server
    ``max_running_matches``: a start past them is refused (429 ``too_many``, 503 ``busy``) and changes
    nothing; a finished match frees its place."""
    server = start({**ROOMY, "SLIPSTREAM_LIMIT_MAX_RUNNING_MATCHES": "3",
                    "SLIPSTREAM_LIMIT_RUNNING_MATCHES_PER_ADDRESS": "2"})
    one, two = server.client("127.0.0.1"), server.client("127.0.0.2")

    def ready(api: Api) -> tuple[str, str, list[str]]:
        made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2})
        tokens = [api.ok("POST", f"/api/matches/{made['id']}/seats/{s}/join", json={})["token"] for s in (0, 1)]
        return made["id"], made["host_token"], tokens

    def begin(api: Api, mid: str, host: str) -> tuple[int, str]:
        status, body = api.call("POST", f"/api/matches/{mid}/start", host)
        return status, body["status"] if status == 200 else body["error"]["code"]

    running = [ready(one) for _ in range(2)]
    for mid, host, _tokens in running:
        assert begin(one, mid, host) == (200, "running")
    mid, host, _ = ready(one)
    assert begin(one, mid, host) == (429, "too_many"), "an address's third running match"
    assert one.ok("GET", f"/api/matches/{mid}")["status"] == "open", "the refused start changed nothing"
    other, other_host, _ = ready(two)
    assert begin(two, other, other_host) == (200, "running")
    last, last_host, _ = ready(two)
    assert begin(two, last, last_host) == (503, "busy"), "the server's running total"
    one.play_out(running[0][0], running[0][2])
    assert begin(one, mid, host) == (200, "running"), "a finished match frees its place"
    one.http.close()
    two.http.close()


def test_a_spoofed_forwarded_for_from_an_untrusted_peer_is_ignored(start: Start) -> None:
    """Point 6: uvicorn believed ``X-Forwarded-For`` from loopback, so one client with a new made-up
    address in each request had a fresh creation allowance each time (the server full in 11 s). By
    default no peer is a trusted proxy: the header changes nothing."""
    server = start({"SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "3"})
    api = server.client()
    answers = [
        api.call("POST", "/api/matches", json={"game": "toy-dash"}, headers={"X-Forwarded-For": f"10.0.0.{n}"})[0]
        for n in range(1, 6)
    ]
    assert answers == [201, 201, 201, 429, 429]


def test_forwarded_for_is_believed_from_the_proxies_named(start: Start) -> None:
    """Point 6: ``--forwarded-allow-ips`` names the proxies (as uvicorn's option does): from them the
    client's address is the one ``X-Forwarded-For`` gives, so the per-address limits count players,
    not the proxy; from any other peer the header is ignored."""
    server = start({"SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "3"}, args=("--forwarded-allow-ips", "127.0.0.1"))
    proxy, stranger = server.client("127.0.0.1"), server.client("127.0.0.2")
    for n in range(1, 7):
        forwarded = {"X-Forwarded-For": f"203.0.113.{n}"}
        assert proxy.call("POST", "/api/matches", json={"game": "toy-dash"}, headers=forwarded)[0] == 201
    spoofed = [
        stranger.call("POST", "/api/matches", json={"game": "toy-dash"},
                      headers={"X-Forwarded-For": f"198.51.100.{n}"})[0]
        for n in range(1, 5)
    ]
    assert spoofed == [201, 201, 201, 429]


# --- point 8: headers and long replays ------------------------------------------------------------


def raw_answer(server: Server, request: bytes) -> bytes:
    """What the server answers to a raw request, up to the end of its headers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request)
        out = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in out and (chunk := sock.recv(65536)):
                out += chunk
        return out


def padded(path: str, size: int, extra: str = "") -> bytes:
    """A GET of ``path`` whose request line and headers come to about ``size`` bytes."""
    head = f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}"
    lines = "".join(f"X-Pad-{n}: {'a' * 990}\r\n" for n in range((size - len(head)) // 1000))
    return (head + lines + "\r\n").encode()


def test_request_headers_are_limited_as_documented(server: Server) -> None:
    """Point 8: headers up to about 70 KB were accepted though docs/web.md says 16 KiB. Past
    ``max_header_bytes`` a request is refused with 431 ``too_large`` (a WebSocket upgrade too)."""
    assert raw_answer(server, padded("/api/health", 15 * 1024)).startswith(b"HTTP/1.1 200")
    for size in (17 * 1024, 70 * 1024):
        answer = raw_answer(server, padded("/api/health", size))
        assert answer.startswith(b"HTTP/1.1 431"), (size, answer[:200])
    upgrade = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
    assert raw_answer(server, padded("/ws/matches/x", 15 * 1024, upgrade)).startswith(b"HTTP/1.1 101")
    assert raw_answer(server, padded("/ws/matches/x", 17 * 1024, upgrade)).startswith(b"HTTP/1.1 431")


def test_a_long_finished_match_is_replayed_off_the_event_loop(
    tmp_path: Path, toy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 8: loading a finished match replays it (a 329-ply match: 20 ms) and that ran on the event
    loop, holding every other match. It now runs in a worker thread."""
    threads: list[int] = []
    restore = hub_module.Room.restore

    def watched(room: hub_module.Room, moves: Any) -> None:
        threads.append(threading.get_ident())
        restore(room, moves)

    async def scenario() -> None:
        hub = Hub(Store(str(tmp_path / "replay.sqlite3")), plugins=["tests.web.toyplugin"])
        room, host = await hub.create(toy, 2, {"length": 60}, "", {0: "random", 1: "random"})
        await hub.start(room.data.id, host)
        for _ in range(1000):
            if room.data.status == "finished" and (room.auto_task is None or room.auto_task.done()):
                break
            await asyncio.sleep(0.01)
        assert room.data.status == "finished"
        plies = room.state.ply
        del hub.rooms[room.data.id]
        monkeypatch.setattr(hub_module.Room, "restore", watched)
        loaded = await hub.room(room.data.id)
        assert loaded.state.ply == plies and loaded.state.is_over
        assert threads and threading.get_ident() not in threads, "the replay ran on the event loop's thread"
        await hub.shutdown()

    asyncio.run(scenario())



def test_a_long_finished_match_is_replayed_off_the_event_loop_when_stepped_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 8: the replay endpoint (``GET /api/matches/{id}/replay``) built the log of every ply up to
    the one asked for, and the position's view, on the event loop (only the states were replayed in a
    thread). Its whole answer is now built in a worker thread, where no event loop runs."""
    from slipstream.web import app as app_module

    on_loop: list[bool] = []
    replay_log = app_module.replay_log

    def watched(states: Any, seat: int | None) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            on_loop.append(False)
        else:
            on_loop.append(True)
        return replay_log(states, seat)

    app = app_module.create_app(str(tmp_path / "replay.sqlite3"), plugins="tests.web.toyplugin")

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=transport, base_url="http://test"
        ) as client:
            bots = {"0": "random", "1": "random"}
            made = (
                await client.post(
                    "/api/matches", json={"game": "toy-dash", "players": 2, "options": {"length": 60}, "bots": bots}
                )
            ).json()
            started = await client.post(
                f"/api/matches/{made['id']}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
            )
            assert started.status_code == 200, started.text
            for _ in range(1000):
                if (await client.get(f"/api/matches/{made['id']}")).json()["status"] == "finished":
                    break
                await asyncio.sleep(0.01)
            monkeypatch.setattr(app_module, "replay_log", watched)
            total = (await client.get(f"/api/matches/{made['id']}/replay?ply=0")).json()["total"]
            last = await client.get(f"/api/matches/{made['id']}/replay?ply={total}")
            assert last.status_code == 200 and len(last.json()["log"]) >= total > 0, last.text

    asyncio.run(scenario())
    assert on_loop and not any(on_loop), "the replay's log was built on the event loop"
