"""Run the server with uvicorn and every protocol-level limit set (header timeout, WebSocket frame size,
keep-alive): ``run(app, host, port)``. ``python -m slipstream.web serve`` takes the same options as
``slipstream serve``."""

from __future__ import annotations

import argparse
import contextlib
import gc
import resource
import socket
import sys
from typing import Any

import uvicorn

from .guard import protocol_with
from .limits import Limits

SWITCH_INTERVAL = 0.0005


def raise_open_files() -> None:
    """Let the server hold as many sockets as the system allows (the soft limit is often 1024)."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


def settle_garbage_collector() -> None:
    """Make the garbage collector's full passes shorter: everything loaded so far (the libraries, the
    games, the app: about 95,000 tracked objects, none of them garbage) is moved out of the
    collector's sight, so a full pass walks only what the live matches and their connections hold
    (135,000-196,000 objects with 400 concurrent Scrap Racer games, a pass then costing 100-180 ms of
    CPU, during which the event loop and every move waiting on it stand still)."""
    gc.collect()
    gc.freeze()


def config(app: Any, host: str, port: int, limits: Limits | None = None, **kwargs: Any) -> uvicorn.Config:
    limits = limits or getattr(app.state, "limits", None) or Limits.from_env()
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=kwargs.pop("log_level", "warning"),
        http=protocol_with(limits),
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
        sockets: list[socket.socket] | None = None) -> None:
    """Serve ``app`` with every limit set, on ``host:port`` or on ``sockets`` already bound (the CLI binds
    first, so a port in use is one clear error before anything is printed)."""
    raise_open_files()
    # the database thread hands the GIL back sooner: with the default 5 ms a commit could stall the
    # event loop (and every move waiting on it) for whole switch intervals
    sys.setswitchinterval(SWITCH_INTERVAL)
    settle_garbage_collector()
    uvicorn.Server(config(app, host, port, limits)).run(sockets=sockets)


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
    args = parser.parse_args(argv)
    app = create_app(args.database_url, bot_delay=args.bot_delay, plugins=args.plugins or None)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Slipstream is running: open http://{shown}:{args.port}/ in your browser (Ctrl+C stops it)")
    run(app, args.host, args.port)
