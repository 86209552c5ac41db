"""The server's wall clock: ``now()`` is ``time.time()`` moved on by ``offset`` seconds.

One seam for tests: a test moves the clock of an in-process hub with ``advance``, and a server process
started through ``tests/web/clockserve.py`` runs with its clock a set time ahead (a turn-based match
"the next day"). Everything that times a match (the turn timer, presence, the stamps of stored moves)
reads this clock; intervals within the process (rate limits, the watchdog) read ``time.monotonic``.
"""

from __future__ import annotations

import time

offset = 0.0
"""Seconds the clock is ahead of the machine's (0 but in tests)."""


def now() -> float:
    """The time now, as ``time.time()`` (seconds since the epoch)."""
    return time.time() + offset


def advance(seconds: float) -> None:
    """Move the clock on (tests)."""
    global offset
    offset += seconds
