"""Rematch invitations: a rematch holds each player's seat for them for a while (issue 28).

When the first player (or the host) asks for a rematch of a finished race, every player of that race
(a person's seat, a resigned one too) is invited: the finished race's state names the rematch
(``match.rematch``), so each player's open page shows a banner with one button that takes their seat,
and their seat in the rematch is held for them for ``rematch_hold`` seconds (stored with the rematch,
``tables.SeatHoldRow``): meanwhile no stranger may join it and the host may not put a bot in it
(``seat_held``). Bots keep their seats as they were. Once the hold runs out the seat is an open seat as
any other. Only the seat's player, with their token of the race before, takes a held seat
(``Rematches.rematch``).
"""

from __future__ import annotations

from typing import Any

from . import clock
from .errors import ApiError
from .seats import seat_label
from .storage import MatchData

PLAYER_KINDS = ("human", "resigned")
"""The seats of a finished race whose players a rematch invites."""


def holds(old: MatchData, seconds: float, now: float) -> dict[int, tuple[str, float]]:
    """The seats a rematch of ``old`` holds: each player's, under their name, until ``now + seconds``."""
    return {s.seat: (s.name, now + seconds) for s in old.seats if s.kind in PLAYER_KINDS}


def held_for(data: MatchData, seat: int, now: float | None = None) -> str | None:
    """The player an open seat is held for now, if it is."""
    hold = data.holds.get(seat)
    if hold is None or data.status != "open" or data.seats[seat].kind != "open":
        return None
    name, until = hold
    return name if until > (clock.now() if now is None else now) else None


def refuse_held(data: MatchData, seat: int, doing: str) -> None:
    """An ``ApiError`` (``seat_held``) if the seat is held for its player: ``doing`` says what is refused."""
    name = held_for(data, seat)
    if name is None:
        return
    left = data.holds[seat][1] - clock.now()
    raise ApiError(
        409,
        "seat_held",
        f"{seat_label(seat)} is held for {name}, invited to this rematch, for {left:.0f} s more: {doing}",
        wait=round(left, 1),
    )


def seat_info(data: MatchData) -> list[dict[str, Any]]:
    """The seats as ``match_info`` shows them, a held seat with ``held_for`` and ``held`` (seconds left)."""
    now = clock.now()
    out = []
    for s in data.seats:
        seat: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
        if data.holds and held_for(data, s.seat, now) is not None:
            seat["held_for"] = data.holds[s.seat][0]
            seat["held"] = round(data.holds[s.seat][1] - now, 1)
        out.append(seat)
    return out


def rematch_info(data: MatchData) -> dict[str, Any] | None:
    """A finished race's rematch, as its players' pages show it (``match.rematch``): its id and the
    seconds its seats are still held (0: no longer)."""
    if data.rematch_id is None:
        return None
    left = max(0.0, (data.rematch_until or 0.0) - clock.now())
    return {"id": data.rematch_id, "held": round(left, 1)}

