"""The server's guards against oversized, slow and malformed input (limits in ``limits.py``).

- ``BodyGuard`` (ASGI middleware): a request whose line and headers pass ``max_header_bytes`` is
  refused with 431 ``too_large`` (a WebSocket upgrade too), and a request body is read before the app
  sees it, at most
  ``max_body`` bytes (413 ``too_large`` as soon as it is known to be larger, from its Content-Length
  or while it streams) within ``body_timeout`` seconds (408 ``timeout``), and a JSON body nested
  deeper than ``max_depth`` is a 400 ``bad_request`` (Python's parser would otherwise recurse until
  it fails with a traceback).
- ``HeaderTimeoutH11``: uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a
  request's headers within ``header_timeout`` seconds (uvicorn times out only idle keep-alive
  connections, so half-sent requests used to stay forever).
- ``CuttableWebSocket``: uvicorn's WebSocket protocol, offering the app a way to cut a connection at
  once (``scope[CUT_KEY]``): a client that leaves too much unread cannot be closed politely, since the
  close frame itself would wait behind everything it has not read.
- ``too_deep``: the nesting check, also used on every WebSocket message before it is parsed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import Limits

Scope = dict[str, Any]
Message = dict[str, Any]
CUT_KEY = "slipstream.cut"
"""The scope key under which ``CuttableWebSocket`` gives the app the connection's abort."""


def header_bytes(scope: Scope) -> int:
    """About the bytes of a request's line and headers as sent (``GET /path?query HTTP/1.1`` and each
    ``name: value``, with their line ends)."""
    size = len(scope.get("method", "GET")) + len(scope.get("raw_path") or b"") + len(scope.get("query_string", b""))
    return size + 12 + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


def too_deep(text: str | bytes, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep (strings skipped)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class BodyGuard:
    """Read and check every request body before the app sees it (see the module docstring)."""

    def __init__(self, app: Any, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        limits = self.limits
        if header_bytes(scope) > limits.max_header_bytes:
            message = f"a request's line and headers are at most {limits.max_header_bytes} bytes"
            if scope["type"] == "websocket":
                await self._refuse_upgrade(scope, send, message)
            else:
                await self._refuse(send, 431, "too_large", message)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > limits.max_body):
            await self._refuse(send, 413, "too_large", f"a request body is at most {limits.max_body} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(limits.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limits.max_body:
                        await self._refuse(
                            send, 413, "too_large", f"a request body is at most {limits.max_body} bytes"
                        )
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await self._refuse(
                send, 408, "timeout", f"the request body was not sent within {limits.body_timeout:g} s"
            )
            return
        body = b"".join(chunks)
        if body.lstrip()[:1] in (b"[", b"{") and too_deep(body, limits.max_depth):
            await self._refuse(send, 400, "bad_request", f"JSON is nested at most {limits.max_depth} deep")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return dict(await receive())

        await self.app(scope, replay, send)

    @classmethod
    async def _refuse_upgrade(cls, scope: Scope, send: Any, message: str) -> None:
        """Refuse a WebSocket upgrade with a 431 answer (a plain 403 where the server cannot send one)."""
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        await cls._refuse(send, 431, "too_large", message, prefix="websocket.")

    @staticmethod
    async def _refuse(send: Any, status: int, code: str, message: str, prefix: str = "") -> None:
        body = error_body(code, message)
        await send(
            {
                "type": f"{prefix}http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": f"{prefix}http.response.body", "body": body})


class HeaderTimeoutH11(H11Protocol):
    """Close a connection that takes more than ``header_timeout`` s to send a request's headers.

    The timer runs while the connection waits for a request (from when it opens, and again after each
    response); if no new request has begun when it fires, the connection is closed. A WebSocket
    upgrade hands the connection over and stops the timer.
    """

    header_timeout = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        waiting_for = self.cycle
        self._header_timer = self.loop.call_later(self.header_timeout, self._expire, waiting_for)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _expire(self, waiting_for: Any) -> None:
        self._header_timer = None
        idle = self.cycle is None or self.cycle.response_complete
        if self.cycle is waiting_for and idle and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class CuttableWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with the connection's abort in the scope (``CUT_KEY``): it drops
    whatever is still buffered for the client and closes the socket at once."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # set only for an upgrade uvicorn accepts
        if scope is not None:
            scope[CUT_KEY] = self.transport.abort


def protocol_with(limits: Limits) -> type[HeaderTimeoutH11]:
    """The HTTP protocol class for uvicorn, with this server's header timeout."""
    return type("GuardedH11", (HeaderTimeoutH11,), {"header_timeout": limits.header_timeout})
