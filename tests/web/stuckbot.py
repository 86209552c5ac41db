"""Test bots, registered as a plugin so bot workers know them too: ``stuck`` never answers (it stands for
a search with no bound on its time); ``slow`` thinks 0.4 s a move (sleeping, so it holds a worker
without taking a core), then plays the first legal action."""

from __future__ import annotations

import time
from typing import Any

from slipstream.bots.registry import register_bot

SLOW_SECONDS = 0.4


class StuckBot:
    name = "stuck"

    def choose(self, state: Any, seat: int) -> str:
        time.sleep(3600)
        raise RuntimeError("unreachable")


class SlowBot:
    name = "slow"

    def choose(self, state: Any, seat: int) -> str:
        time.sleep(SLOW_SECONDS)
        return str(state.legal_actions(seat)[0])


register_bot("stuck", lambda game_id, seed: StuckBot())
register_bot("slow", lambda game_id, seed: SlowBot())
