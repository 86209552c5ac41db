"""A seat's moves, checked against the server's own state before anything is written: an action
(``check_request``, then ``check_action`` under the room's lock; ``Hub.act`` commits it), and an undo
of the seat's last step when it revealed nothing (``undo``)."""

from __future__ import annotations

from typing import Any

from slipstream.engine.play import pending_seats

from . import clock
from .commits import Write, Writer
from .errors import ApiError
from .protocol import describe
from .room import Room
from .seats import seat_label
from .storage import MoveData

MAX_ACTION = 200
"""The longest action string a client may send (every game's are far shorter)."""


def check_request(action: Any, ply: Any, client_id: Any) -> None:
    """An action request's fields, before the room is looked at: an ``ApiError`` if one is malformed."""
    if not isinstance(action, str) or not action or len(action) > MAX_ACTION:
        raise ApiError(400, "bad_request", "'action' must be a non-empty string (at most 200 characters)")
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ApiError(
            400, "bad_request", "'ply' must be the whole number of the position the action is for"
        )
    if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
        raise ApiError(400, "bad_request", "'id' must be a string of 1 to 64 characters")


def check_action(room: Room, seat: int, action: str, ply: int, client_id: str | None) -> None:
    """Whether ``seat`` may play ``action`` now, chosen at ``ply`` (as the seat was shown it): not an
    action already accepted, the match running, the seat a player's and asked to act, the ply neither
    stale nor ahead, the action legal; else an ``ApiError`` saying which (the caller holds the lock)."""
    if client_id is not None and (seat, client_id) in room.accepted:
        raise ApiError(
            409,
            "duplicate",
            "an action with this id was already accepted",
            ply=room.accepted[(seat, client_id)],
        )
    if room.data.status != "running":
        raise ApiError(409, "not_running", f"the match is {room.data.status}")
    state = room.state
    now = room.shown(seat)
    if room.data.seats[seat].kind != "human":
        raise ApiError(
            409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is played by a bot now", ply=now
        )
    if seat not in pending_seats(state):
        raise ApiError(
            409, "not_your_turn", f"{seat_label(seat, room.data.seats)} is not asked to act now", ply=now
        )
    if not room.since_shown.get(seat, now) <= ply <= now:
        raise ApiError(
            409, "stale", f"the action was chosen at ply {ply}; the match is at ply {now}", ply=now
        )
    legal = state.legal_actions(seat)
    if action not in legal:
        shown = ", ".join(describe(room.game, a) for a in legal[:40])
        shown += " ..." if len(legal) > 40 else ""
        raise ApiError(
            422,
            "illegal_action",
            f"{seat_label(seat, room.data.seats)} cannot play that move now; the legal moves: "
            f"{shown or 'none'}",
            legal=legal,
        )


async def undo(writer: Writer, room: Room, seat: int, ply: Any) -> dict[str, Any]:
    """Take back ``seat``'s last step, if it revealed nothing (``Room.undo_index``): the move is
    deleted from the database (other seats' secret steps after it are kept, a ply earlier, in the
    same transaction), then the room is rebuilt. Only clients whose view changes are told
    (``Room.resend``): a hidden step (a secret cart step) is taken back for its own seat's eyes only.

    The deletion is conditional (``Store.take_back``): it is made only if the stored moves are still
    exactly those this process holds. If another process stored a step since (a step this process
    has not caught up with, perhaps acknowledged to another player), nothing is deleted: the room
    catches up and the undo is decided again on the match as it is (``stale`` or ``cannot_undo``)."""
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ApiError(400, "bad_request", "'ply' must be the whole number of the position shown")
    kept: list[MoveData] = []
    index = 0

    def decide() -> Write:
        nonlocal kept, index
        if room.data.status != "running":
            raise ApiError(409, "not_running", f"the match is {room.data.status}")
        now = room.shown(seat)
        if ply != now:
            raise ApiError(409, "stale", f"the undo was asked at ply {ply}; the match is at ply {now}", ply=now)
        found = room.undo_index(seat)
        later = [] if found is None else room.moves[found + 1 :]
        kept = [MoveData(m.ply - 1, m.action, m.seat, m.client_id, m.at) for m in later]
        if found is None or (kept and not room.replays(room.moves[:found] + kept)):
            raise ApiError(409, "cannot_undo", room.why_no_undo(seat), ply=now)
        index = found
        return writer.services.store.take_back, (room.moves[index].ply, kept)

    async with room.lock:
        await writer.conditional(room, decide, seat)
        before = room.sights()
        room.rewind(room.moves[:index] + kept)
        room.data.updated_at = clock.now()
        room.resend(before)
        return {"type": "undone", "ply": room.shown(seat)}
