"""The server's clocks: the turn timer (a player out of time has their decision played by the game's
own bot), the sweeper (open matches nobody started expire, running ones nobody plays or watches are
abandoned) and the watchdog over the automatic steps. A table's pace is in ``pace.py``."""

from __future__ import annotations

import asyncio
import logging

from . import clock
from .autoplay import Autoplay, BotChoice
from .commits import Conflict, Writer, with_chance
from .errors import ApiError
from .pace import PACES
from .room import ACTIVE, TIMEOUT_ID, Room
from .rooms import RoomCache
from .services import Services
from .storage import MoveData, Stale

log = logging.getLogger("slipstream.web")
WATCH_EVERY = 1.0
"""Seconds between the watchdog's looks at the matches' automatic steps (``Autoplay.watch``)."""


class Timers:
    """The loops that watch the clock over every room (started by ``Hub.startup``), and a look of each."""

    def __init__(
        self, services: Services, cache: RoomCache, writer: Writer, autoplay: Autoplay, choose: BotChoice
    ) -> None:
        self.services = services
        self.cache = cache
        self.writer = writer
        self.autoplay = autoplay
        self.choose = choose

    async def turn_timer(self) -> None:
        """Every half second: a player out of time on a timed match has its decision played by the
        game's own bot (``out_of_time``, one task per match, so a bot thinking in one match holds up
        no other); the log says so."""
        while True:
            await asyncio.sleep(0.5)
            for room in [r for r in self.cache.rooms.values() if r.data.turn_seconds and r.data.status == "running"]:
                if room.timing or not any(left <= 0 for left in room.turn_left().values()):
                    continue
                room.timing = True
                self.services.spawn(self.out_of_time(room))

    async def out_of_time(self, room: Room) -> None:
        """The first late player's decision, chosen by the game's own bot as a resigned seat's is (in
        the bot workers, within ``bot_deadline``, else a random legal action), from that seat's view
        only; committed unless the position changed meanwhile (the player acted after all)."""
        try:
            state = room.state
            seat = next((s for s, left in room.turn_left().items() if left <= 0), None)
            if seat is None:
                return
            action = await self.choose(room, state, seat, room.own_bot, room.bot_seed(seat))
            async with room.lock:
                if room.state is not state or room.turn_left().get(seat, 1.0) > 0:
                    return
                move = MoveData(state.ply, action, seat, f"{TIMEOUT_ID}{state.ply}")
                try:
                    await self.writer.commit(room, with_chance(room, state.apply(action), move))
                except Conflict:
                    await self.cache.refresh(room)
            self.autoplay.kick(room)
        except ApiError:
            pass  # the database refused: the next look tries again
        except Exception:
            log.exception("match %s: the turn timer failed", room.data.id)
        finally:
            room.timing = False

    async def sweeper(self) -> None:
        """Every ``sweep_every`` seconds: ``sweep``."""
        while True:
            await asyncio.sleep(self.services.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep for expired matches failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire open matches nobody started and abandon running ones nobody plays or watches."""
        now = clock.now() if now is None else now
        limits = self.services.limits
        done = []
        for room in list(self.cache.rooms.values()):
            idle = now - room.data.updated_at
            patience = limits.abandoned_expiry + (PACES[room.data.pace].seconds or 0)  # turn-based: its limit too
            if room.data.status == "open" and idle > limits.open_expiry:
                status = "expired"
            elif room.data.status == "running" and not room.subs and idle > patience:
                status = "abandoned"
            else:
                continue
            async with room.lock:
                if room.data.status not in ACTIVE:
                    continue
                try:
                    await self.services.db(self.services.store.set_status, room.data.id, room.mark(), status)
                except Stale:
                    await self.cache.refresh(room)  # another process changed it: looked at again next time
                    continue
                room.data.rev = (room.data.rev or 0) + 1
                room.data.status = status
                room.broadcast()
            for sub in list(room.subs):
                sub.queue.put_nowait(None)
            room.subs.clear()
            self.cache.rooms.pop(room.data.id, None)
            done.append(room.data.id)
            log.info("match %s is %s after %.0f s idle", room.data.id, status, idle)
        return done

    async def watchdog(self) -> None:
        """Every ``WATCH_EVERY`` seconds: the automatic steps of any match that waits for them while
        nothing works on it restart (``Autoplay.watch``)."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                self.autoplay.watch()
            except Exception:
                log.exception("the watchdog failed")
