"""Loop-track geometry: a racer's progress is the number of spaces it has moved since the start.

Progress 0 is "not yet on the track" (behind the start/finish line); progress ``p >= 1`` stands on
space ``(p - 1) % length`` (0-based, the first space past the line) and has crossed the line
``(p - 1) // length`` times since it first entered the track.
"""

from __future__ import annotations


def space_of(progress: int, length: int) -> int:
    """The 0-based track space of a racer at ``progress >= 1``."""
    return (progress - 1) % length


def crossings(progress: int, length: int) -> int:
    """How many times a racer at ``progress`` has crossed the line after its first entry."""
    return (progress - 1) // length if progress > 0 else 0


def lap_start(progress: int, length: int) -> int:
    """The progress of the first space past the line on the racer's current lap."""
    return crossings(progress, length) * length + 1


def ahead_distance(a: int, b: int) -> int:
    """How far progress ``a`` is ahead of ``b`` (negative when behind)."""
    return a - b
