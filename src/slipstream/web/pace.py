"""A table's pace (issue 28): ``live``, everyone at the table now, or turn-based, a move within a limit
of hours or days.

A turn-based table keeps the machinery of a live one, with its move limit as the turn timer: a player
who has not moved when the limit runs out has that move played by the game's own bot (the log says so),
never before. Being offline is normal at such a pace, so nothing else happens to an absent player: no
claim of the win (``Room.claim_key``), no "abandoned" after a day (``Hub.sweep`` waits the limit too).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pace:
    name: str
    """The value the API takes and the database stores."""
    words: str
    """What a player reads (the lobby's choice, the match page, the lists)."""
    seconds: int | None
    """The move limit (``None``: live, whose turn timer is the host's own choice)."""


LIVE = Pace("live", "Live", None)
PACES = {
    p.name: p
    for p in (
        LIVE,
        Pace("1-hour", "Turn-based: a move within 1 hour", 3600),
        Pace("12-hours", "Turn-based: a move within 12 hours", 12 * 3600),
        Pace("1-day", "Turn-based: a move within 1 day", 86400),
        Pace("3-days", "Turn-based: a move within 3 days", 3 * 86400),
    )
}
"""Every pace a table may have, as the lobby offers them."""
