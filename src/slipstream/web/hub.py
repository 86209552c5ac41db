"""Live matches: the ``Hub`` holds every room in memory and hands each request to the job that does it.

Every change to a match happens under the room's lock, in this order: check the request against
the server's own state, apply it through the engine, commit it to the database, then change the
room and tell every client. A request that fails any step changes nothing. Chance outcomes are
drawn from the match's secret key (``dice``) and bots choose in worker processes, so the event loop
never blocks.

The jobs, a module each:

- ``room``: one match in memory, its clients and what they are told; ``rooms``: the rooms loaded,
  forgotten and caught up with the database;
- ``commits``: writes conditional on the match as this process holds it, steps batched (``GroupCommit``);
- ``seating``: create, join, bots in seats, new tokens, start; ``seats``: seats and tokens in words;
- ``play``: an action's checks, and undo; ``claims``: resign and claim the win; ``rematch``;
- ``autoplay``: chance and bots' moves; ``timers``: turn timer, sweeper, watchdog; ``peers``: other
  server processes on the same database; ``caps``: the limits on creations, matches and deep searches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from slipstream.engine.game import State

from . import play
from .autoplay import Autoplay, bot_choice
from .botwork import BotWork
from .caps import Caps, Census
from .chat import ChatDesk
from .claims import Claims
from .commits import Conflict, Writer, with_chance
from .errors import ApiError
from .limits import Limits
from .options import stored_game
from .peers import Peers
from .rematch import Rematches
from .room import Room, Subscriber, played_by_timer
from .rooms import MAX_IDLE_FINISHED, RoomCache
from .seating import Seating
from .services import Services
from .storage import MoveData, Store
from .timers import Timers

__all__ = ["MAX_IDLE_FINISHED", "ApiError", "Hub", "Room", "Subscriber", "played_by_timer", "stored_game"]

T = TypeVar("T")
ACT_ATTEMPTS = 3
"""Times an action is checked again after another server process moved the match on first."""


class Hub:
    """Every live room, the database thread and the bot workers: each request's flow, read top to
    bottom, with the work done by the job it belongs to."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.0,
        plugins: Sequence[str] = (),
        bot_workers: int = 2,
        limits: Limits | None = None,
        peer_poll: float = 0.0,
    ) -> None:
        self.services = Services(store, limits or Limits(), peer_poll)
        self.store = store
        self.limits = self.services.limits
        self.peer_poll = peer_poll
        self.tasks = self.services.tasks
        self.plugins = list(plugins)
        self.bots = BotWork(bot_workers, self.plugins, self.limits.bot_deadline)
        self.cache = RoomCache(self.services, keep_finished=MAX_IDLE_FINISHED)
        self.rooms = self.cache.rooms
        self._loading = self.cache.loading
        self.writer = Writer(self.services, self.cache)
        self.caps = Caps(self.limits, self.rooms)
        self.chat = ChatDesk(self.services, self.writer.batches)
        """Every match's table chat (``web/chat.py``)."""
        # a bot is asked through ``_bot_choice``, looked up at each call (so a test may watch or replace it)
        self.autoplay = Autoplay(
            self.services,
            self.cache,
            self.writer,
            self.bots,
            bot_delay,
            lambda room, state, seat, name, seed: self._bot_choice(room, state, seat, name, seed),
        )
        self.bots.on_dispatch = self.autoplay.dispatched
        self.timers = Timers(self.services, self.cache, self.writer, self.autoplay, self.autoplay.choose)
        self.peers = Peers(self.services, self.cache, self.autoplay, self.chat)
        self.seating = Seating(self.services, self.cache, self.writer, self.caps)
        self.create = self.seating.create
        """A new open match and its host token (``Seating.create``)."""
        self.claims = Claims(self.services, self.writer, self.chat)
        self.rematches = Rematches(self.services, self.cache, self.writer, self.caps, self.seating)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call where it belongs (``Services.db``)."""
        return await self.services.db(fn, *args)

    # --- lifecycle -----------------------------------------------------------------------

    async def startup(self) -> None:
        """Load every open or running match and resume it exactly where it was; start the clocks."""
        for data in await self.db(self.store.load_active):
            room = await self.cache.restore(data)
            if room is not None and data.status == "running":
                self.kick(room)
        jobs = [self.timers.sweeper(), self.timers.turn_timer(), self.timers.watchdog()]
        if self.services.several:
            jobs += [self.peers.peer_watch(), self.peers.presence_beat()]
        for job in jobs:
            self.services.spawn(job)

    async def shutdown(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for room in self.rooms.values():
            for sub in room.subs:
                sub.queue.put_nowait(None)
        self.bots.shutdown()
        self.services.close()

    async def room(self, match_id: str) -> Room:
        """The match's room, loaded from the database if it is not in memory (``RoomCache.get``)."""
        return await self.cache.get(match_id)

    async def refresh(self, room: Room) -> bool:
        """Catch the room up with the database (``RoomCache.refresh``); the caller holds its lock."""
        return await self.cache.refresh(room)

    # --- lobby ---------------------------------------------------------------------------

    def allow_creation(self, client: str) -> None:
        """A client may create ``creations_per_minute`` matches in a minute (``Caps``)."""
        self.caps.allow_creation(client)

    def census(self, address: str | None) -> Census:
        return self.caps.census(address)

    async def join(self, match_id: str, seat: int, name: str, invited: bool = False) -> tuple[Room, str]:
        """A player takes an open seat (``Seating.join``): the room and the seat's token."""
        return await self.seating.join(match_id, seat, name, invited)

    async def new_token(self, room: Room, seat: int) -> str:
        """A new token for a player's seat, the old one void (``Seating.new_token``)."""
        return await self.seating.new_token(room, seat)

    async def set_bot(self, match_id: str, seat: int, bot: str | None, host_token: str | None) -> Room:
        """The host puts a bot in a seat or empties it (``Seating.set_bot``); a running race's bot plays on."""
        room = await self.seating.set_bot(match_id, seat, bot, host_token)
        self.kick(room)
        return room

    async def start(self, match_id: str, host_token: str | None) -> Room:
        """The host starts the race (``Seating.start``), and its chance and bots begin."""
        room = await self.seating.start(match_id, host_token)
        self.kick(room)
        return room

    # --- play ----------------------------------------------------------------------------

    async def act(self, room: Room, seat: int, action: Any, ply: Any, client_id: Any) -> dict[str, Any]:
        """A seat's action: checked against the server's state, committed, then acknowledged."""
        play.check_request(action, ply, client_id)
        for _attempt in range(ACT_ATTEMPTS):
            async with room.lock:
                play.check_action(room, seat, action, ply, client_id)
                state = room.state
                move = MoveData(ply=state.ply, action=action, seat=seat, client_id=client_id)
                try:
                    await self.writer.commit(room, with_chance(room, state.apply(action), move))
                except Conflict:  # another process moved the match on: catch up and check again
                    await self.refresh(room)
                    continue
                acked = room.shown(seat)
                if client_id is not None:
                    room.accepted[(seat, client_id)] = acked
                break
        else:
            raise ApiError(409, "stale", "the match moved on in another server process", ply=room.shown(seat))
        self.kick(room)
        return {"type": "ack", "id": client_id, "ply": acked}

    async def undo(self, room: Room, seat: int, ply: Any) -> dict[str, Any]:
        """Take back ``seat``'s last step, if it revealed nothing (``play.undo``)."""
        return await play.undo(self.writer, room, seat, ply)

    async def resign(self, room: Room, seat: int) -> Room:
        """A player resigns (``Claims.resign``): the game's own bot plays the seat to the end."""
        await self.claims.resign(room, seat)
        self.kick(room)
        return room

    async def claim(self, room: Room, seat: int) -> list[int]:
        """A player who is there claims the win from those away (``Claims.claim``): the seats resigned."""
        away = await self.claims.claim(room, seat)
        self.kick(room)
        return away

    async def rematch(self, room: Room, seat: int | None) -> tuple[Room, int | None, str | None]:
        """The same race again (``Rematches.rematch``): the rematch, and the seat taken and its token
        when a player asked; it may have started with that seat."""
        rematch, taken, token = await self.rematches.rematch(room, seat)
        if taken is not None:
            self.kick(rematch)
        return rematch, taken, token

    # --- automatic steps and clocks --------------------------------------------------------

    def kick(self, room: Room) -> None:
        """Make sure the room's automatic steps (chance, bots) are running (``Autoplay.kick``)."""
        self.autoplay.kick(room)

    async def _bot_choice(self, room: Room, state: State, seat: int, name: str, bot_seed: int) -> str:
        """The action bot ``name`` picks for ``seat`` in ``state`` (``autoplay.bot_choice``): the one
        place a bot is asked, for its seat's automatic steps and for a late player's turn timer."""
        return await bot_choice(self.bots, self.limits, room, state, seat, name, bot_seed)

    def needs_automatic_step(self, room: Room) -> bool:
        return self.autoplay.needs_automatic_step(room)

    def watch(self) -> list[str]:
        """One look of the watchdog (``Autoplay.watch``): the matches restarted."""
        return self.autoplay.watch()

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire open matches nobody started and abandon running ones nobody plays or watches."""
        return await self.timers.sweep(now)

    async def beat(self) -> None:
        """One look of the presence beat with several processes (``Peers.beat``)."""
        await self.peers.beat()
