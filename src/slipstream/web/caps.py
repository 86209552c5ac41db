"""The server's caps, one place for them all: matches a client may create a minute, matches waiting
for players and running, per address and on the server, and the bots a match may seat (the lobby's, or a
search bounded in time; deep searches counted, since they queue for the same few workers)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from slipstream.bots.registry import make_bot, parse_mcts
from slipstream.engine.errors import SlipstreamError

from .botwork import DEEP_SECONDS, is_deep
from .errors import ApiError
from .limits import Limits
from .room import ACTIVE, Room
from .seats import STRENGTHS, bot_menu


@dataclass
class Census:
    """Open and running matches in memory (``Caps.census``), all of them and those of one address."""

    open: int = 0
    running: int = 0
    open_here: int = 0
    running_here: int = 0


class Caps:
    """The caps of ``limits`` over the rooms in memory (``rooms``, shared with the ``RoomCache``)."""

    def __init__(self, limits: Limits, rooms: dict[str, Room]) -> None:
        self.limits = limits
        self.rooms = rooms
        self.buckets: dict[str, tuple[float, float]] = {}
        """Each client's token bucket of creations (``allow_creation``): tokens left, and when."""

    def allow_creation(self, client: str) -> None:
        """A client may create ``creations_per_minute`` matches in a minute (a token bucket)."""
        rate = self.limits.creations_per_minute
        now = time.monotonic()
        tokens, last = self.buckets.get(client, (float(rate), now))
        tokens = min(float(rate), tokens + (now - last) * rate / 60.0)
        if tokens < 1.0:
            raise ApiError(
                429,
                "too_many",
                f"at most {rate} matches a minute from one address; try again in "
                f"{(1.0 - tokens) * 60.0 / rate:.0f} s",
            )
        self.buckets[client] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:  # forget the addresses whose bucket is full again
            full = [c for c, (t, at) in self.buckets.items() if t + (now - at) * rate / 60.0 >= rate]
            for c in full:
                del self.buckets[c]

    def census(self, address: str | None) -> Census:
        """The open and running matches in memory, all and those created from ``address``."""
        count = Census()
        for room in self.rooms.values():
            status = room.data.status
            here = int(address is not None and room.address == address)
            if status == "open":
                count.open += 1
                count.open_here += here
            elif status == "running":
                count.running += 1
                count.running_here += here
        return count

    def room_for_one_more(self, address: str | None) -> None:
        """A new match (created or a rematch) only while its address has fewer than
        ``open_matches_per_address`` and the server fewer than ``max_open_matches`` waiting for players."""
        count = self.census(address)
        limit = self.limits.open_matches_per_address
        if count.open_here >= limit:
            raise ApiError(
                429,
                "too_many",
                f"at most {limit} matches waiting for players from one address: start one, or let one "
                f"expire ({self.limits.open_expiry:.0f} s after its last change)",
            )
        if count.open >= self.limits.max_open_matches:
            raise ApiError(
                503, "busy", f"the server holds {count.open} matches waiting for players; try again later"
            )

    def run_refusal(self, room: Room) -> ApiError | None:
        """Why ``room`` may not start now, if it may not: its address runs ``running_matches_per_address``
        matches already, or the server ``max_running_matches``."""
        count = self.census(room.address)
        limit = self.limits.running_matches_per_address
        if count.running_here >= limit:
            return ApiError(
                429, "too_many", f"at most {limit} running matches from one address: finish or resign one first"
            )
        if count.running >= self.limits.max_running_matches:
            return ApiError(503, "busy", f"the server runs {count.running} matches; try again later")
        return None

    def check_searches(self, address: str | None, adding: int) -> None:
        """``adding`` more deep-search seats (``botwork.is_deep``: ``mcts:3s``) only while the open and
        running matches hold fewer than ``deep_searches`` of them on this server and fewer than
        ``deep_searches_per_address`` in the matches created from ``address``: deep searches queue for
        the same few workers, and one user must not be able to fill that queue for everyone."""
        if adding <= 0:
            return
        total = mine = 0
        for room in self.rooms.values():
            if room.data.status not in ACTIVE:
                continue
            deep = sum(1 for s in room.data.seats if s.kind == "bot" and is_deep(s.bot))
            total += deep
            if address is not None and room.address == address:
                mine += deep
        per_address, server = self.limits.deep_searches_per_address, self.limits.deep_searches
        if address is not None and mine + adding > per_address:
            raise ApiError(
                429,
                "too_many_searches",
                f"at most {per_address} deep-search bots (thinking more than {DEEP_SECONDS:g} s a move) in the "
                f"races from one address; yours have {mine}: choose a quicker bot, or wait for a race to end",
            )
        if total + adding > server:
            raise ApiError(
                503,
                "too_many_searches",
                f"the server runs as many deep-search bots as it takes ({server}): choose a quicker bot, or "
                "try again later",
            )

    def check_bot(self, game_id: str, bot: str) -> None:
        """The lobby's bots, or a search whose time is bounded (``mcts:400:2s``) by ``max_bot_seconds``."""
        menu = bot_menu(game_id)
        if bot not in menu:
            parts = bot.split(":")
            seconds: float | None = None
            if parts[0] in STRENGTHS:
                try:
                    _playouts, seconds, _heuristic = parse_mcts(":".join(p for p in parts if p != "uct"))
                except SlipstreamError:
                    seconds = None
            limit = self.limits.max_bot_seconds
            if seconds is None or not seconds <= limit:
                raise ApiError(
                    400,
                    "unknown_bot",
                    f"this bot is not offered: choose one of {', '.join(menu)}, or a search with "
                    f"a time bound of at most {limit:g} s (e.g. mcts:400:{limit:g}s)",
                    bots=menu,
                )
        try:
            make_bot(bot, game_id, 0)
        except SlipstreamError:
            raise ApiError(
                400, "unknown_bot", f"this bot cannot play this game: choose one of {', '.join(menu)}", bots=menu
            ) from None

