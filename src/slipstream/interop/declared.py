"""The observation a game declares (its ``observation`` hook, ``slipstream.engine.observation``): named
slots with true bounds in [0, 1], written for a seat straight from the engine state into a numpy array,
not through the JSON view.

``observation="declared"`` on every bridge, and their default for a game that declares the hook (the
full observation of ``slipstream.interop.encoding`` otherwise). The game's declaration reads only what
``view(seat)`` shows that seat (``tests/interop/test_declared.py`` checks it against the view over
playouts), and every slot is bounded by construction: no position can fall outside the declared space.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from slipstream.engine import Game, State, hooks_of
from slipstream.engine.observation import Buffer, Observation

from .encoding import Vector


def declares_observation(game: Game | type[Game]) -> bool:
    """Whether the game declares its observation (the ``observation`` hook)."""
    return hooks_of(game).observation is not None


class DeclaredEncoder:
    """A game's declared observation for one loaded game: ``observe(state, seat)`` gives a new float32
    vector of length ``size``; ``fill(out, state, seat)`` writes into one the caller keeps."""

    def __init__(self, game: Game) -> None:
        declare = hooks_of(game).observation
        if declare is None:
            raise ValueError(f"{game.id} declares no observation")
        self.declaration: Observation = declare(game)
        self.names: tuple[str, ...] = tuple(self.declaration.names)
        """Each slot's name, as the game declares it (``racer 1/laps``, ``phase=roll``)."""
        self.size = len(self.names)
        self.low: Vector = np.zeros(self.size, np.float32)
        self.high: Vector = np.ones(self.size, np.float32)
        self._write = self.declaration.write
        self.writes_float32 = bool(getattr(self.declaration, "writes_float32", False))
        """Whether every value the game writes is a float32 (``slipstream.engine.observation``): then a list
        of zeros it fills holds the float32 vector's ``tolist()``, with no array in between."""

    def observe(self, state: State, seat: int) -> Vector:
        out = np.zeros(self.size, np.float32)
        self._write(state, seat, cast(Buffer, out.data))
        return out

    def fill(self, out: Vector, state: State, seat: int) -> None:
        """The game writes through a ``memoryview`` of ``out``: a slot written that way costs less than one
        written through numpy (a fifth to a third less per observation, compiled)."""
        out.fill(0.0)
        self._write(state, seat, cast(Buffer, out.data))
