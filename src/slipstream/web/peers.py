"""Several server processes on one database (``peer_poll`` > 0): each catches up the matches the
others changed, so its clients see their moves and lobby changes too (``peer_watch``), and stores whom it
sees at each table and reads whom the others see, so a claim of the win counts every process's players
(``presence_beat``)."""

from __future__ import annotations

import asyncio
import logging

from . import clock, presence
from .autoplay import Autoplay
from .chat import ChatDesk
from .room import ACTIVE, Room
from .rooms import RoomCache
from .services import Services

log = logging.getLogger("slipstream.web")


class Peers:
    """This process's watch over the others sharing its database."""

    def __init__(self, services: Services, cache: RoomCache, autoplay: Autoplay, chat: ChatDesk) -> None:
        self.services = services
        self.cache = cache
        self.autoplay = autoplay
        self.chat = chat

    async def peer_watch(self) -> None:
        """With several server processes on one database (``peer_poll`` > 0): every ``peer_poll``
        seconds, catch up the open and running matches another process changed, so clients connected
        here see its moves and lobby changes too, and the chat lines and log notes said through it
        (``ChatDesk.catch_up``)."""
        while True:
            await asyncio.sleep(self.services.peer_poll)
            try:
                rooms = {i: r for i, r in self.cache.rooms.items() if r.data.status in ACTIVE}
                seen = await self.services.db(self.services.store.activity, list(rooms))
                for match_id, (changed_at, moves, rev) in seen.items():
                    room = rooms[match_id]
                    if moves != room.state.ply or changed_at > room.data.updated_at or rev != room.data.rev:
                        async with room.lock:
                            await self.cache.refresh(room)
                        self.autoplay.kick(room)
                await self.chat.catch_up(list(self.cache.rooms.values()))
            except Exception:
                log.exception("catching up with the other server processes failed")

    async def presence_beat(self) -> None:
        """With several server processes: every ``presence_every`` seconds, store which players this
        process sees (an open socket, or a request with their seat's token since the last look), and read
        what the others saw of the players of each race here where a player here might claim the win
        from players not connected here (``Room.remote_seen``): a claim counts every process's players."""
        while True:
            await asyncio.sleep(self.services.presence_every)
            try:
                await self.beat()
            except Exception:
                log.exception("storing and reading the players' presence failed")

    async def beat(self) -> None:
        """One look of ``presence_beat``."""
        now = clock.now()
        db, store = self.services.db, self.services.store
        rows: list[tuple[str, int, float]] = []
        watched: list[Room] = []
        for room in [r for r in self.cache.rooms.values() if r.data.status == "running"]:
            humans = {s.seat for s in room.data.seats if s.kind == "human"}
            connected = {sub.seat for sub in room.subs if sub.seat is not None}
            active = {s for s, at in room.active_at.items() if now - at <= self.services.presence_every}
            rows += [(room.data.id, s, now) for s in sorted((connected | active) & humans)]
            if connected & humans and humans - connected:
                watched.append(room)
        await db(store.store_presence, self.services.process_id, rows)
        if watched:
            seen = await db(store.presence, [r.data.id for r in watched], self.services.process_id)
            for room in watched:
                room.remote_seen = seen[room.data.id]
                presence.tell(room)
