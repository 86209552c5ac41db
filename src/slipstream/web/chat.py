"""Table chat: a match's players and spectators talk, stored with the match (issue 28).

A line is stored (committed) before anyone is told of it, so an acknowledged line survives a restart
and a SIGKILL; a client gets the latest ``chat_history`` lines when it connects and every new one as it
is said; a finished match's replay shows each line at the move it was said. The server keeps what was
sent as plain text (trimmed, control characters made spaces): every page shows it as text, never as
markup. Limits (``web/limits.py``): ``chat_length`` characters a line; ``chat_per_minute`` lines a minute
after a burst of ``chat_burst``, counted per socket and per seat (or spectator) over all its sockets. A
refusal is one error that changes nothing and never repeats what was sent.

A seat speaks as its seat (the socket's token decides it, never the message); a spectator as
"Spectator <id>", its id the first 8 hex digits of a SHA-256 of the ``viewer`` key its page keeps (a
socket without one gets a fresh id), so the host can mute that spectator in this match.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slipstream.jsontext import encode

from . import clock, presence
from .errors import ApiError
from .limits import Limits
from .storage import ChatLine

if TYPE_CHECKING:
    from .commits import GroupCommit
    from .room import Room, Subscriber
    from .services import Services

log = logging.getLogger("slipstream.web")

CHAT_FIELDS = frozenset({"type", "text", "id"})
"""The fields a chat message may have: the seat is the socket's, never the message's."""
VIEWER_ID = re.compile(r"[0-9a-f]{8}")
"""What a spectator's public id looks like (``viewer_id``)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
LOOK_BACK = 64
"""Ids below the highest read that a poll reads again (``ChatDesk.catch_up``): on PostgreSQL a line whose
id was drawn first may be committed after a later one; the lines already known are skipped."""


def viewer_id(key: Any) -> str:
    """A spectator's public id in a match's chat: from the ``viewer`` key its page keeps (1-64
    characters), else a fresh one for this socket."""
    if not isinstance(key, str) or not 0 < len(key) <= 64:
        key = secrets.token_hex(16)
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def _places(shown: str | None) -> dict[int | None, int]:
    """A stored note's place in each seat's log (``ChatRow.shown``)."""
    return {seat: int(ply) for seat, ply in json.loads(shown or "[]")}


def clean(text: Any, limit: int) -> str:
    """A chat line as stored: trimmed, control characters as spaces; an ``ApiError`` if it is not text,
    empty, or longer than ``limit`` characters (the error never repeats it)."""
    if not isinstance(text, str):
        raise ApiError(400, "bad_request", "'text' must be the message, as a string")
    line = CONTROL.sub(" ", text).strip()
    if not line:
        raise ApiError(400, "bad_request", "the message is empty")
    if len(line) > limit:
        raise ApiError(400, "bad_request", f"a chat message is at most {limit} characters; this one has {len(line)}")
    return line


@dataclass
class Bucket:
    """``burst`` lines at once, then ``per_minute`` a minute (a token bucket)."""

    per_minute: float
    burst: float
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)

    def wait(self) -> float:
        """Seconds until a line may be said (0: now), without spending."""
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_minute / 60.0)
        self.at = now
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) * 60.0 / self.per_minute

    def spend(self) -> None:
        self.tokens -= 1.0


@dataclass
class TableChat:
    """One match's chat in memory: its lines, its muted spectators and the speakers' rates."""

    lines: list[ChatLine]
    muted: set[str]
    speakers: dict[int | str, Bucket] = field(default_factory=dict)
    known: set[int] = field(default_factory=set)
    """The ids of the stored lines this process has (said here, or read: ``ChatDesk.catch_up``)."""
    polled: int = 0
    """The highest id read from the database (with several processes, the next poll reads above it)."""

    def first_sight(self, line_id: int | None) -> bool:
        """Whether a stored line is new to this process (from now on it is ``known``)."""
        if line_id in self.known:
            return False
        if line_id is not None:
            self.known.add(line_id)
        return True

    def set_muted(self, viewer: str, muted: bool) -> None:
        if muted:
            self.muted.add(viewer)
        else:
            self.muted.discard(viewer)


