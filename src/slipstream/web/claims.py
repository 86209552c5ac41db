"""A player leaves the race: they resign, or a player who is there claims the win from players away for
the grace period (``Room.claim_check``). Either way each seat is marked ``resigned`` and the game's own
bot plays it to the end, ranked last; everyone reads a line in the log. A table's presence (who is there,
who is away) is in ``presence.py`` and the ``Room``."""

from __future__ import annotations

from . import clock, presence
from .chat import ChatDesk
from .commits import Write, Writer
from .errors import ApiError
from .room import Room
from .seats import seat_label
from .services import Services
from .storage import SeatData


class Claims:
    """Resignations and claims of the win; the hub then sets the bots going."""

    def __init__(self, services: Services, writer: Writer, chat: ChatDesk) -> None:
        self.services = services
        self.writer = writer
        self.chat = chat

    async def resign(self, room: Room, seat: int) -> Room:
        """A player resigns: a bot plays the seat to the end (the game's own bot, else random); the
        seat is marked ``resigned`` and its player keeps watching with the same token."""

        def decide() -> Write:
            if room.data.status != "running":
                raise ApiError(409, "not_running", f"the match is {room.data.status}")
            if room.data.seats[seat].kind != "human":
                raise ApiError(409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is not a player's seat now")
            return self.resignation(room, [seat])

        async with room.lock:
            await self.writer.conditional(room, decide, seat)
            self.resigned(room, [seat], None)
        return room

    def resignation(self, room: Room, seats: list[int]) -> Write:
        """The write that resigns players' seats: each is marked ``resigned`` and the game's own bot plays
        it to the end; its token still shows its view (``resigned`` then changes the room)."""
        new = [
            SeatData(
                seat=seat,
                kind="resigned",
                name=room.data.seats[seat].name,
                bot=room.own_bot,
                token_hash=room.data.seats[seat].token_hash,
            )
            for seat in seats
        ]
        return self.services.store.set_seats, (new,)

    def resigned(self, room: Room, seats: list[int], claimant: int | None) -> None:
        """The room after ``resignation`` was stored: the seats resigned (``claimant``: the player who
        claimed the win from them), and every client is told, with a line in the log."""
        for seat in seats:
            current = room.data.seats[seat]
            room.data.seats[seat] = SeatData(
                seat=seat, kind="resigned", name=current.name, bot=room.own_bot, token_hash=current.token_hash
            )
        room.data.updated_at = clock.now()
        room.make_bots()
        kind, text = "claim" if claimant is not None else "resign", presence.resigned_text(seats, claimant)
        self.chat.keep_note(room, kind, text, presence.log_line(room, text, kind))
        room.broadcast()
        presence.tell(room)

    async def claim(self, room: Room, seat: int) -> list[int]:
        """A player who is there claims the win from the players who have been away for the grace
        period (``Room.claim_check``): their seats resign, so the game's own bot plays each to the end
        and the result ranks them below every seat that did not resign (in a cooperative game, whose
        result places nobody above anyone, the team plays on with the bots). The seats that resigned.

        Away means away from every route and every process: no socket here, no request or step here or
        through another process (a step is stored with its time; with several processes each stores whom
        it sees: ``Peers.beat``). The resignation is conditional on the match being as this process holds
        it, so a step stored by another process meanwhile makes it catch up and decide again."""
        away: list[int] = []

        def decide() -> Write:
            nonlocal away
            away, ready_at = room.claim_check(seat)
            wait = ready_at - clock.now()
            if wait > 0:
                names = ", ".join(seat_label(s, room.data.seats) for s in away)
                raise ApiError(
                    409,
                    "cannot_claim",
                    f"{names} may still come back: the win can be claimed in {wait:.0f} s "
                    f"(after {room.claim_grace:.0f} s away)",
                    wait=round(wait, 1),
                )
            return self.resignation(room, away)

        async with room.lock:
            if self.services.several:
                services = self.services
                seen = await services.db(services.store.presence, [room.data.id], services.process_id)
                room.remote_seen = seen[room.data.id]
            await self.writer.conditional(room, decide, seat)
            self.resigned(room, away, seat)
        return away
