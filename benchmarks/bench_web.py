"""Web server move latency under load, over loopback.

    python -m benchmarks.bench_web [--games 100] [--duration 20] [--think 1.0] [--scan 100,200,400]
                                   [--clients 2] [--processes 1] [--game scrap-racer] [--addresses 64]
                                   [--chat-every 5] [--presence] [--spectators 1]
                                   [--compare chat|presence [--repeat 5]]

Starts ``slipstream serve`` in its own process on a SQLite file (or ``--database-url``), then
``--clients`` load processes (each driving its share of the matches) keep ``--games`` matches running
at once: two human seats per match, each on its own WebSocket, each acting after a random think time
(uniform 0.5x-1.5x ``--think`` seconds; 0 for a flat-out run). A seat acts whenever its state message
offers it legal actions, so simultaneous and team choices (a ``frozenset`` actor: every seat in the
window is offered actions) are answered by every seat in them. A move's latency is from sending
``act`` to receiving its ``ack``, which the server sends after checking the move, committing it to the
database and broadcasting the new state to every seat. Matches that end are replaced so the load stays
constant (creating them is part of the load).

Every match is created and both its seats connected before anyone plays; then play starts everywhere
at once, and the ``--duration`` seconds after ``--warmup`` are measured. ``--scan`` repeats the run for
several numbers of concurrent games and reports the largest with a p99 under 50 ms. The load processes
share the machine's cores with the server; the CPU each side used per measured move is reported. By
default the game is Toy Dash (the web tests' tiny game, loaded as a plugin); pass ``--game
scrap-racer`` to drive a real game (any registered game that two human seats can play).

The server runs with its default limits, per-address ones included: the load comes from ``--addresses``
loopback addresses (``127.0.0.2`` on; Linux answers every ``127.x.y.z``), each match slot always from
the same one, as that many players' machines would, so no address passes its share (at 500 games and 64
addresses: 8 running matches and 16 sockets each).

Chat and presence (issue 28): ``--chat-every N`` has each seat say a chat line after every N of its
moves, the first after a random 1 to N (so the seats' lines do not come in bursts: every match starts at
once). Presence is the server's own work, on whatever connects: who is there (a socket open) or away
and for how long, and the spectator count, told in a ``presence`` message when sockets come and go,
and each seat's claim of the win in its state messages. The match page sends nothing for it: no pings
or polls of its own (``static/match.js``: a hello, then moves and chat lines; it fetches the glossary and
the seats' accounts once on opening). ``--presence`` makes the players' sockets do what the page does
(its hello, those two requests, no WebSocket pings of their own); ``--spectators N`` opens N spectator
pages per match, each reading every message. ``--compare chat`` runs row A (no chat, no presence) and
row B (``--chat-every``, 5 by default, and ``--presence``) alternately, ``--repeat`` times each, each
row on a fresh server (and SQLite file), the spectators in both, and reports the median p99 of each side
and B over A (``--compare presence``: row B without the chat), so a busy minute of a shared machine
does not decide the comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slipstream.jsontext import decode, encode  # noqa: E402
from tests.web.server import Server  # noqa: E402

TARGET_P99_MS = 50.0
PLAYERS = 2


def loopback(count: int) -> list[str]:
    """``count`` loopback addresses to connect from: 127.0.0.2, 127.0.0.3, ... (up to 127.0.0.255, then
    127.0.1.0, ...)."""
    return [f"127.0.{(n + 2) // 256}.{(n + 2) % 256}" for n in range(count)]


@dataclass
class Plan:
    """What one load process does: its share of the matches, on these server URLs."""

    urls: list[str]
    addresses: list[str]
    """The loopback addresses the load connects from (match slot ``i`` from ``addresses[i % len]``)."""
    games: int
    first_index: int
    game: str
    options: dict[str, Any]
    think: float
    warmup: float
    duration: float
    seed: int
    chat_every: int = 0
    """Each seat says a table chat line after every this many of its moves (0: none)."""
    presence: bool = False
    """Each player's socket behaves as the match page does (``--presence``): the page's hello and
    its two requests on opening, no WebSocket pings of its own."""
    spectators: int = 0
    """Spectator sockets per match (``--spectators``), each a match page reading everything it is sent."""


@dataclass
class Outcome:
    """What one load process measured."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    matches_finished: int = 0
    cpu_s: float = 0.0
    chat_lines: int = 0
    """Chat lines the seats' sockets received (each line once per seat that got it)."""
    watched: int = 0
    """Messages the spectators' sockets read."""


