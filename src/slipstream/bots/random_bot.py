"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random

from slipstream.engine.game import State


class RandomBot:
    """Picks uniformly among the seat's legal actions, from its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        return self.rng.choice(state.legal_actions(seat))
