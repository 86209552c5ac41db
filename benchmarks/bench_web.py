"""Web server move latency under load, over loopback.

    python -m benchmarks.bench_web [--games 100] [--duration 20] [--think 1.0] [--scan 100,200,400]

Starts ``slipstream serve`` in its own process on a SQLite file (or ``--database-url``), then a load
script in this process keeps ``--games`` matches running at once: two human seats per match, each
on its own WebSocket, each acting after a random think time (uniform 0.5x-1.5x ``--think`` seconds;
0 for a flat-out run). A move's latency is from sending ``act`` to receiving its ``ack``, which
the server sends after checking the move, committing it to the database and broadcasting the new
state to every seat. Matches that end are replaced so the load stays constant.

``--scan`` repeats the run for several numbers of concurrent games and reports the largest with a
p99 under 50 ms. The load script shares the machine's cores with the server, so the figures are
conservative. By default the game is Toy Dash (the web tests' tiny game, loaded as a plugin); pass
``--game scrap-racer`` to drive a real game (any registered game with a human-only seat setup).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.server import Server  # noqa: E402

TARGET_P99_MS = 50.0
BENCH_LIMITS = {
    "SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE": "1000000",
    "SLIPSTREAM_LIMIT_MAX_OPEN_MATCHES": "100000",
}
"""One load script creates every match from one address: the per-client limits are lifted."""


class Load:
    def __init__(
        self, servers: list[Server], game: str, options: dict[str, Any], think: float, seed: int
    ) -> None:
        self.servers = servers
        self.created = 0
        self.game = game
        self.options = options
        self.think = think
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.matches = 0
        self.recording = False

    async def create(self, clients: list[httpx.AsyncClient]) -> tuple[Server, str, list[str]]:
        """A new match with both seats joined, started, on the next server process in turn (every
        request of the match then goes to that process, as a proxy routing by match id would):
        the process, the match id and the seat tokens."""
        index = self.created % len(self.servers)
        self.created += 1
        http = clients[index]
        body = {"game": self.game, "players": 2, "options": self.options}
        made = (await http.post("/api/matches", json=body)).json()
        if "id" not in made:
            raise RuntimeError(f"could not create a match: {made}")
        mid = made["id"]
        tokens = []
        for seat in (0, 1):
            r = await http.post(f"/api/matches/{mid}/seats/{seat}/join", json={"name": f"load{seat}"})
            tokens.append(r.json()["token"])
        await http.post(
            f"/api/matches/{mid}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
        )
        return self.servers[index], mid, tokens

    async def match(
        self, clients: list[httpx.AsyncClient], first: tuple[Server, str, list[str]], deadline: float
    ) -> None:
        """Keep one match slot busy until the deadline (a new match when one ends)."""
        server, mid, tokens = first
        while True:
            await asyncio.gather(*(self.seat(server, mid, t, deadline) for t in tokens))
            if time.monotonic() >= deadline:
                return
            self.matches += 1
            server, mid, tokens = await self.create(clients)

    async def seat(self, server: Server, mid: str, token: str, deadline: float) -> None:
        url = f"{server.ws_url}/ws/matches/{mid}"
        async with connect(url, max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent: dict[str, float] = {}
            acted_at = -1
            counter = 0
            latest: dict[str, Any] | None = None
            while time.monotonic() < deadline:
                try:
                    msg = json.loads(
                        await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline - time.monotonic()))
                    )
                except TimeoutError:
                    return
                kind = msg["type"]
                if kind == "state":
                    latest = msg
                    if msg["result"] is not None:
                        return
                elif kind == "ack":
                    start = sent.pop(msg["id"], None)
                    if start is not None and self.recording:
                        self.latencies.append((time.perf_counter() - start) * 1000)
                elif kind == "error":
                    self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
                    sent.pop(msg.get("id") or "", None)
                if latest is not None and latest["legal"] and latest["ply"] != acted_at and not sent:
                    acted_at = latest["ply"]
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                    counter += 1
                    mid_id = f"m{counter}"
                    sent[mid_id] = time.perf_counter()
                    action = self.rng.choice(latest["legal"])
                    await ws.send(
                        json.dumps({"type": "act", "action": action, "ply": latest["ply"], "id": mid_id})
                    )


def server_cpu(server: Server) -> float:
    """CPU seconds the server process has used so far (0 if it is not ours to read)."""
    if server.proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    servers: list[Server],
    games: int,
    duration: float,
    warmup: float,
    think: float,
    game: str,
    options: dict[str, Any],
) -> dict[str, Any]:
    load = Load(servers, game, options, think, seed=games)

    def servers_cpu() -> float:
        return sum(server_cpu(s) for s in servers)

    server_cpu0, load_cpu0 = servers_cpu(), time.process_time()
    window: dict[str, float] = {}
    limits = httpx.Limits(max_connections=16)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=s.url, timeout=60, limits=limits))
            for s in servers
        ]
        firsts = await asyncio.gather(*(load.create(clients) for _ in range(games)))
        deadline = time.monotonic() + warmup + duration

        async def record_after_warmup() -> None:
            await asyncio.sleep(warmup)
            load.recording = True
            window["server"], window["load"] = servers_cpu(), time.process_time()

        await asyncio.gather(record_after_warmup(), *(load.match(clients, f, deadline) for f in firsts))
        elapsed = duration
    server_cpu1, load_cpu1 = servers_cpu(), time.process_time()
    server_cpu_s, load_cpu_s = server_cpu1 - server_cpu0, load_cpu1 - load_cpu0
    lat = sorted(load.latencies)
    if not lat:
        return {"games": games, "moves": 0, "errors": load.errors}
    return {
        "games": games,
        "moves": len(lat),
        "moves_per_s": len(lat) / max(elapsed, 1e-9),
        "p50_ms": statistics.median(lat),
        "p99_ms": lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "max_ms": lat[-1],
        "matches_finished": load.matches,
        "server_cpu_s": round(server_cpu_s, 2),
        "load_cpu_s": round(load_cpu_s, 2),
        # CPU per measured move while measuring (replacing the matches that end included)
        "server_cpu_ms_per_move": round((server_cpu1 - window["server"]) * 1000 / len(lat), 2),
        "load_cpu_ms_per_move": round((load_cpu1 - window["load"]) * 1000 / len(lat), 2),
        "load_average": round(os.getloadavg()[0], 1),
        "errors": load.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent matches (without --scan)")
    parser.add_argument("--scan", default="", help="comma-separated numbers of concurrent matches to try")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks (0: flat out)")
    parser.add_argument("--game", default="toy-dash")
    parser.add_argument("--option", action="append", default=[], help="game option name=value (repeatable)")
    parser.add_argument("--database-url", default="", help="default: a SQLite file in a temporary directory")
    parser.add_argument("--port", type=int, default=0, help="drive a server already running on this port")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on one database, each match served by one of them in turn",
    )
    args = parser.parse_args()
    options: dict[str, Any] = {"length": 40} if args.game == "toy-dash" else {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.isdigit() else value
    counts = [int(x) for x in args.scan.split(",") if x] or [args.games]
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for n in counts:
            db = args.database_url or str(Path(tmp) / f"bench-{n}.sqlite3")
            env = {**BENCH_LIMITS, **({"SLIPSTREAM_PEER_POLL": "0.2"} if args.processes > 1 else {})}
            servers = [Server(db, Path(tmp) / f"server-{i}.log", env=env) for i in range(args.processes)]
            try:
                for server in servers:
                    if args.port:
                        server.port = args.port
                    else:
                        server.start()
                row = asyncio.run(run(servers, n, args.duration, args.warmup, args.think, args.game, options))
            finally:
                for server in servers:
                    server.stop()
            row["processes"] = args.processes
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(
        f"\n{'games':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'CPU ms/move':>12} "
        f"{'load avg':>8}  errors"
    )
    for r in rows:
        if r["moves"]:
            cpu = f"{r['server_cpu_ms_per_move']:.2f}/{r['load_cpu_ms_per_move']:.2f}"
            print(
                f"{r['games']:>6} {r['moves_per_s']:>8.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} "
                f"{r['max_ms']:>8.2f} {cpu:>12} {r['load_average']:>8}  {r['errors']}"
            )
    under = [r["games"] for r in rows if r["moves"] and r["p99_ms"] < TARGET_P99_MS]
    print(
        f"\nlargest tried with p99 < {TARGET_P99_MS:.0f} ms: {max(under) if under else 'none'} concurrent games "
        f"(think time {args.think} s)"
    )


if __name__ == "__main__":
    main()