@dataclass
class Seat:
    """A seat's connection, opened before play starts."""

    url: str
    token: str
    ws: ClientConnection
    first: dict[str, Any]


@dataclass
class Table:
    """A match's sockets: its players' seats and (``--spectators``) its spectators."""

    seats: list[Seat]
    watchers: list[ClientConnection] = field(default_factory=list)


async def request(http: httpx.AsyncClient, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """An HTTP request, sent again (up to twice) when its kept-alive connection turns out closed: the
    server closes one idle for its keep-alive time, which an address's connection may be while the
    other addresses' matches are made (a closed connection read nothing: the request was not served)."""
    for attempt in range(3):
        try:
            return await http.request(method, path, **kwargs)
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class Load:
    """One load process's matches (``Plan``), each kept running until the deadline."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.created = plan.first_index
        self.rng = random.Random(plan.seed)
        self.outcome = Outcome()
        self.record_from = float("inf")
        self.deadline = float("inf")

    async def create(self, clients: list[httpx.AsyncClient], address: str) -> Table:
        """A new match with both seats joined and started, on the next server process in turn (every
        request of the match then goes to that process, as a proxy routing by match id would), with
        each seat's WebSocket open and its first state received (and its spectators' sockets; with
        ``--presence`` the pages' requests on opening); ``clients``: one per server process, connecting
        from ``address`` as the seats' sockets do."""
        index = self.created % len(clients)
        self.created += 1
        http = clients[index]
        body = {"game": self.plan.game, "players": PLAYERS, "options": self.plan.options}
        made = (await request(http, "POST", "/api/matches", json=body)).json()
        if "id" not in made:
            raise RuntimeError(f"could not create a match: {made}")
        mid = made["id"]
        tokens = []
        for seat in range(PLAYERS):
            r = await request(http, "POST", f"/api/matches/{mid}/seats/{seat}/join", json={"name": f"load{seat}"})
            tokens.append(r.json()["token"])
        host = {"Authorization": f"Bearer {made['host_token']}"}
        await request(http, "POST", f"/api/matches/{mid}/start", headers=host)
        url = f"{self.plan.urls[index].replace('http://', 'ws://')}/ws/matches/{mid}"
        # a browser sends no WebSocket pings of its own (it answers the server's): the page-like load neither
        ping = None if self.plan.presence else 20.0  # (websockets' own default: every 20 s)
        seats = []
        for token in tokens:
            ws = await connect(url, max_queue=None, open_timeout=60, local_addr=(address, 0), ping_interval=ping)
            hello: dict[str, Any] = {"type": "hello", "token": token}
            if self.plan.presence:
                hello["text_board"] = False  # as match.js says it (the text board's box starts closed)
            await ws.send(encode(hello))
            seats.append(Seat(url, token, ws, await self.first_state(ws)))
        watchers = []
        for n in range(self.plan.spectators):  # a spectator's page, as match.js opens it
            ws = await connect(url, max_queue=None, open_timeout=60, local_addr=(address, 0), ping_interval=ping)
            viewer = f"{self.created:08x}{n:08x}{self.plan.seed:016x}"[-32:]  # the page's 32 hex digits
            await ws.send(encode({"type": "hello", "token": None, "text_board": False, "viewer": viewer}))
            await self.first_state(ws)
            watchers.append(ws)
        if self.plan.presence:  # each page, on opening, asks for the match's glossary and its seats' accounts
            for _ in range(len(seats) + len(watchers)):
                await request(http, "GET", f"/api/matches/{mid}/glossary")
                await request(http, "GET", f"/api/matches/{mid}/accounts")
        return Table(seats, watchers)

    @staticmethod
    async def first_state(ws: ClientConnection) -> dict[str, Any]:
        """The first ``state`` message a new socket gets (after its log)."""
        first: dict[str, Any] = {}
        while first.get("type") != "state":
            first = decode(await ws.recv(decode=False))
        return first

    async def match(
        self, clients: list[httpx.AsyncClient], address: str, table: Table, go: asyncio.Event
    ) -> None:
        """Keep one match slot busy until the deadline (a new match when one ends, from the same address)."""
        await go.wait()
        while True:
            await asyncio.gather(
                *(self.play(seat) for seat in table.seats), *(self.watch(ws) for ws in table.watchers)
            )
            if time.monotonic() >= self.deadline:
                return
            self.outcome.matches_finished += 1
            table = await self.create(clients, address)

    async def watch(self, ws: ClientConnection) -> None:
        """A spectator's page: it reads every message until the race ends (or the deadline)."""
        try:
            while True:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    return
                try:
                    async with asyncio.timeout(max(0.05, left)):
                        msg = decode(await ws.recv(decode=False))
                except TimeoutError:
                    return
                self.outcome.watched += 1
                if msg["type"] == "state" and msg["result"] is not None:
                    return
        finally:
            await ws.close()

    async def play(self, seat: Seat) -> None:
        ws = seat.ws
        sent: dict[str, float] = {}
        acted_at = -1
        counter = 0
        # each seat's lines start after a random 1..N moves: every match starts at once, and lines said at
        # every seat's Nth move came in bursts (a second's worth of lines in a few hundred milliseconds)
        chat_phase = self.rng.randrange(self.plan.chat_every) if self.plan.chat_every else 0
        latest: dict[str, Any] | None = seat.first
        errors = self.outcome.errors
        try:
            while True:
                if latest is not None and latest["result"] is not None:
                    return
                if latest is not None and latest["legal"] and latest["ply"] != acted_at and not sent:
                    acted_at = latest["ply"]
                    if self.plan.think:
                        await asyncio.sleep(self.plan.think * (0.5 + self.rng.random()))
                    counter += 1
                    move_id = f"m{counter}"
                    action = self.rng.choice(latest["legal"])
                    sent[move_id] = time.perf_counter()
                    await ws.send(encode({"type": "act", "action": action, "ply": latest["ply"], "id": move_id}))
                    if self.plan.chat_every and (counter + chat_phase) % self.plan.chat_every == 0:
                        await ws.send(encode({"type": "chat", "text": f"move {counter}: <b>go</b> & win"}))
                left = self.deadline - time.monotonic()
                if left <= 0:
                    return
                try:
                    async with asyncio.timeout(max(0.05, left)):  # no task per message, as wait_for makes
                        msg = decode(await ws.recv(decode=False))
                except TimeoutError:
                    return
                kind = msg["type"]
                if kind == "state":
                    latest = msg
                elif kind == "ack":
                    start = sent.pop(msg["id"], None)
                    now = time.monotonic()
                    if start is not None and self.record_from <= now < self.deadline:
                        # a move counts when it was sent after the warm-up
                        took = time.perf_counter() - start
                        if now - took >= self.record_from:
                            self.outcome.latencies.append(took * 1000)
                elif kind == "chat":
                    self.outcome.chat_lines += len(msg["lines"])
                elif kind == "error":
                    errors[msg["code"]] = errors.get(msg["code"], 0) + 1
                    sent.pop(msg.get("id") or "", None)
        finally:
            await ws.close()


async def drive(plan: Plan, ready: Any, start: Any) -> Outcome:
    """Create and connect this process's matches, say ready, wait for the common start, play."""
    load = Load(plan)
    limits = httpx.Limits(max_connections=4)
    async with contextlib.AsyncExitStack() as stack:
        slots = [plan.addresses[(plan.first_index + i) % len(plan.addresses)] for i in range(plan.games)]
        clients: dict[str, list[httpx.AsyncClient]] = {}
        for address in dict.fromkeys(slots):
            clients[address] = [
                await stack.enter_async_context(
                    httpx.AsyncClient(
                        base_url=url,
                        timeout=60,
                        limits=limits,
                        transport=httpx.AsyncHTTPTransport(local_address=address, limits=limits),
                    )
                )
                for url in plan.urls
            ]
        firsts = []
        for address in slots:  # one at a time: the server is not measured yet, keep it simple
            firsts.append(await load.create(clients[address], address))
        ready.set()
        await asyncio.to_thread(start.wait)
        begun = time.monotonic()
        load.record_from = begun + plan.warmup
        load.deadline = load.record_from + plan.duration
        go = asyncio.Event()
        tasks = [
            asyncio.create_task(load.match(clients[address], address, table, go))
            for address, table in zip(slots, firsts, strict=True)
        ]
        go.set()
        await asyncio.sleep(max(0.0, load.record_from - time.monotonic()))
        cpu0 = time.process_time()
        await asyncio.gather(*tasks)
        load.outcome.cpu_s = time.process_time() - cpu0
    return load.outcome


def client_main(plan: Plan, ready: Any, start: Any, results: Any) -> None:
    try:  # the web extra's event loop, as the server uses it
        import uvloop

        loop_factory: Any = uvloop.new_event_loop
    except ImportError:
        loop_factory = None
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        outcome = runner.run(drive(plan, ready, start))
    results.put(outcome)


def server_cpu(server: Server) -> float:
    """CPU seconds the server process has used so far (0 if it is not ours to read)."""
    if server.proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Setup:
    """What the load does besides moving: its chat lines and how page-like its sockets are."""

    label: str = ""
    """The row's name in a comparison (``--compare``: ``A`` or ``B``)."""
    chat_every: int = 0
    presence: bool = False
    spectators: int = 0


def run(
    servers: list[Server],
    games: int,
    clients: int,
    args: argparse.Namespace,
    options: dict[str, Any],
    setup: Setup | None = None,
) -> dict[str, Any]:
    """One measured run: ``games`` matches driven by ``clients`` load processes (``setup``: by default
    the chat and presence options of ``args``)."""
    if setup is None:
        setup = Setup("", args.chat_every, args.presence, args.spectators)
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    results = context.Queue()
    shares = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
    readies, procs = [], []
    first = 0
    for i, share in enumerate(shares):
        plan = Plan(
            urls=[s.url for s in servers],
            addresses=loopback(args.addresses),
            games=share,
            first_index=first,
            game=args.game,
            options=options,
            think=args.think,
            warmup=args.warmup,
            duration=args.duration,
            seed=games * 1000 + i,
            chat_every=setup.chat_every,
            presence=setup.presence,
            spectators=setup.spectators,
        )
        first += share
        ready = context.Event()
        proc = context.Process(target=client_main, args=(plan, ready, start, results), daemon=True)
        proc.start()
        readies.append(ready)
        procs.append(proc)
    for ready, proc in zip(readies, procs, strict=True):
        while not ready.wait(1.0):
            if not proc.is_alive():
                raise RuntimeError("a load process failed before play started")
    start.set()
    time.sleep(args.warmup)
    cpu0 = sum(server_cpu(s) for s in servers)
    time.sleep(args.duration)
    cpu1 = sum(server_cpu(s) for s in servers)
    load_average = os.getloadavg()[0]
    outcomes = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
    lat = sorted(x for o in outcomes for x in o.latencies)
    errors: dict[str, int] = {}
    for o in outcomes:
        for code, n in o.errors.items():
            errors[code] = errors.get(code, 0) + n
    row: dict[str, Any] = {"game": args.game, "games": games, "clients": clients, "processes": len(servers),
                           "addresses": args.addresses, "chat_every": setup.chat_every,
                           "presence": setup.presence, "spectators": setup.spectators,
                           "row": setup.label,
                           "moves": len(lat), "errors": errors, "load_average": round(load_average, 1)}
    if not lat:
        return row
    load_cpu = sum(o.cpu_s for o in outcomes)
    row.update(
        moves_per_s=round(len(lat) / args.duration, 1),
        p50_ms=round(statistics.median(lat), 2),
        p99_ms=round(lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2),
        max_ms=round(lat[-1], 2),
        matches_finished=sum(o.matches_finished for o in outcomes),
        chat_lines_received=sum(o.chat_lines for o in outcomes),
        spectator_messages=sum(o.watched for o in outcomes),
        server_cpu_ms_per_move=round((cpu1 - cpu0) * 1000 / len(lat), 3),
        load_cpu_ms_per_move=round(load_cpu * 1000 / len(lat), 3),
        server_cores=round((cpu1 - cpu0) / args.duration, 2),
        load_cores=round(load_cpu / args.duration, 2),
    )
    return row


COMPARED = {"chat": "chat lines and presence", "presence": "presence alone"}
"""What ``--compare`` puts in row B (row A: neither)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``argv``: ``sys.argv[1:]`` when ``None``); a bad combination stops with exit 2."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent matches (without --scan)")
    parser.add_argument("--scan", default="", help="comma-separated numbers of concurrent matches to try")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks (0: flat out)")
    parser.add_argument("--game", default="toy-dash")
    parser.add_argument("--option", action="append", default=[], help="game option name=value (repeatable)")
    parser.add_argument(
        "--database-url",
        default="",
        help="default: a SQLite file in a temporary directory; {row} in it: the row's number (from 1)",
    )
    parser.add_argument("--port", type=int, default=0, help="drive a server already running on this port")
    parser.add_argument("--clients", type=int, default=2, help="load processes, each driving a share of the matches")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on one database, each match served by one of them in turn",
    )
    parser.add_argument(
        "--addresses", type=int, default=64, help="loopback addresses the load connects from (127.0.0.2 on)"
    )
    parser.add_argument(
        "--chat-every", type=int, default=0, help="each seat says a table chat line after every N of its moves"
    )
    parser.add_argument(
        "--presence",
        action="store_true",
        help="players' sockets behave as the match page: its hello and its requests on opening, no pings of "
        "their own (presence itself is the server's: sockets coming and going)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectator sockets per match, each a match page reading everything (with --compare: in both rows)",
    )
    parser.add_argument(
        "--compare",
        choices=sorted(COMPARED),
        default="",
        help="alternate row A (no chat, no presence) and row B (chat: --chat-every, 5 if unset, and presence; "
        "presence: presence alone) --repeat times each, A B A B ..., and report B's p99 over A's",
    )
    parser.add_argument("--repeat", type=int, default=5, help="rows of each kind with --compare")
    parser.add_argument("--json", default="", help="also append each row as a JSON line to this file")
    args = parser.parse_args(argv)
    if args.compare and args.scan:
        parser.error("--compare runs one number of games (--games), not --scan")
    if args.compare and args.port:
        parser.error("--compare starts a fresh server for each row; it cannot use --port")
    if args.repeat < 1 or args.spectators < 0 or args.chat_every < 0:
        parser.error("--repeat is at least 1; --spectators and --chat-every at least 0")
    return args


def compare_setups(args: argparse.Namespace) -> list[Setup]:
    """The rows of ``--compare``, in the order they run: A, B, A, B, ... (``--repeat`` of each)."""
    plain = Setup("A", spectators=args.spectators)
    if args.compare == "chat":
        other = Setup("B", args.chat_every or 5, True, args.spectators)
    else:
        other = Setup("B", 0, True, args.spectators)
    return [plain, other] * args.repeat


def measure(
    args: argparse.Namespace, games: int, options: dict[str, Any], tmp: Path, name: str, setup: Setup | None = None
) -> dict[str, Any]:
    """One row on its own fresh server(s) and database: a SQLite file ``name`` in ``tmp``, or
    ``--database-url`` (where ``{row}`` stands for the row's number from 1, for a fresh database each)."""
    db = args.database_url.replace("{row}", name.split("-")[1]) if args.database_url else str(tmp / f"{name}.sqlite3")
    env = {"SLIPSTREAM_PEER_POLL": "0.2"} if args.processes > 1 else {}
    servers = [Server(db, tmp / f"{name}-server-{i}.log", env=env) for i in range(args.processes)]
    try:
        for server in servers:
            if args.port:
                server.port = args.port
            else:
                server.start()
        return run(servers, games, max(1, args.clients), args, options, setup)
    finally:
        for server in servers:
            server.stop()


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``--compare``'s verdict: the median p99 (and CPU per move) of rows A and of rows B, B over A, and
    each pair's ratio (the B row over the A row run just before it)."""
    p99 = {label: [r["p99_ms"] for r in rows if r["row"] == label and r["moves"]] for label in "AB"}
    cpu = {label: [r["server_cpu_ms_per_move"] for r in rows if r["row"] == label and r["moves"]] for label in "AB"}
    pairs = [
        round(b["p99_ms"] / a["p99_ms"], 2)
        for a, b in zip(rows[::2], rows[1::2], strict=False)
        if a["moves"] and b["moves"]
    ]
    out: dict[str, Any] = {"pairs": pairs}
    if p99["A"] and p99["B"]:
        a, b = statistics.median(p99["A"]), statistics.median(p99["B"])
        out.update(p99_a_ms=round(a, 2), p99_b_ms=round(b, 2), b_over_a=round(b / a, 3))
        out.update(pair_ratio_median=round(statistics.median(pairs), 2) if pairs else None)
        out.update(cpu_a_ms=round(statistics.median(cpu["A"]), 3), cpu_b_ms=round(statistics.median(cpu["B"]), 3))
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark as the command line says; the rows measured."""
    args = parse_args(argv)
    options: dict[str, Any] = {"length": 40} if args.game == "toy-dash" else {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.isdigit() else value
    counts = [int(x) for x in args.scan.split(",") if x] or [args.games]
    plan: list[tuple[int, Setup | None]] = (
        [(args.games, setup) for setup in compare_setups(args)] if args.compare else [(n, None) for n in counts]
    )
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for i, (n, setup) in enumerate(plan):
            row = measure(args, n, options, Path(tmp), f"bench-{i + 1}-{n}", setup)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.json:
                with open(args.json, "a") as out:
                    out.write(json.dumps(row) + "\n")
    print(
        f"\n{'row':>3} {'games':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'CPU ms/move':>12} "
        f"{'load avg':>8}  errors"
    )
    for r in rows:
        if r["moves"]:
            cpu = f"{r['server_cpu_ms_per_move']:.2f}/{r['load_cpu_ms_per_move']:.2f}"
            print(
                f"{r['row']:>3} {r['games']:>6} {r['moves_per_s']:>8.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
                f"{r['max_ms']:>8.2f} {cpu:>12} {r['load_average']:>8}  {r['errors']}"
            )
    if args.compare:
        verdict = summarize(rows)
        print(json.dumps({"compare": args.compare, **verdict}), flush=True)
        if "b_over_a" in verdict:
            print(
                f"\nmedian p99: A (no chat, no presence) {verdict['p99_a_ms']} ms, B ({COMPARED[args.compare]}) "
                f"{verdict['p99_b_ms']} ms: B/A {verdict['b_over_a']} (pairs {verdict['pairs']}); server CPU "
                f"per move {verdict['cpu_a_ms']} / {verdict['cpu_b_ms']} ms"
            )
        return rows
    under = [r["games"] for r in rows if r["moves"] and r["p99_ms"] < TARGET_P99_MS]
    print(
        f"\nlargest tried with p99 < {TARGET_P99_MS:.0f} ms: {max(under) if under else 'none'} concurrent games "
        f"(think time {args.think} s; CPU ms/move: server/load processes)"
    )
    return rows


if __name__ == "__main__":
    main()
