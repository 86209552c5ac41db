"""Run the server with uvicorn and every protocol-level limit set (header timeout, WebSocket frame size,
keep-alive, the connection cut of a client that reads too little) and the proxies it believes:
``run(app, host, port)``. ``python -m slipstream.web serve`` takes the same options as ``slipstream
serve``."""

from __future__ import annotations

import argparse
import contextlib
import gc
import ipaddress
import resource
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from .guard import CuttableWebSocket, protocol_with
from .limits import Limits

SWITCH_INTERVAL = 0.0005
FORWARDED_HELP = (
    "Comma-separated addresses or networks of the reverse proxies whose X-Forwarded-For names the client "
    "(the per-address limits then count players, not the proxy); default: none, the header is ignored."
)


def raise_open_files() -> None:
    """Let the server hold as many sockets as the system allows (the soft limit is often 1024)."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


class GarbagePolicy:
    """Keep the garbage collector's full passes short, so they do not stop the event loop (and every
    move waiting on it) for long.

    A full pass walks every object that has survived before. Everything loaded at start (libraries,
    games, the app: about 95,000 objects) and, with 400 live games, what their connections and moves
    hold (135,000-196,000 more) made each full pass cost 100-220 ms, every few seconds as the matches
    grew. So at start and after each full pass, whatever survived it is frozen (``gc.freeze``): left
    out of later passes, which then walk only what survived since. A frozen object is still freed as
    soon as nothing refers to it; only a reference cycle among objects that became garbage after they
    were frozen waits: every ``reset_seconds`` the next full pass walks everything again (one long
    pass, ``gc.unfreeze`` first), reclaiming such cycles.

    Even so a full pass walks what the live games hold, most of which is younger than the last pass
    (each move replaces a match's state): 50-95 ms each, with 500 Grand Prix games on one process,
    where the collector's default ran one every 10 passes of the middle generation, every 5 s or so;
    those pauses were the slowest 1% of the moves. So a full pass comes only after ``full_every``
    middle passes (1,000: about every 8 minutes at that load, rarer when quieter); a cycle of
    garbage waits that long, the memory it holds meanwhile is small.

    A middle pass walks what survived the young passes since the last middle one: at 500 Scrap Racer
    games on one process, mostly the states and messages of the last second's moves (each state stays
    until its match's next move), 10-15 ms once a second with the collector's default of a middle pass
    after 10 young ones; those pauses, with SQLite's checkpoints (``storage.Checkpointer``), were most
    of the slowest 1% of the moves. After every ``MIDDLE_EVERY`` (2) young passes each walks a fifth as
    much: the same work in pauses a fifth as long. ``FULL_EVERY`` counts middle passes, so it is five
    times the 1,000 of before: a full pass about as rarely."""

    MIDDLE_EVERY = 2
    FULL_EVERY = 5000

    def __init__(self, reset_seconds: float = 600.0, clock: Callable[[], float] = time.monotonic,
                 full_every: int = FULL_EVERY) -> None:
        self.reset_seconds = reset_seconds
        self.clock = clock
        self.last_reset = clock()
        self.full_every = full_every
        self.thresholds = gc.get_threshold()

    def install(self) -> None:
        gc.collect()
        gc.freeze()
        gc.callbacks.append(self.after_collection)
        self.thresholds = gc.get_threshold()
        young, _middle, _old = self.thresholds
        gc.set_threshold(young, self.MIDDLE_EVERY, self.full_every)

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self.after_collection)
        gc.set_threshold(*self.thresholds)
        gc.unfreeze()

    def after_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        if self.clock() - self.last_reset >= self.reset_seconds:
            self.last_reset = self.clock()
            gc.unfreeze()  # the next full pass walks everything
        else:
            gc.freeze()


def trusted_proxies(text: str) -> list[str]:
    """The proxies named by ``--forwarded-allow-ips`` (comma-separated addresses or networks, ``*`` for
    any peer), checked: a name that is neither is an error, not a proxy silently never matched."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["*"]:
        return names
    for name in names:
        try:
            ipaddress.ip_network(name, strict=False)
        except ValueError:
            raise ValueError(
                f"--forwarded-allow-ips: {name!r} is not an IP address or network (e.g. 127.0.0.1,10.0.0.0/8)"
            ) from None
    return names


def config(
    app: Any, host: str, port: int, limits: Limits | None = None, forwarded_allow_ips: str = "", **kwargs: Any
) -> uvicorn.Config:
    """uvicorn's settings: every limit, and ``X-Forwarded-For`` believed only from the proxies named in
    ``forwarded_allow_ips`` (none by default: uvicorn's own default believes any peer on loopback)."""
    limits = limits or getattr(app.state, "limits", None) or Limits.from_env()
    proxies = trusted_proxies(forwarded_allow_ips)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=kwargs.pop("log_level", "warning"),
        http=protocol_with(limits),
        ws=CuttableWebSocket,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        ws_max_size=limits.max_frame,
        ws_per_message_deflate=False,
        # uvloop where it is installed (the web extra pins it; asyncio's own loop otherwise): the
        # socket reads and writes of every message run in C instead of asyncio's Python transports
        loop="auto",
        timeout_keep_alive=int(max(1, limits.keep_alive)),
        h11_max_incomplete_event_size=16 * 1024,
        **kwargs,
    )


def run(app: Any, host: str = "127.0.0.1", port: int = 8000, limits: Limits | None = None,
        sockets: list[socket.socket] | None = None, forwarded_allow_ips: str = "") -> None:
    """Serve ``app`` with every limit set, on ``host:port`` or on ``sockets`` already bound (the CLI binds
    first, so a port in use is one clear error before anything is printed); ``forwarded_allow_ips``:
    the proxies whose ``X-Forwarded-For`` is believed (``--forwarded-allow-ips``)."""
    raise_open_files()
    # the database thread hands the GIL back sooner: with the default 5 ms a commit could stall the
    # event loop (and every move waiting on it) for whole switch intervals
    sys.setswitchinterval(SWITCH_INTERVAL)
    GarbagePolicy().install()
    uvicorn.Server(config(app, host, port, limits, forwarded_allow_ips)).run(sockets=sockets)


def main(argv: list[str] | None = None) -> None:
    from .app import create_app

    parser = argparse.ArgumentParser(prog="python -m slipstream.web")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the game server (the options of `slipstream serve`)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--database-url", default="slipstream.sqlite3")
    serve.add_argument("--bot-delay", type=float, default=0.6)
    serve.add_argument("--plugins", default="")
    serve.add_argument("--forwarded-allow-ips", default="", help=FORWARDED_HELP)
    args = parser.parse_args(argv)
    try:
        trusted_proxies(args.forwarded_allow_ips)
    except ValueError as exc:
        parser.error(str(exc))
    app = create_app(args.database_url, bot_delay=args.bot_delay, plugins=args.plugins or None)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Slipstream is running: open http://{shown}:{args.port}/ in your browser (Ctrl+C stops it)")
    run(app, args.host, args.port, forwarded_allow_ips=args.forwarded_allow_ips)
