"""A game's declared observation: named slots with true bounds, written from the state for one seat.

The AI bridges (``slipstream.interop``) give a learner a fixed-length vector of numbers per seat. A game
that declares the ``observation`` hook (``GameHooks.observation``) describes that vector itself, for a
loaded game (its player count, options and content): every slot has a name and holds a value in
[0, 1] by construction, a flag, one slot of a one-hot block, a count over its true maximum, so no
position can fall outside it. The game writes a seat's observation straight from the state into a
zeroed buffer (a numpy array in the bridges), reading only what ``view(seat)`` shows that seat.

Standard library only, like the rest of the engine: the buffer is anything that takes
``out[index] = value``. A declaration whose every value is a float32 (``float32``, ``Scale``) says so with
a true ``writes_float32`` attribute: a Python list it fills then holds what a float32 array would, with no
array in between (OpenSpiel's ``observation_tensor`` is such a list).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .game import State


class Buffer(Protocol):
    """Where an observation is written: a zeroed, fixed-length vector of floats (a numpy array)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class Observation(Protocol):
    """A game's declared observation for one loaded game (what the ``observation`` hook returns)."""

    @property
    def names(self) -> tuple[str, ...]:
        """A name for every slot, in order (``racer 1/laps``, ``phase=roll``)."""

    def write(self, state: State, seat: int, out: Buffer) -> None:
        """Write ``seat``'s observation of ``state`` into ``out`` (zeroed, ``len(names)`` long): only its
        non-zero slots, each in [0, 1], from what ``state.view(seat)`` shows that seat and nothing more."""


class Layout:
    """Hands out named slots in order; each method returns the index of the (first) slot it added."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def slot(self, name: str) -> int:
        """One slot: a flag (0 or 1) or a number scaled into [0, 1] by its true bound."""
        self.names.append(name)
        return len(self.names) - 1

    def one_hot(self, name: str, choices: Iterable[object]) -> int:
        """A block of slots ``name=choice``, one per choice in order: at most one of them is 1."""
        start = len(self.names)
        self.names.extend(f"{name}={choice}" for choice in choices)
        return start

    def count(self, name: str) -> int:
        """Two slots for a count with no true maximum (a round number): ``name``, linear up to a usual
        bound, then ``name beyond``, the excess squashed into [0, 1) (``Scale.write_count``)."""
        start = self.slot(name)
        self.slot(f"{name} beyond")
        return start

    def __len__(self) -> int:
        return len(self.names)


FLOAT32_KEPT = 4096
"""``float32`` keeps at most this many rounded values; past that the kept ones are dropped and kept anew."""
_float32_kept: dict[float, float] = {}


def float32(value: float) -> float:
    """``value`` rounded to the nearest float32, the value a float32 array stores for it (kept: an observation
    meets the same few fractions again and again)."""
    rounded = _float32_kept.get(value)
    if rounded is None:
        if len(_float32_kept) >= FLOAT32_KEPT:
            _float32_kept.clear()
        rounded = _float32_kept[value] = float(struct.unpack("f", struct.pack("f", value))[0])
    return rounded


class Scale:
    """A count's value in [0, 1] as a float32 (``float32``): ``count / bound``, or ``count * factor`` when a
    factor is given, read from a table made once for every count from 0 to ``bound`` (computed when met
    outside it), so a writer neither divides nor makes a new float for it."""

    def __init__(self, bound: int, factor: float | None = None) -> None:
        self.bound = bound
        self.factor = factor
        self.values: tuple[float, ...] = tuple(self._computed(count) for count in range(bound + 1))

    def _computed(self, count: int) -> float:
        if count == 0:
            return 0.0
        if self.factor is not None:
            return float32(count * self.factor)
        return float32(count / self.bound)

    def of(self, count: int) -> float:
        """``count``'s value (its float32)."""
        if 0 <= count <= self.bound:
            return self.values[count]
        return self._computed(count)

    def write_count(self, out: Buffer, index: int, value: int) -> None:
        """Write a count laid out by ``Layout.count`` (``bound`` its usual bound): ``value / bound`` up to
        ``bound``; above it the first slot holds 1 and the second ``excess / (excess + bound)``, so every
        count has its own value, in [0, 1], every value a float32."""
        usual = self.bound
        if value <= usual:
            if value > 0:
                out[index] = self.values[value]
            return
        excess = value - usual
        out[index] = 1.0
        out[index + 1] = float32(excess / (excess + usual))
