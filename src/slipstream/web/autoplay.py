"""A room's automatic steps: chance drawn from the match's key and bots' moves, played until a person
must act or the race ends (``Autoplay.kick``), and restarted when they stop (``Autoplay.watch``). Bots
choose in worker processes (``botwork``), so the event loop never waits for one."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from slipstream.bots.random_bot import RandomBot
from slipstream.engine.game import CHANCE, State
from slipstream.engine.play import pending_seats

from .botwork import BotBroke, BotFailed, BotLate, BotWork, thinking_seconds
from .commits import Conflict, Writer, draw, with_chance
from .errors import ApiError
from .limits import Limits
from .room import Room
from .rooms import RoomCache
from .services import Services
from .storage import MoveData

log = logging.getLogger("slipstream.web")
BotChoice = Callable[[Room, State, int, str, int], Awaitable[str]]
"""How a bot is asked for a seat's action: ``(room, state, seat, bot name, bot seed) -> action``."""


async def bot_choice(
    bots: BotWork, limits: Limits, room: Room, state: State, seat: int, name: str, bot_seed: int
) -> str:
    """The action bot ``name`` picks for ``seat`` in ``state``: in the bot workers (``botwork``: a
    fair queue, the deadline counted from when a worker takes the move; a ``random`` bot, a uniform
    pick among the seat's own legal actions that peeks at nothing, picks here); a random legal
    action when the bot fails, is late (its workers are replaced) or breaks its workers three times.
    A move whose workers were replaced for another bot's sake is asked again, never lost."""
    fallback = RandomBot(bot_seed * 1_000_003 + state.ply)
    if name == "random":
        return fallback.choose(state, seat)
    d = room.data
    args = (d.id, d.game_id, d.options, d.seed, state.actions, seat, name, bot_seed)
    try:
        return await bots.choose(d.id, args, thinking_seconds(name))
    except BotLate:
        log.error(
            "match %s: bot %s took more than %s s; its workers were replaced and it plays a random move",
            d.id,
            name,
            limits.bot_deadline,
        )
    except BotBroke:
        log.error("match %s: bot %s broke its workers three times; a random move", d.id, name)
    except BotFailed as exc:
        log.error("match %s: bot %s failed in its worker (%s); it plays a random move", d.id, name, exc)
    finally:
        room.progress_at = time.monotonic()
    return fallback.choose(state, seat)


class Autoplay:
    """Every room's automatic steps; ``choose`` asks a bot (``bot_choice``, through the hub)."""

    def __init__(
        self,
        services: Services,
        cache: RoomCache,
        writer: Writer,
        bots: BotWork,
        bot_delay: float,
        choose: BotChoice,
    ) -> None:
        self.services = services
        self.cache = cache
        self.writer = writer
        self.bots = bots
        self.bot_delay = bot_delay
        self.choose = choose
        self.restarts = 0
        """Matches whose automatic steps the watchdog restarted (``watch``)."""

    def kick(self, room: Room) -> None:
        """Make sure the room's automatic steps (chance, bots) are running."""
        if room.data.status != "running" or (room.auto_task is not None and not room.auto_task.done()):
            return
        room.progress_at = time.monotonic()
        room.auto_task = self.services.spawn(self.advance(room))

    async def advance(self, room: Room) -> None:
        """Play chance and bot steps until a human must act or the match ends."""
        try:
            while True:
                async with room.lock:
                    state = room.state
                    bot_seat = next((s for s in pending_seats(state) if s in room.bots), None)
                    if room.data.status != "running" or (state.actor != CHANCE and bot_seat is None):
                        return
                    if bot_seat is None:
                        outcome = draw(room, state)
                        try:
                            await self.writer.commit(
                                room, with_chance(room, state.apply(outcome), MoveData(state.ply, outcome))
                            )
                        except Conflict:
                            await self.cache.refresh(room)
                        continue
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                name, bot_seed = room.bots[bot_seat]
                action = await self.choose(room, state, bot_seat, name, bot_seed)
                async with room.lock:
                    if room.state is state and room.bots.get(bot_seat) == (name, bot_seed):
                        move = MoveData(state.ply, action, bot_seat)
                        try:
                            await self.writer.commit(room, with_chance(room, state.apply(action), move))
                        except Conflict:
                            await self.cache.refresh(room)
        except ApiError:
            await asyncio.sleep(1.0)
            room.auto_task = None
            self.kick(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: automatic step failed", room.data.id)

    def needs_automatic_step(self, room: Room) -> bool:
        """Whether a running match waits for chance or for one of its bots."""
        state = room.state
        return room.data.status == "running" and (
            state.actor == CHANCE or any(s in room.bots for s in pending_seats(state))
        )

    def dispatched(self, match_id: str) -> None:
        """A worker took a bot move of this match: its automatic steps are making progress (the watchdog)."""
        room = self.cache.rooms.get(match_id)
        if room is not None:
            room.progress_at = time.monotonic()

    def watch(self) -> list[str]:
        """One look of the watchdog (``Timers.watchdog``): restart the automatic steps of any running match
        that waits for chance or a bot while nothing works on it (no bot move of it queued or on a worker)
        for longer than ``bot_deadline`` (plus ``bot_delay``): the task that played them ended or hangs. A
        move waiting its turn in the bot queue, or on a worker (which has its own deadline), is work. The
        matches restarted."""
        now = time.monotonic()
        late = self.services.limits.bot_deadline + self.bot_delay
        restarted = []
        for room in list(self.cache.rooms.values()):
            if not self.needs_automatic_step(room) or self.bots.busy(room.data.id) or now - room.progress_at <= late:
                continue
            task = room.auto_task
            log.warning(
                "match %s: no bot or chance step for %.0f s with no worker on it; its automatic steps restart",
                room.data.id,
                now - room.progress_at,
            )
            if task is not None and not task.done():
                task.cancel()
            room.auto_task = None
            self.kick(room)
            restarted.append(room.data.id)
        self.restarts += len(restarted)
        return restarted
