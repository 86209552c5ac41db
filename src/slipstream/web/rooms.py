"""The rooms in memory and the database's truth: a match's room loaded (replayed from its stored moves)
when first asked for, finished ones forgotten when nobody watches, and a room caught up with what
another server process stored (``refresh``)."""

from __future__ import annotations

import asyncio
import logging
import re

from slipstream.engine.errors import SlipstreamError
from slipstream.engine.game import Game

from . import dice, presence
from .errors import ApiError
from .options import stored_game
from .room import ACTIVE, Room, settled_status
from .services import Services
from .storage import MatchData

log = logging.getLogger("slipstream.web")
MAX_IDLE_FINISHED = 500
"""Finished matches kept in memory with nobody watching; older ones are reloaded from the database."""
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a match id looks like (``secrets.token_urlsafe(8)``): anything else is not looked up."""


class RoomCache:
    """Every room in memory (``rooms``, by match id), loaded one at a time per id."""

    def __init__(self, services: Services, keep_finished: int = MAX_IDLE_FINISHED) -> None:
        self.services = services
        self.keep_finished = keep_finished
        """Finished matches kept with nobody watching (``evict``)."""
        self.rooms: dict[str, Room] = {}
        self.loading: dict[str, asyncio.Task[Room]] = {}

    def new_room(self, data: MatchData, game: Game, address: str | None = None) -> Room:
        room = Room(data, game, self.services.limits.claim_grace, address)
        room.remote_window = self.services.remote_window
        return room

    async def get(self, match_id: str) -> Room:
        """The match's room, loaded from the database if it is not in memory (one load at a time per
        id; nothing is kept for an id that does not exist)."""
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        if not MATCH_ID.fullmatch(match_id):
            raise ApiError(404, "not_found", "no match with this id")
        task = self.loading.get(match_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(match_id))
            self.loading[match_id] = task
            task.add_done_callback(lambda _t: self.loading.pop(match_id, None))
        return await asyncio.shield(task)

    async def _load(self, match_id: str) -> Room:
        """A match from the database, replayed in a worker thread (a finished match of some hundred
        plies takes 10-20 ms, which would hold every other match on the event loop)."""
        data = await self.services.db(self.services.store.load, match_id)
        if data is None:
            raise ApiError(404, "not_found", "no match with this id")
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        await self._keyed(data)
        built = await asyncio.to_thread(self._rebuilt, data)
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        if built is None:
            raise ApiError(409, "not_found", "this match can no longer be loaded")
        self.keep(built)
        return built

    async def restore(self, data: MatchData) -> Room | None:
        """A stored match (read at startup) rebuilt and kept, or ``None`` if it cannot be."""
        await self._keyed(data)
        room = self._rebuilt(data)
        if room is not None:
            self.keep(room)
        return room

    async def _keyed(self, data: MatchData) -> None:
        """A match stored before chance keys existed gets one now, before it draws again; one stored
        before revisions existed gets its revision (``tables.RevisionRow``)."""
        store = self.services.store
        if data.chance_key is None and data.status in ACTIVE:
            key = dice.new_key()
            await self.services.db(store.set_chance_key, data.id, key)
            data.chance_key = key
        if data.rev is None:
            await self.services.db(store.ensure_revision, data.id)
            data.rev = 0  # if another process has changed it since, the first write here catches up

    def _rebuilt(self, data: MatchData) -> Room | None:
        """A stored match rebuilt by replaying its moves (a long one takes milliseconds: ``_load``
        runs this in a worker thread), or ``None`` if it cannot be."""
        try:
            room = self.new_room(data, stored_game(data))
            if room.game.version != data.version:
                log.warning(
                    "match %s: stored for %s version %s, this is %s",
                    data.id,
                    data.game_id,
                    data.version,
                    room.game.version,
                )
            room.restore(data.moves)
            data.status = settled_status(data, room.state)
            if data.status == "running":  # an open match's first decision begins when it starts
                room.begin_turns(data.updated_at)
        except (ApiError, SlipstreamError, TypeError) as exc:
            log.error("match %s cannot be restored: %s", data.id, exc)
            return None
        return room

    def keep(self, room: Room) -> None:
        self.rooms[room.data.id] = room
        self.evict()

    def evict(self) -> None:
        """Forget the oldest finished matches nobody watches, beyond ``keep_finished``."""
        idle = [r for r in self.rooms.values() if r.data.status not in ACTIVE and not r.subs]
        for r in sorted(idle, key=lambda r: r.data.updated_at)[: max(0, len(idle) - self.keep_finished)]:
            del self.rooms[r.data.id]

    async def refresh(self, room: Room) -> bool:
        """Catch the room up with the database (moves, seats, status, revision another process stored);
        the caller holds the room's lock. Whether anything changed."""
        data = await self.services.db(self.services.store.load, room.data.id)
        if data is None:
            return False
        was = room.data.status
        lost = [
            s.seat for s in room.data.seats
            if s.kind == "human" and data.seats[s.seat].token_hash != s.token_hash
        ]
        for seat in lost:  # first: the seat's sockets get no state of the seat as it is now (a bot's)
            now = data.seats[seat]
            room.seat_lost(seat, now.bot if now.kind == "bot" else None, was == "running")
        if data.rev is not None:
            room.data.rev = data.rev
        ours = [(m.ply, m.action) for m in room.moves]
        if [(m.ply, m.action) for m in data.moves[: len(ours)]] != ours:  # another process took steps back
            before = room.sights()
            room.rewind(data.moves)
            room.data.status, room.data.seats = settled_status(data, room.state), data.seats
            room.data.updated_at = max(room.data.updated_at, data.updated_at)
            room.bots.clear()
            room.make_bots()
            room.resend(before)  # as after an undo here
            changed = True
        else:
            changed = False
            for move in data.moves[room.state.ply :]:
                room.set_state(room.state.apply(move.action), move)
                changed = True
            status = settled_status(data, room.state)
            if status != room.data.status or data.seats != room.data.seats:
                room.data.status, room.data.seats = status, data.seats
                room.bots.clear()
                room.make_bots()
                presence.tell(room)
                changed = True
            if changed:
                room.data.updated_at = max(room.data.updated_at, data.updated_at)
                room.broadcast()
        if was == "open" and room.data.status == "running":  # another process started the race
            room.begin_turns(data.updated_at)
            room.last_seen = {s.seat: data.updated_at for s in room.data.seats}
        return changed
