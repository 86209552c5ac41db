"""Presence at the table: who is there, who is away and for how long, who watches (issue 28).

Every client of a match is told, when someone comes or goes, which players are there (an open socket
to the race, through any server process: ``Room.here``) and, for each player away, how long they have
been away (the last sign of them: ``Room.away``), with the race's ``claim_grace``, so a page can count
down to the moment a player who is there may claim the win; and how many spectators watch. A
``presence`` message goes out only when this changes (its sockets come and go, not its moves).

Resigning and claiming the win are told to everyone as log lines (a time-out already is: the turn
timer's note), so nobody has to spot a small "resigned" tag.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from slipstream.engine.game import Event
from slipstream.jsontext import encode

from . import clock

if TYPE_CHECKING:
    from .room import Room

_told: weakref.WeakKeyDictionary[Room, tuple[Any, ...]] = weakref.WeakKeyDictionary()
"""What each room's clients were last told (``announce``)."""


def summary(room: Room) -> dict[str, Any]:
    """The ``presence`` message: each player's seat ``here`` or ``away`` (seconds, counted from the last
    sign of its player), the ``spectators`` watching and the race's ``claim_grace`` (``None``: a turn-based
    race, which has no claim of the win)."""
    now = clock.now()
    here = room.here()
    away = room.away() if room.data.status == "running" else {}
    seats: dict[str, Any] = {}
    for s in room.data.seats:
        if s.kind != "human":
            continue
        gone = away.get(s.seat)
        seats[str(s.seat)] = {"here": s.seat in here, "away": None if gone is None else round(max(0.0, now - gone), 1)}
    spectators = sum(1 for sub in room.subs if sub.seat is None)
    grace = room.claim_grace if room.data.pace == "live" else None  # turn-based: no claim of the win
    return {"type": "presence", "seats": seats, "spectators": spectators, "claim_grace": grace}


def _key(room: Room) -> tuple[Any, ...]:
    """What a ``presence`` message says, but for the clocks (so an unchanged table tells nobody)."""
    here = frozenset(room.here())
    humans = tuple(s.seat for s in room.data.seats if s.kind == "human")
    spectators = sum(1 for sub in room.subs if sub.seat is None)
    return here, humans, spectators, room.data.status


def tell(room: Room) -> None:
    """A client came or went, or the seats changed: each player's socket whose claim changed
    (``Room.claim_key``) is told whether and when it may claim the win (a ``claim`` message), and every
    client who is there now (``announce``)."""
    for sub in list(room.subs):
        key = room.claim_key(sub.seat)
        if sub.seat is None or key == sub.claim_key:
            continue
        sub.claim_key = key
        sub.queue.put_nowait(encode({"type": "claim", "claim": room.claim_info(sub.seat)}))
    announce(room)


def announce(room: Room) -> None:
    """A client came or went (``tell``): if who is there changed, every client is told."""
    key = _key(room)
    if _told.get(room) == key:
        return
    _told[room] = key
    message = encode(summary(room))
    for sub in list(room.subs):
        sub.queue.put_nowait(message)


def message(room: Room) -> str:
    """The ``presence`` message for a client that just connected."""
    return encode(summary(room))


def log_line(room: Room, text: str, kind: str) -> dict[int | None, int]:
    """A line in everyone's log (``resign``, ``claim``) at the current position; each client gets its
    log again (a ``log`` message) before the state that follows. Where it stands in each seat's log
    (the ply each seat is shown), to store it (``ChatDesk.keep_note``)."""
    shown = {t: room.shown(t) for t in (None, *room.game.seats)}
    _add_and_tell(room, kind, text, shown)
    return shown


def add_line(room: Room, kind: str, text: str, shown: dict[int | None, int]) -> None:
    """A log line another server process wrote (``ChatDesk.catch_up``) into the room's log, once (the
    same line at the same place is there already: this process wrote it), and every client is told."""
    if not any(at == shown and event.text == text for at, event in room.lines):
        _add_and_tell(room, kind, text, shown)


def _add_and_tell(room: Room, kind: str, text: str, shown: dict[int | None, int]) -> None:
    """The line into the room's log at ``shown``, and every client gets its log again."""
    room.add_line(shown, Event(kind, text, rule=""))
    for sub in list(room.subs):
        sub.queue.put_nowait(room.log_message(sub.seat))


def restore_lines(room: Room, notes: list[tuple[str, str, dict[int | None, int]]]) -> None:
    """Stored log lines (``kind``, ``text``, their place in each seat's log) back into a room rebuilt
    from its moves (after a restart), each after the steps its spectators had been shown (``Room.add_line``:
    an undo keeps them too)."""
    for kind, text, shown in notes:
        room.add_line(shown, Event(kind, text, rule=""))


def resigned_text(seats: list[int], claimant: int | None) -> str:
    """The log line of a resignation or a claim, seats as the engine names them (``P2``; pages show names)."""
    names = " and ".join(f"P{s + 1}" for s in seats)
    if claimant is None:
        return f"{names} resigned: a bot plays their seat to the end, ranked last"
    return (
        f"P{claimant + 1} claimed the win from {names}, away from the race: a bot plays "
        f"{'their seats' if len(seats) > 1 else 'their seat'} to the end, ranked last"
    )
