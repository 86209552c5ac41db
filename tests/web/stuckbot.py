"""A bot that never answers (``stuck``), registered as a plugin so bot workers know it too: it stands
for a search with no bound on its time."""

from __future__ import annotations

import time
from typing import Any

from slipstream.bots.registry import register_bot


class StuckBot:
    name = "stuck"

    def choose(self, state: Any, seat: int) -> str:
        time.sleep(3600)
        raise RuntimeError("unreachable")


register_bot("stuck", lambda game_id, seed: StuckBot())
