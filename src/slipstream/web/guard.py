"""The server's guards against oversized, slow and malformed input (limits in ``limits.py``).

- ``BodyGuard`` (ASGI middleware): a request body is read before the app sees it, at most
  ``max_body`` bytes (413 ``too_large`` as soon as it is known to be larger, from its Content-Length
  or while it streams) within ``body_timeout`` seconds (408 ``timeout``), and a JSON body nested
  deeper than ``max_depth`` is a 400 ``bad_request`` (Python's parser would otherwise recurse until
  it fails with a traceback).
- ``HeaderTimeoutH11``: uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a
  request's headers within ``header_timeout`` seconds (uvicorn times out only idle keep-alive
  connections, so half-sent requests used to stay forever).
- ``too_deep``: the nesting check, also used on every WebSocket message before it is parsed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits

Scope = dict[str, Any]
Message = dict[str, Any]


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
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limits = self.limits
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

    @staticmethod
    async def _refuse(send: Any, status: int, code: str, message: str) -> None:
        body = error_body(code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


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


def protocol_with(limits: Limits) -> type[HeaderTimeoutH11]:
    """The HTTP protocol class for uvicorn, with this server's header timeout."""
    return type("GuardedH11", (HeaderTimeoutH11,), {"header_timeout": limits.header_timeout})
