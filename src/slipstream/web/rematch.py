"""The same race again (``Rematches.rematch``): the first call makes it, with the same game, options,
title, bots and host, and invites every player of the race before (``invites``: their seats are held for
them a while); each player who asks takes their seat, and it starts by itself once every seat is taken."""

from __future__ import annotations

import secrets

from . import clock, dice, invites
from .botwork import is_deep
from .caps import Caps
from .commits import Write, Writer, is_conflict
from .errors import ApiError
from .room import Room
from .rooms import RoomCache
from .seating import Seating
from .seats import bot_seat_name, seat_label
from .services import Services
from .storage import MatchData, SeatData


def invited(room: Room, next_id: str, until: float) -> None:
    """The rematch was made: the finished race's every page is told (its state names the rematch)."""
    room.data.rematch_id = next_id
    room.data.rematch_until = until
    room.broadcast()


class Rematches:
    """Rematches of finished races; the hub then sets the bots going."""

    def __init__(self, services: Services, cache: RoomCache, writer: Writer, caps: Caps, seating: Seating) -> None:
        self.services = services
        self.cache = cache
        self.writer = writer
        self.caps = caps
        self.seating = seating

    async def rematch(self, room: Room, seat: int | None) -> tuple[Room, int | None, str | None]:
        """The same race again with the same seats: the first call makes it (same game, options,
        title, bots and host token); a seat's player who asks gets the same seat under the same name.
        It starts by itself once every player's seat is taken again. Like the race, it is listed
        publicly only if the host listed the race. Two processes asked at once make one rematch: the
        database keeps one per race, and the process that loses reads the other's."""
        db, store = self.services.db, self.services.store
        async with room.lock:
            if room.data.status != "finished":
                raise ApiError(409, "not_finished", "a rematch is offered once the race is over")
            next_id = await db(store.rematch_of, room.data.id)
            if next_id is None:
                self.caps.room_for_one_more(room.address)
                bots = [s.bot for s in room.data.seats if s.kind == "bot" and s.bot]
                self.caps.check_searches(room.address, sum(1 for bot in bots if is_deep(bot)))
                old = room.data
                now = clock.now()
                data = MatchData(
                    id=secrets.token_urlsafe(8),
                    game_id=old.game_id,
                    version=room.game.version,
                    options=dict(old.options),
                    seed=secrets.randbits(48),
                    chance_key=dice.new_key(),
                    status="open",
                    title=old.title,
                    host_hash=old.host_hash,
                    created_at=now,
                    updated_at=now,
                    turn_seconds=old.turn_seconds,
                    pace=old.pace,
                    holds=invites.holds(old, self.services.limits.rematch_hold, now),
                    seats=[
                        SeatData(seat=s.seat, kind="bot", name=bot_seat_name(s.bot, s.seat), bot=s.bot)
                        if s.kind == "bot" and s.bot
                        else SeatData(seat=s.seat)
                        for s in old.seats
                    ],
                    rev=0,
                    public=old.public,
                )
                try:
                    await db(store.create_match, data, old.id)
                except Exception as exc:
                    if not is_conflict(exc):
                        raise
                    next_id = await db(store.rematch_of, room.data.id)  # another process made it
                    if next_id is None:
                        raise
                else:
                    self.cache.rooms[data.id] = self.cache.new_room(data, room.game, room.address)
                    next_id = data.id
                    invited(room, data.id, now + self.services.limits.rematch_hold)
        nxt = await self.cache.get(next_id)
        if seat is None:
            return nxt, None, None
        name = room.data.seats[seat].name
        async with nxt.lock:
            if nxt.data.status != "open" or nxt.data.seats[seat].kind != "open":
                raise ApiError(409, "seat_taken", f"{seat_label(seat)} of the rematch is already taken", id=next_id)
        joined, token = await self.seating.join(next_id, seat, name, invited=True)

        def ready() -> Write | None:
            if joined.data.status != "open" or any(s.kind == "open" for s in joined.data.seats):
                return None
            if self.caps.run_refusal(joined) is not None:  # the caps on running matches: it stays open
                return None
            return store.set_status, ("running",)

        async with joined.lock:
            if await self.writer.conditional(joined, ready):
                self.seating.begin(joined, "running")
        return joined, seat, token
