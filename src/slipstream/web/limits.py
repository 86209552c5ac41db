"""Every limit the server sets, in one place, with its default (docs/web.md lists them all).

Each can be changed without code through ``SLIPSTREAM_LIMIT_<NAME>`` (e.g.
``SLIPSTREAM_LIMIT_CREATIONS_PER_MINUTE=600`` for a load test); a bad value stops the server at start.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

ENV_PREFIX = "SLIPSTREAM_LIMIT_"


@dataclass(frozen=True)
class Limits:
    max_body: int = 16 * 1024
    """Bytes in an HTTP request body; more gets 413 ``too_large`` before the rest is read."""
    body_timeout: float = 10.0
    """Seconds to send a request body once its headers are in (else 408 ``timeout``)."""
    header_timeout: float = 10.0
    """Seconds a connection may take to send a request's headers (else it is closed)."""
    keep_alive: float = 5.0
    """Seconds an idle HTTP keep-alive connection stays open between requests."""
    max_header_bytes: int = 16 * 1024
    """Bytes in a request's line and headers (a WebSocket upgrade's too); more gets 431 ``too_large``."""
    max_frame: int = 64 * 1024
    """Bytes in one WebSocket message; a larger one closes the socket with 1009 (message too big)."""
    max_message: int = 4096
    """Characters in a WebSocket message the server reads; more gets a ``bad_request`` error."""
    max_depth: int = 32
    """Nesting depth of a JSON message or body; deeper gets a ``bad_request`` error."""
    hello_timeout: float = 15.0
    """Seconds a new WebSocket has to say hello."""
    messages_per_second: float = 20.0
    """Messages one WebSocket may send a second, after a burst of ``message_burst``: the server reads a
    faster socket no faster (a request that costs more, ``text_board`` or ``undo``, counts as several:
    ``app.MESSAGE_COSTS``)."""
    message_burst: int = 40
    """Messages a WebSocket may send at once before ``messages_per_second`` holds it."""
    max_backlog: int = 500
    """Messages (every kind: states, replies, pongs, errors) a WebSocket may leave unread before the
    server cuts it."""
    max_backlog_chars: int = 4 * 1024 * 1024
    """Characters a WebSocket may leave unread before the server cuts it."""
    sockets_per_address: int = 32
    """WebSockets open at once from one client address: more get ``too_many`` and are closed (4429)."""
    spectators_per_match: int = 100
    """Spectators (sockets without a seat's token) of one match: more get ``too_many``, closed (4429)."""
    creations_per_minute: int = 30
    """Matches one client address may create in a minute (a burst of as many, refilled evenly): 429."""
    max_open_matches: int = 1000
    """Matches waiting for players (status ``open``) on one server: more gets 503 ``busy``."""
    open_matches_per_address: int = 50
    """Open matches created from one client address: more gets 429 ``too_many``."""
    max_running_matches: int = 5000
    """Running matches on one server: a start past it gets 503 ``busy``."""
    running_matches_per_address: int = 100
    """Running matches created from one client address: a start past it gets 429 ``too_many``."""
    open_expiry: float = 3600.0
    """Seconds an open match may wait, since its last change, before it expires (status ``expired``)."""
    abandoned_expiry: float = 86400.0
    """Seconds a running match may go without a move and with nobody connected before it is abandoned."""
    sweep_every: float = 60.0
    """Seconds between the server's looks for matches to expire."""
    bot_deadline: float = 10.0
    """Seconds a bot has for one move; then its worker is replaced and the seat plays a random move."""
    max_bot_seconds: float = 3.0
    """The longest thinking time a bot name may ask for (``mcts:3s``)."""
    deep_searches_per_address: int = 6
    """Deep-search bot seats (a search of more than 1 s a move: ``mcts:3s``) in the open and running
    matches created from one address: more gets 429 ``too_many_searches``."""
    deep_searches: int = 12
    """Deep-search bot seats in the open and running matches of one server process: more gets 503
    ``too_many_searches``."""
    claim_grace: float = 120.0
    """Seconds every other player of a running race must have been away (no open socket) before a
    player who is there may claim the win (the away seats then resign)."""
    chat_length: int = 500
    """Characters in one table chat message (after trimming); longer gets ``bad_request`` (nothing stored)."""
    chat_per_minute: int = 20
    """Chat messages one socket may send a minute, and one seat (or spectator) over all its sockets, after a
    burst of ``chat_burst``; faster gets ``too_many`` with ``wait`` (nothing stored)."""
    chat_burst: int = 5
    """Chat messages a socket or a seat may send at once before ``chat_per_minute`` holds it."""
    chat_history: int = 200
    """Chat messages a client is sent when it connects (the latest); the replay shows them all."""
    rematch_hold: float = 300.0
    """Seconds a rematch holds each player's seat for them (no stranger may join it, no bot be put in
    it); then it is an open seat."""

    logins_per_minute_per_name: int = 5
    """Login attempts for one account name in a minute, from anywhere (a burst of as many, refilled
    evenly): more get 429 ``too_many``."""
    logins_per_minute_per_address: int = 20
    """Login attempts from one client address in a minute, whatever the names: more get 429 ``too_many``."""
    signups_per_minute_per_address: int = 5
    """Accounts made from one client address in a minute: more get 429 ``too_many``."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        env = os.environ if environ is None else environ
        values: dict[str, float | int] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            kind = int if f.type in ("int", int) else float
            try:
                value = kind(raw)
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{f.name.upper()} must be a number, not {raw!r}") from None
            if not value > 0:
                raise ValueError(f"{ENV_PREFIX}{f.name.upper()} must be above 0, not {raw!r}")
            values[f.name] = value
        return cls(**values)  # type: ignore[arg-type]