def line_json(line: ChatLine, with_ply: bool = False) -> dict[str, Any]:
    """A line as clients get it; ``with_ply`` (a finished match's replay): the move it was said at (live,
    the real ply could tell a seat of another's hidden steps)."""
    out: dict[str, Any] = {"id": line.id, "kind": line.kind, "seat": line.seat, "name": line.name,
                           "text": line.text, "at": round(line.at, 1)}
    if line.seat is None and line.kind == "say":
        out["viewer"] = line.viewer
    if with_ply:
        out["ply"] = line.ply
    return out


class ChatDesk:
    """Every room's chat (``Hub.chat``): loaded from the database when a room's first client comes."""

    def __init__(self, services: Services, batches: GroupCommit) -> None:
        self.services = services
        self.batches = batches
        """Where lines are stored: with the moves' next commit."""
        self.tables: weakref.WeakKeyDictionary[Room, TableChat] = weakref.WeakKeyDictionary()
        self.sockets: weakref.WeakKeyDictionary[Subscriber, Bucket] = weakref.WeakKeyDictionary()

    @property
    def limits(self) -> Limits:
        return self.services.limits

    async def table(self, room: Room) -> TableChat:
        """The room's chat, read from the database the first time; a match this process created has
        none to read while it is the only process (``room.address`` is set for those)."""
        table = self.tables.get(room)
        if table is None:
            lines: list[ChatLine] = []
            muted: set[str] = set()
            if room.address is None or self.services.several:
                lines, muted = await self.services.db(self.services.store.chat, room.data.id)
            if room in self.tables:
                return self.tables[room]
            table = self.tables[room] = TableChat([line for line in lines if line.kind == "say"], muted)
            table.known = {line.id for line in lines if line.id is not None}
            table.polled = max(table.known, default=0)
            if room.address is None:  # rebuilt from the database: its notes go back into its log
                notes = [(line.viewer, line.text, _places(line.shown)) for line in lines if line.kind == "note"]
                presence.restore_lines(room, notes)
        return table

    async def history(self, room: Room) -> str:
        """The ``chat`` message a client gets when it connects: the latest ``chat_history`` lines."""
        table = await self.table(room)
        lines = [line_json(line) for line in table.lines[-self.limits.chat_history :]]
        return encode({"type": "chat", "lines": lines, "reset": True})

    async def replay(self, room: Room) -> list[dict[str, Any]]:
        """Every line with the move it was said at (a finished match's replay)."""
        return [line_json(line, with_ply=True) for line in (await self.table(room)).lines]

    async def say(self, room: Room, sub: Subscriber, message: dict[str, Any]) -> None:
        """A client's chat message: checked, stored, then sent to every client of the match."""
        if not set(message) <= CHAT_FIELDS:
            raise ApiError(
                400, "bad_request", "a chat message has only 'text' (and 'id'): it speaks as its socket's seat"
            )
        if room.data.status not in ("open", "running", "finished"):
            raise ApiError(409, "not_running", f"the match is {room.data.status}: its chat is closed")
        text = clean(message.get("text"), self.limits.chat_length)
        table = await self.table(room)
        if sub.seat is None and await self._muted(room, table, sub.viewer):
            raise ApiError(403, "muted", "the host muted you in this race's chat; you can still watch")
        limits = self.limits
        mine = self.sockets.setdefault(sub, Bucket(limits.chat_per_minute, limits.chat_burst))
        speaker: int | str = sub.seat if sub.seat is not None else sub.viewer
        theirs = table.speakers.setdefault(speaker, Bucket(limits.chat_per_minute, limits.chat_burst))
        wait = max(mine.wait(), theirs.wait())
        if wait > 0:
            raise ApiError(
                429, "too_many",
                f"at most {limits.chat_per_minute} chat messages a minute (a burst of {limits.chat_burst}); "
                f"wait {wait:.0f} s",
                wait=round(wait, 1),
            )
        if sub.seat is not None:
            name = room.data.seats[sub.seat].name or f"P{sub.seat + 1}"
        else:
            name = f"Spectator {sub.viewer}"
        line = ChatLine("say", sub.seat, "" if sub.seat is not None else sub.viewer, name, text,
                        room.state.ply, clock.now())
        await self.post(room, line)
        mine.spend()
        theirs.spend()

    def keep_note(self, room: Room, kind: str, text: str, shown: dict[int | None, int]) -> None:
        """Store a line of the log that the moves do not make (a resignation, a claim: ``kind``) with its
        place in each seat's log, so a restart puts it back (``table``). Stored after the clients were
        told (a note is no player's word: losing it with the process loses no one's line)."""
        places = json.dumps([[seat, ply] for seat, ply in shown.items()])
        line = ChatLine("note", None, kind, "", text, room.state.ply, clock.now(), shown=places)
        task = asyncio.get_running_loop().create_task(self._store_note(room, line))
        self.services.tasks.add(task)
        task.add_done_callback(self.services.tasks.discard)

    async def _store_note(self, room: Room, line: ChatLine) -> None:
        try:
            line.id = await self.batches.add_line(room.data.id, line)
        except Exception:
            log.exception("match %s: a log line could not be stored", room.data.id)
            return
        table = self.tables.get(room)
        if table is not None:
            table.known.add(line.id)

    async def post(self, room: Room, line: ChatLine) -> None:
        table = await self.table(room)
        try:
            line.id = await self.batches.add_line(room.data.id, line)
        except Exception as exc:
            raise ApiError(503, "unavailable", "the message could not be saved; nothing was sent") from exc
        self._tell(room, table, line)

    def _tell(self, room: Room, table: TableChat, line: ChatLine) -> None:
        """A stored line goes to every client of the match, once (a poll may read it first)."""
        if not table.first_sight(line.id):
            return
        table.lines.append(line)
        text = encode({"type": "chat", "lines": [line_json(line)]})
        for other in list(room.subs):
            other.queue.put_nowait(text)

    async def catch_up(self, rooms: list[Room]) -> None:
        """With several processes on one database (``Peers.peer_watch``): the lines said through the
        others since the last look, in the rooms whose chat was read here (kept for a client who comes
        back while the room is in memory): each chat line goes to every client here, and each note (a
        resignation, a claim) into the log (``presence.add_line``). One query for all the rooms."""
        tables = {r.data.id: (r, t) for r in rooms if (t := self.tables.get(r)) is not None}
        if not tables:
            return
        after = max(0, min(t.polled for _room, t in tables.values()) - LOOK_BACK)
        found = await self.services.db(self.services.store.chat_after, list(tables), after)
        for match_id, line in found:
            room, table = tables[match_id]
            table.polled = max(table.polled, line.id or 0)
            if line.kind == "say":
                self._tell(room, table, line)
            elif line.kind == "note" and table.first_sight(line.id):
                presence.add_line(room, line.viewer, line.text, _places(line.shown))

    async def _muted(self, room: Room, table: TableChat, viewer: str) -> bool:
        """Whether a spectator is muted. With several processes the host may have muted (or unmuted) them
        through another one, so the database answers (a spectator's line is rare: one small query)."""
        if not self.services.several:
            return viewer in table.muted
        muted = await self.services.db(self.services.store.is_muted, room.data.id, viewer)
        table.set_muted(viewer, muted)
        return muted

    async def mute(self, room: Room, viewer: Any, muted: bool) -> None:
        """The host mutes (or unmutes) a spectator: their messages are refused from now on."""
        if not isinstance(viewer, str) or not VIEWER_ID.fullmatch(viewer):
            raise ApiError(400, "bad_request", "'viewer' must be a spectator's id as the chat shows it (8 hex digits)")
        table = await self.table(room)
        await self.services.db(self.services.store.set_mute, room.data.id, viewer, muted)
        table.set_muted(viewer, muted)
