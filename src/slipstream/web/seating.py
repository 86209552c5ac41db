"""Making a match and filling its seats: the host creates it (with bots in some seats), players join,
the host seats bots or takes a stranger out, a player moves their seat to another device, and the host
starts the race. Each change is decided on the room and written conditionally (``Writer.conditional``);
the hub then sets the automatic steps going."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any

from slipstream.jsontext import encode

from . import clock, dice, invites, presence
from .botwork import is_deep
from .caps import Caps
from .commits import Write, Writer
from .errors import ApiError
from .options import load_game
from .pace import PACES
from .room import Room
from .rooms import RoomCache
from .seats import bot_seat_name, hash_token, no_such_seat, seat_label, seat_numbers, token_matches, unique_name
from .services import Services
from .storage import MatchData, SeatData

TURN_SECONDS = (3, 3600)
"""The turn timer a host may set, in seconds (the lobby offers 30 s to 5 minutes)."""


class Seating:
    """The lobby's changes to a match before and while it runs (not its moves)."""

    def __init__(self, services: Services, cache: RoomCache, writer: Writer, caps: Caps) -> None:
        self.services = services
        self.cache = cache
        self.writer = writer
        self.caps = caps

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        title: str,
        bots: dict[int, str],
        turn_seconds: int | None = None,
        address: str | None = None,
        public: bool = False,
        pace: str = "live",
    ) -> tuple[Room, str]:
        """A new open match; ``address``: the creator's (the caps on deep searches count per address),
        ``public``: listed in ``GET /api/matches`` (else it is reached by its link only), ``pace``: live
        or turn-based (``web/pace.py``: its move limit is the turn timer)."""
        if pace not in PACES:
            raise ApiError(400, "bad_request", f"pace must be one of {', '.join(PACES)}")
        if PACES[pace].seconds is not None:
            if turn_seconds is not None:
                raise ApiError(400, "bad_request", "a turn-based pace is its own move limit: leave turn_seconds out")
            turn_seconds = PACES[pace].seconds
        elif turn_seconds is not None and not TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]:
            raise ApiError(
                400,
                "bad_request",
                f"turn_seconds must be from {TURN_SECONDS[0]} to {TURN_SECONDS[1]} (or left out: no timer)",
            )
        self.caps.room_for_one_more(address)
        game = await asyncio.to_thread(
            load_game, game_id, {"players": players, **options} if players is not None else options
        )
        host_token = secrets.token_urlsafe(24)
        now = clock.now()
        data = MatchData(
            id=secrets.token_urlsafe(8),
            game_id=game.id,
            version=game.version,
            options=game.record_options(),
            seed=secrets.randbits(48),
            chance_key=dice.new_key(),
            status="open",
            title=title.strip()[:80] or game.name,
            host_hash=hash_token(host_token),
            created_at=now,
            updated_at=now,
            seats=[SeatData(seat=s) for s in game.seats],
            turn_seconds=turn_seconds,
            pace=pace,
            rev=0,
            public=public,
        )
        for seat, bot in bots.items():
            if seat not in game.seats:
                bad = no_such_seat(seat, game.players)
                raise ApiError(400, bad.code, bad.message)
            self.caps.check_bot(game.id, bot)
            data.seats[seat] = SeatData(seat=seat, kind="bot", name=bot_seat_name(bot, seat), bot=bot)
        self.caps.check_searches(address, sum(1 for s in data.seats if s.kind == "bot" and is_deep(s.bot)))
        self.caps.room_for_one_more(address)  # again: others may have been made while the game loaded
        room = self.cache.new_room(data, game, address)
        await self.services.db(self.services.store.create_match, data)
        self.cache.rooms[data.id] = room
        return room, host_token


    def seat(self, room: Room, seat: int) -> SeatData:
        if not 0 <= seat < len(room.data.seats):
            raise no_such_seat(seat, len(room.data.seats))
        return room.data.seats[seat]

    def check_host(self, room: Room, host_token: str | None) -> None:
        if not token_matches(host_token, room.data.host_hash):
            raise ApiError(403, "not_host", "only the match's creator (with its host token) may do this")


    async def join(self, match_id: str, seat: int, name: str, invited: bool = False) -> tuple[Room, str]:
        """A player takes an open seat; a seat a rematch holds only its ``invited`` player (``invites``)."""
        room = await self.cache.get(match_id)
        token = secrets.token_urlsafe(24)
        new = SeatData(seat=seat)

        def decide() -> Write:
            nonlocal new
            if room.data.status != "open":
                raise ApiError(409, "not_open", "the match has started; seats can no longer be joined")
            current = self.seat(room, seat)
            if current.kind != "open":
                raise ApiError(409, "seat_taken", f"{seat_label(seat, room.data.seats)} is already taken")
            if not invited:
                invites.refuse_held(room.data, seat, "only that player may take it")
            new = SeatData(
                seat=seat, kind="human", name=unique_name(name, seat, room.data.seats), token_hash=hash_token(token)
            )
            return self.services.store.set_seats, ([new],)

        async with room.lock:
            await self.writer.conditional(room, decide)
            room.data.seats[seat] = new
            room.data.updated_at = clock.now()
            room.broadcast()
        return room, token

    async def new_token(self, room: Room, seat: int) -> str:
        """A new token for a player's seat (its player, known otherwise, moves to another device): the
        old token stops working; the seat, its name and the race are as they were."""
        token = secrets.token_urlsafe(24)
        new = SeatData(seat=seat)

        def decide() -> Write:
            nonlocal new
            current = self.seat(room, seat)
            if current.kind not in ("human", "resigned"):
                raise ApiError(409, "not_open", f"{seat_label(seat, room.data.seats)} is not a player's seat")
            new = replace(current, token_hash=hash_token(token))
            return self.services.store.set_seats, ([new],)

        async with room.lock:
            await self.writer.conditional(room, decide)
            room.data.seats[seat] = new
        moved = f"Seat {seat + 1} is now played on another device; this page goes on watching the race."
        room.close_seat(seat, encode({"type": "seat_lost", "seat": seat, "bot": None, "message": moved}))
        return token

    async def set_bot(self, match_id: str, seat: int, bot: str | None, host_token: str | None) -> Room:
        """Put a bot in a seat, or (``bot=None``) empty the seat of an open match again.

        Before the race starts the host may also take a player out of a seat (a stranger who joined
        through the link): the seat is open again (or a bot's) and the player's token stops working.
        While the match runs, the host may hand any seat to a bot (a player who left): the seat's token
        stops working and the bot plays on from the current position.
        """
        room = await self.cache.get(match_id)
        current = new = SeatData(seat=seat)
        running = False

        def decide() -> Write:
            nonlocal current, new, running
            self.check_host(room, host_token)
            running = room.data.status == "running"
            if room.data.status not in ("open", "running"):
                raise ApiError(409, "not_open", "the match is over; seats can no longer change")
            current = self.seat(room, seat)
            if running and bot is None:
                raise ApiError(409, "not_open", "a seat cannot be emptied once the match runs; give it a bot")
            if not running:
                invites.refuse_held(room.data, seat, "no bot may take it meanwhile")
            if bot is None:
                new = SeatData(seat=seat)
            else:
                self.caps.check_bot(room.game.id, bot)
                was_deep = current.kind == "bot" and is_deep(current.bot)
                self.caps.check_searches(room.address, int(is_deep(bot) and not was_deep))
                player = current.name if current.kind == "human" and running else ""
                new = SeatData(seat=seat, kind="bot", name=bot_seat_name(bot, seat, player), bot=bot)
            return self.services.store.set_seats, ([new],)

        async with room.lock:
            await self.writer.conditional(room, decide)
            if current.kind == "human":  # first: the player's sockets never get the seat as a bot's
                room.seat_lost(seat, bot, running)
            room.data.seats[seat] = new
            room.data.updated_at = clock.now()
            room.bots.pop(seat, None)
            room.make_bots()
            room.broadcast()
            presence.tell(room)
        return room

    async def start(self, match_id: str, host_token: str | None) -> Room:
        room = await self.cache.get(match_id)
        status = "running"

        def decide() -> Write:
            nonlocal status
            self.check_host(room, host_token)
            if room.data.status != "open":
                raise ApiError(409, "not_open", "the match has already started")
            empty = [s.seat for s in room.data.seats if s.kind == "open"]
            if empty:
                raise ApiError(
                    409,
                    "seats_open",
                    f"{seat_numbers(empty).capitalize()} {'is' if len(empty) == 1 else 'are'} empty: a player "
                    "joins or the host adds a bot (in the API seats count from 0: 'seats' lists them)",
                    seats=empty,
                )
            refusal = self.caps.run_refusal(room)
            if refusal is not None:
                raise refusal
            status = "finished" if room.state.is_over else "running"
            return self.services.store.set_status, (status,)

        async with room.lock:
            await self.writer.conditional(room, decide)
            self.begin(room, status)
        return room

    def begin(self, room: Room, status: str) -> None:
        """The race starts (its status stored): its first decision's clock and every seat's presence
        begin now, and every client is told."""
        room.data.status = status
        room.data.updated_at = clock.now()
        room.begin_turns(room.data.updated_at)
        room.last_seen = {s.seat: room.data.updated_at for s in room.data.seats}
        room.broadcast()
        presence.tell(room)

    # --- play ----------------------------------------------------------------------------
